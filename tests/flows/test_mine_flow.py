"""Mining inside the build: one task per repository, the limit applied in source order as a serial run
applies it, and the mined classes through the gate into the release."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from build_workspace import run_build

from core.layout import Folder, Stage
from core.records import Candidate, SeedClass
from core.settings import Settings
from core.store import ArtifactStore
from pipeline.mining.records import MineConfig
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, ThreadExecutor, run_stage
from pipeline.stages.mine import MineStage
from tests.pipeline.mining.git_fixtures import commit, make_repo
from tests.pipeline.mining.mining_fixtures import ledger_module

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _repositories(root: Path) -> Path:
    """Four repositories in path order: a fresh class, an old one only, then two fresh ones."""
    for name, date, cls in (("a-books", "2025-03-02", "BookLedger"), ("b-old", "2021-06-01", "OldLedger"),
                            ("c-shop", "2025-05-09", "ShopLedger"), ("d-farm", "2025-07-20", "FarmLedger")):
        repo = make_repo(root / name)
        commit(repo, date, {f"{name}/ledger.py": ledger_module(cls), "README.md": "a ledger cache"})
    return root


def test_a_build_mines_per_repository_keeps_the_first_classes_in_source_order_and_releases_them(workspace, tmp_path):
    env, config = workspace
    repos = _repositories(tmp_path / "repos")
    # The offline judges find the fixture's ledger underspecified; this test follows mining, not judging.
    config.write_text("jobs = 2\n" + config.read_text() + f'[mine]\nlocal = "{repos}"\nlimit = 2\n'
                      "[judges]\nenabled = false\n")
    built = run_build(env, "--config", str(config))
    assert built.returncode == 0, built.stderr[-3000:]

    artifacts = Path(env["CLASSEVAL_PRO_ARTIFACTS"])
    store = ArtifactStore(artifacts)
    [run] = [p.name for p in store.runs.iterdir()]
    # Two waves of two repositories: after the second, three classes are kept; the first two in source
    # order are the stage's, the third (built, as d-farm was mined beside c-shop) waits unused.
    assert sorted(p.stem for p in (store.runs / run / Folder.MINE_WORK).iterdir()) == [
        "local-a-books", "local-b-old", "local-c-shop", "local-d-farm"]
    assert sorted(c.class_name for _, c in store.iter_records(run, Folder.MINE_BUILT, Candidate)) == [
        "BookLedger", "FarmLedger", "ShopLedger"]
    mined = sorted(c.class_name for _, c in store.iter_records(run, Stage.MINE, Candidate))
    assert mined == ["BookLedger", "ShopLedger"]
    funnel = json.loads((store.runs / run / "funnel.json").read_text())
    assert funnel["stages"]["mine"]["received"] == 4 and funnel["stages"]["mine"]["accepted"] == 2
    assert funnel["stages"]["mine"]["rejected"] == {"not_fresh": 1}

    [release] = [p for p in (artifacts / "releases").iterdir() if not p.name.startswith(".")]
    released = {t["class_name"] for t in json.loads((release / "classeval.json").read_text())}
    assert {"BookLedger", "ShopLedger"} <= released and "FarmLedger" not in released

    # [mine] as_seeds (the default): mining runs first, its candidates that pass the gate (here after the
    # repair round) seed enhance and compose, and what grows from them keeps their provenance.
    assert list(funnel["stages"])[:5] == ["seeds", "mine", "mined_seeds", "enhance", "compose"]
    assert funnel["stages"]["mined_seeds"]["accepted"] == 2
    enhanced = {c.class_name: c.provenance for _, c in store.iter_records(run, Stage.ENHANCE, Candidate)}
    book = enhanced["BookLedger"]
    assert (book.repository, book.first_commit_date) == ("local:a-books", "2025-03-02")
    # Composition is offered the mined ledgers (max_pairs = 1 of each kind, counted apart so that the bundled
    # pairs do not depend on what mining found), but a ledger's total, a measure derived
    # from its names, states no reason to be kept in a histogram: the five allowed pairs with a mined
    # seed are skipped, and the one pair composed is the corpus's own sandpile and histogram.
    [(_, composed)] = store.iter_records(run, Stage.COMPOSE, Candidate)
    fresh = {seed.seed_id for _, seed in store.iter_records(run, Stage.MINED_SEEDS, SeedClass)}
    assert len(fresh) == 2 and not set(composed.provenance.seed_ids) & fresh
    assert funnel["stages"]["compose"]["skipped"]["no_link"] == 5
    card = (release / "README.md").read_text()
    assert "| 2025-03 | enhanced | 1 |\n| 2025-03 | mined | 1 |" in card

    # One repository at a time in this process (waves of one) chooses the same classes: it stops after c-shop.
    serial, stage = ArtifactStore(tmp_path / "serial"), MineStage()
    run_stage(stage, RunContext(serial, "run-s", BuildConfig(jobs=1, mine=MineConfig(local=repos, limit=2)),
                         Settings.from_environment().with_artifacts(serial.root)),
              ThreadExecutor(jobs=1))
    result = stage.result
    assert sorted(c.class_name for _, c in result.kept) == mined
    assert [c.candidate_id for _, c in serial.iter_records("run-s", Stage.MINE, Candidate)] == [
        c.candidate_id for _, c in store.iter_records(run, Stage.MINE, Candidate)]
    assert result.tally.repositories == ["a-books", "b-old", "c-shop"]

