"""A rebuild a month later: the same repositories, mined at a later commit, make a release of only the
classes that are new, and the release's diff lists them; a rebuild with nothing new makes no release.

The stages run in this process (no Prefect), mining only, judges off: what is checked is the run id and the
release, not the offline judges' view of the fixtures.
"""

from __future__ import annotations

import json
from datetime import date

import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module
from typer.testing import CliRunner

from commands.main import app
from core.funnel import Funnel
from core.records import Origin
from core.settings import Settings
from core.store import ArtifactStore
from judges.config import JudgesConfig
from pipeline.mining.records import MineConfig
from pipeline.mining.snapshot import sources_digest
from pipeline.release.assemble import ReleaseConfig
from pipeline.release.dataset_io import read_split, split_file
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, ThreadExecutor, run_stage
from pipeline.stages.gate import GateStage
from pipeline.stages.mine import MineStage
from pipeline.stages.release import ReleaseStage
from pipeline.stages.repair import RepairStage
from pipeline.stages.runs import finished_outcome
from pipeline.stages.seeds import SeedsStage, corpus_hash, default_run_id, load_seed_records
from validation.policy import GatePolicy

SHELF = '''

class StockShelf:
    """Counts of items on a shelf that holds at most `capacity` items in all; a refused put or take leaves
    the shelf unchanged."""

    def __init__(self, capacity: int = 10) -> None:
        """Start with an empty shelf."""
        self.capacity = capacity
        self.counts: dict[str, int] = {}
        self.moves = 0

    def put(self, item: str, count: int) -> int:
        """Put `count` of `item` on the shelf and return how many of it are there now; ValueError when
        `count` is not positive or the shelf has no room for them."""
        if count <= 0:
            raise ValueError("count must be positive")
        if count > self.free():
            raise ValueError("no room on the shelf")
        self.counts[item] = self.counts.get(item, 0) + count
        self.moves += 1
        return self.counts[item]

    def take(self, item: str, count: int) -> int:
        """Take `count` of `item` off the shelf and return how many of it are left; KeyError when fewer
        are there."""
        have = self.counts.get(item, 0)
        if count > have:
            raise KeyError(item)
        if count == have:
            del self.counts[item]
        else:
            self.counts[item] = have - count
        self.moves += 1
        return have - count

    def used(self) -> int:
        """Items on the shelf."""
        return sum(self.counts.values())

    def free(self) -> int:
        """Room left on the shelf."""
        return self.capacity - self.used()

    def items(self) -> list[str]:
        """Names of the items on the shelf, sorted."""
        return sorted(self.counts)

    def fullest(self) -> str | None:
        """The item with the largest count (the first by name on a tie); None on an empty shelf."""
        if not self.counts:
            return None
        return min(self.counts, key=lambda name: (-self.counts[name], name))
'''


def _config(repos) -> BuildConfig:  # noqa: ANN001 - Path
    # One domain of seeds (the seeds stage records them; nothing is made of them here); mutants and the
    # robustness reruns are checked elsewhere and would only cost time.
    return BuildConfig(domains=("Game_Sim",), mine=MineConfig(local=repos), judges=JudgesConfig(enabled=False),
                       gate=GatePolicy(run_mutation=False, robustness=False),
                       release=ReleaseConfig(release_date=date(2026, 12, 2)))


def _build(store: ArtifactStore, config: BuildConfig, settings: Settings) -> tuple[str, object]:
    """The build flow's stages less enhance and compose (this is about mined material; their tasks from
    the same seeds are duplicates on a rebuild) and the judges, under the run id a build derives; the
    run's outcome, as a rerun of a finished run reports it."""
    _, seeds = load_seed_records(config, settings)
    run_id = default_run_id(config, seeds, settings)
    if (done := finished_outcome(store, run_id)) is not None:
        return run_id, done
    ctx = RunContext(store, run_id, config, settings)
    funnel = Funnel(run_id=run_id)
    with config.sandbox_pool() as pool:  # one pool for the build's stages
        for stage in (SeedsStage(), MineStage(), GateStage(), RepairStage()):
            for name, count in run_stage(stage, ctx, ThreadExecutor(pool=pool)).items():
                funnel = funnel.with_stage(name, count)
    run_stage(ReleaseStage(funnel), ctx)
    return run_id, finished_outcome(store, run_id)


