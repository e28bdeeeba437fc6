"""Mined classes that pass the gate become seeds of enhance and compose in the same build (`[mine]
as_seeds`): what grows from them keeps their repository, commits and first-commit date.

The stages run in this process (no Prefect) on one sandbox pool, in the build's order; of enhance and
compose only the items made of mined classes are run (the bundled seeds' items are the offline build's,
tested elsewhere).
"""

from __future__ import annotations

import pytest
from git_fixtures import commit, git, make_repo
from mining_fixtures import ledger_module

from core.layout import Stage
from core.records import Candidate, GateReport, Origin
from core.settings import Settings
from core.store import ArtifactStore
from judges.config import JudgesConfig
from pipeline.mining.records import MineConfig
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, ThreadExecutor, run_stage
from pipeline.stages.gate import GateStage
from pipeline.stages.mine import MineStage
from pipeline.stages.mined_seeds import MinedSeedsStage
from pipeline.stages.seeds import SeedsStage, default_run_id, load_seed_records
from pipeline.stages.synthesis import PAIR_SEPARATOR, SynthesisStage
from pipeline.synthesis.stated_raises import unstated_expectations
from validation.policy import GatePolicy

# `freeze` makes `record` raise a RuntimeError its docstring never states (mining states it, from what the
# oracle observed); an operation of another class that feeds `record` does not
SAMPLES = '''

class SampleStats:
    """Running statistics of recorded samples: count, mean and range."""

    def __init__(self) -> None:
        """Start with no samples."""
        self.samples: list[float] = []
        self.frozen = False

    def record(self, value: float) -> int:
        """Record a sample and return how many are recorded."""
        if self.frozen:
            raise RuntimeError("frozen")
        self.samples.append(float(value))
        return len(self.samples)

    def freeze(self) -> int:
        """Stop taking samples and return how many were recorded."""
        self.frozen = True
        return self.count()

    def count(self) -> int:
        """Number of samples recorded."""
        return len(self.samples)

    def mean(self) -> float:
        """Mean of the samples; ValueError when there are none."""
        if not self.samples:
            raise ValueError("no samples")
        return sum(self.samples) / self.count()

    def spread(self) -> float:
        """Largest minus smallest sample; 0.0 when there are none."""
        if not self.samples:
            return 0.0
        return max(self.samples) - min(self.samples)

    def above(self, threshold: float) -> int:
        """How many samples are larger than `threshold`."""
        return sum(1 for sample in self.samples if sample > threshold)

    def clear(self) -> int:
        """Forget every sample and return how many there were."""
        dropped = self.count()
        self.samples = []
        return dropped
'''

pytestmark = pytest.mark.slow  # mines two repositories, gates two classes, enhances and composes in the sandbox


def _config(repos) -> BuildConfig:  # noqa: ANN001 - Path
    # Bundled seeds of one domain, mined classes of another: the mined ones pair with both.
    return BuildConfig(domains=("Game_Sim",), mine=MineConfig(local=repos, domains=("Math_Stats",)),
                       judges=JudgesConfig(enabled=False), gate=GatePolicy(run_mutation=False, robustness=False))


def test_mined_classes_that_pass_the_gate_are_enhanced_and_composed_with_their_provenance(tmp_path, monkeypatch):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    settings = Settings.from_environment()
    store = ArtifactStore(tmp_path / "artifacts")
    repos = tmp_path / "repos"
    books = make_repo(repos / "books")
    commit(books, "2025-03-02", {"books/ledger.py": ledger_module("FreshLedger"), "README.md": "ledger statistics"})
    lab = make_repo(repos / "lab")
    commit(lab, "2025-05-10", {"lab/samples.py": SAMPLES, "README.md": "running statistics"})
    config = _config(repos)
    _, seeds = load_seed_records(config, settings)
    ctx = RunContext(store, default_run_id(config, seeds, settings), config, settings)

    with config.sandbox_pool() as pool:
        executor = ThreadExecutor(pool=pool)
        for stage in (SeedsStage(), MineStage()):
            run_stage(stage, ctx, executor)
        counts = run_stage(MinedSeedsStage(), ctx, executor)
        mined = {c.class_name: c for _, c in store.iter_records(ctx.run_id, Stage.MINE, Candidate)}
        assert set(mined) == {"FreshLedger", "SampleStats"}
        # gated (and repaired) once, here: the gate and repair stages find the records and do nothing again
        reports = {name: store.read(ctx.run_id, Stage.VALIDATE, c.candidate_id, GateReport)
                   for name, c in mined.items()}
        # both pass at once: a mined class's oracle tests expect only the exceptions its docstrings state, so
        # the ledger's no longer over-specify (tests/pipeline/test_stages.py covers a repaired candidate)
        assert reports["SampleStats"].passed and reports["FreshLedger"].passed
        repaired = mined["FreshLedger"]
        assert (counts[Stage.MINED_SEEDS].received, counts[Stage.MINED_SEEDS].accepted) == (2, 2)
        assert run_stage(GateStage(), ctx, executor)[Stage.VALIDATE].received == 2
        # Resuming: a finished stage is not run again; a seed lost after its reports is written again from
        # them (nothing is gated or repaired twice: the records are read back).
        assert run_stage(MinedSeedsStage(), ctx, executor) == counts
        seeds_stage, ledger_id = MinedSeedsStage(), mined["FreshLedger"].candidate_id
        (store.runs / ctx.run_id / Stage.MINED_SEEDS / f"{ledger_id}.json").unlink()
        assert not seeds_stage.is_done(ctx, ledger_id) and seeds_stage.is_done(ctx, mined["SampleStats"].candidate_id)
        assert seeds_stage.run_one(ctx, ledger_id, None, last_attempt=True) and seeds_stage.is_done(ctx, ledger_id)
        fresh = {s.class_name: s for s in ctx.all_seeds if s.mined_from is not None}
        assert {s.mined_from for s in fresh.values()} == {"local:books", "local:lab"}
        assert {s.seed_id for s in ctx.seeds}.isdisjoint(s.seed_id for s in fresh.values())
        ledger, samples = fresh["FreshLedger"], fresh["SampleStats"]
        assert ledger.tests == repaired.test_code and ledger.domain == "Math_Stats"
        assert samples.tests == mined["SampleStats"].test_code

        enhance = SynthesisStage(Stage.ENHANCE)
        assert ledger.seed_id in enhance.items(ctx)
        enhance.run_one(ctx, ledger.seed_id, pool, last_attempt=True)
        enhanced = [c for _, c in store.iter_records(ctx.run_id, Stage.ENHANCE, Candidate)]
        assert enhanced and all(c.origin is Origin.ENHANCED for c in enhanced)
        head = git(books, "rev-parse", "HEAD").strip()
        for candidate in enhanced:
            p = candidate.provenance
            assert (p.seed_ids, p.repository, p.commit, p.first_commit, p.first_commit_date, p.path) == (
                (ledger.seed_id,), "local:books", head, head, "2025-03-02", "books/ledger.py")

        compose = SynthesisStage(Stage.COMPOSE)
        pairs = [set(item.split(PAIR_SEPARATOR)) for item in compose.items(ctx)]
        bundled = {s.seed_id for s in ctx.seeds}
        # One domain, two repositories: allowed, but the ledger's total is a measure derived from its names,
        # which states no reason to be kept in the statistics, so the pair has no link and is not offered.
        # The statistics take what a bundled seed says is worth keeping (a fight's damage, an avalanche).
        assert {ledger.seed_id, samples.seed_id} not in pairs
        assert pairs and all(samples.seed_id in pair and pair & bundled for pair in pairs)
        item = compose.items(ctx)[0]
        work = compose.run_one(ctx, item, pool, last_attempt=True)
    assert work.candidate_ids, work.count
    composed = store.read(ctx.run_id, Stage.COMPOSE, work.candidate_ids[0], Candidate)
    partner = next(iter(set(item.split(PAIR_SEPARATOR)) - {samples.seed_id}))
    assert composed.origin is Origin.COMPOSED and set(composed.domains) == {"Math_Stats", "Game_Sim"}
    assert set(composed.provenance.seed_ids) == {partner, samples.seed_id}
    # Mining completes the statistics' docstrings with what the oracle observed, so `record`'s RuntimeError
    # after freeze is stated; the partner's operation that hands its value to `record` states no such error:
    # the runs that show it are dropped as reference defects and recorded, and no test expects what no
    # docstring states
    defects = {(d["method"], d["exception"]) for d in composed.generator.parameters["reference_defects"]}
    assert defects and {exception for _, exception in defects} == {"RuntimeError"} and all(
        method in composed.solution_code and method != "record" for method, _ in defects)
    assert unstated_expectations(composed.test_code, composed.solution_code, composed.class_name) == {}