@pytest.mark.slow
def test_a_rebuild_after_the_repositories_moved_on_releases_only_the_new_classes(tmp_path, monkeypatch):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    settings = Settings.from_environment()
    store = ArtifactStore(tmp_path / "artifacts")
    repos = tmp_path / "repos"
    repo = make_repo(repos / "books")
    commit(repo, "2025-03-02", {"books/ledger.py": ledger_module("FreshLedger"), "README.md": "a ledger cache"})
    config = _config(repos)

    first_run, first = _build(store, config, settings)
    assert first.version == "2026.12.0", first.message
    first_tasks = read_split(store.release_dir("2026.12.0") / split_file("2026.12.0"))
    assert [t.class_name for t in first_tasks] == ["FreshLedger"]

    # A month later: a new class, and the old one untouched.
    commit(repo, "2025-04-06", {"books/shelf.py": SHELF})
    second_run, second = _build(store, config, settings)
    assert second_run != first_run, "the repository moved on: another run, not the finished one"
    assert second.version == "2026.12.1", second.message
    own = read_split(store.release_dir("2026.12.1") / split_file("2026.12.1"))
    assert [(t.class_name, t.origin, t.source_date) for t in own] == [("StockShelf", Origin.MINED, "2025-04-06")]
    assert list(second.released) == [t.task_id for t in own]
    diff = json.loads((store.release_dir("2026.12.1") / "diff.json").read_text())
    assert (diff["previous_version"], diff["added"], diff["changed"], diff["removed"], diff["unchanged"]) == (
        "2026.12.0", [own[0].task_id], [], [], 1)
    card = (store.release_dir("2026.12.1") / "README.md").read_text()
    # the tasks one by one are beside the card, in tasks.md: the new one added, the earlier one carried
    listed = (store.release_dir("2026.12.1") / "tasks.md").read_text()
    row = next(line for line in listed.splitlines() if f"`{own[0].task_id}`" in line)
    assert row.startswith(f"| `{own[0].task_id}` | StockShelf | mined |")
    assert row.endswith("| 2025-04-06 | `local:books:books/shelf.py` | 2026.12.1 | added |")
    assert "| from 2026.12.0 |" in listed and "Added 1, changed 0, removed 0" in card
    assert "| 2025-03 | mined | 1 |\n| 2025-04 | mined | 1 |" in card  # per month of source date and origin
    # The class released before is known at the mine stage: no tests are written or gated for it again.
    funnel = json.loads((store.runs / second_run / "funnel.json").read_text())["stages"]
    assert (funnel["mine"]["received"], funnel["mine"]["accepted"], funnel["mine"]["rejected"]) == (2, 1, {"duplicate": 1})
    assert (funnel["validate"]["received"], funnel["release"]["received"], funnel["release"]["rejected"]) == (1, 1, {})

    shown = CliRunner().invoke(app, ["release", "diff", "2026.12.1"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0] == "2026.12.1 against 2026.12.0: added 1, changed 0, removed 0, unchanged 1"
    assert lines[1].split() == ["added", own[0].task_id, "StockShelf", "mined", "2025-04-06", "local:books:books/shelf.py"]
    assert len(lines) == 2
    assert CliRunner().invoke(app, ["release", "diff", "2026.12.1", "--json", str(tmp_path / "diff.json")]).exit_code == 0
    rows = json.loads((tmp_path / "diff.json").read_text())["rows"]
    assert [(r["change"], r["task_id"], r["source_date"]) for r in rows] == [("added", own[0].task_id, "2025-04-06")]

    # Nothing new since: a commit that adds no class is another run, which ends without a release and says why.
    commit(repo, "2025-05-01", {"README.md": "a ledger cache, and a shelf"})
    third_run, third = _build(store, config, settings)
    assert third_run not in (first_run, second_run)
    assert third.version is None
    assert third.message == "no new release: no task reached the release stage (mine: 2 duplicate)"
    assert sorted(p.name for p in store.releases.iterdir() if not p.name.startswith(".")) == ["2026.12.0", "2026.12.1"]


def test_the_run_id_names_the_heads_of_the_mined_repositories(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    settings = Settings.from_environment()
    _, seeds = load_seed_records(BuildConfig(domains=("Game_Sim",)), settings)
    offline = BuildConfig()  # no mining: the id is the configuration's and the corpus's, as it always was
    assert default_run_id(offline, seeds, settings) == (
        f"run-{offline.fingerprint()}-{corpus_hash(seeds)[:10]}")
    repos = tmp_path / "repos"
    repo = make_repo(repos / "books")
    commit(repo, "2025-03-02", {"books/ledger.py": ledger_module("FreshLedger")})
    mine = MineConfig(local=repos)
    before = sources_digest(mine, github_token=False)
    assert sources_digest(mine, github_token=False) == before  # the same heads, the same run
    mining = BuildConfig(mine=mine)
    run_before = default_run_id(mining, seeds, settings)
    commit(repo, "2025-04-06", {"books/shelf.py": SHELF})
    assert sources_digest(mine, github_token=False) != before
    assert default_run_id(mining, seeds, settings) != run_before
    assert sources_digest(MineConfig(), github_token=True) is None  # no mining: the offline build's id is kept
    assert sources_digest(MineConfig(github=True), github_token=False) is None  # GitHub without a token: no mining
    github = MineConfig(github=True)
    assert sources_digest(github, github_token=True, today=date(2026, 12, 2)) != sources_digest(
        github, github_token=True, today=date(2027, 1, 2))
