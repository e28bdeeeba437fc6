"""The mine stage inside the build's stages: mined candidates go through the same gate into tasks that
carry their source date."""

from __future__ import annotations

import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module

from core import settings
from core.domains import load_domains
from core.layout import Folder, Stage
from core.records import Origin, Rejection, RejectReason
from core.settings import Settings
from core.store import ArtifactStore
from pipeline.mining.github_api import GithubUnavailable
from pipeline.mining.records import MineConfig
from pipeline.release.task_builder import build_task
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, TransientFailure, run_stage
from pipeline.stages.gate import GateStage
from pipeline.stages.mine import MineStage, is_mined, mine_one, mining_configured
from pipeline.stages.repair import RepairStage
from pipeline.stages.run_records import accepted_pairs, generated_candidates


def test_mining_is_configured_by_a_folder_or_a_token(monkeypatch, tmp_path):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    unset = Settings.from_environment()
    assert not mining_configured(MineConfig(), unset) and not mining_configured(MineConfig(github=True), unset)
    assert mining_configured(MineConfig(local=tmp_path), unset)
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    assert mining_configured(MineConfig(github=True), Settings.from_environment())


@pytest.mark.slow
def test_mined_candidates_pass_the_gate_into_dated_tasks(tmp_path):
    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2025-04-02", {"books/fresh.py": ledger_module("FreshLedger"), "README.md": "a ledger cache"})
    config = BuildConfig(mine=MineConfig(local=tmp_path / "repos"))
    store = ArtifactStore(tmp_path / "artifacts")
    ctx = RunContext(store, "run-1", config, Settings.from_environment().with_artifacts(store.root))
    count = run_stage(MineStage(), ctx)[Stage.MINE]
    assert (count.received, count.accepted) == (1, 1)
    assert run_stage(MineStage(), ctx)[Stage.MINE] == count  # finished: not mined again
    [candidate] = generated_candidates(store, "run-1")
    assert candidate.origin is Origin.MINED
    gate = run_stage(GateStage(), ctx)[Stage.VALIDATE]
    repair = run_stage(RepairStage(), ctx)[Stage.REPAIR]
    pairs = list(accepted_pairs(store, "run-1"))
    # the oracle's tests may pin what the ledger's docstrings leave open (a faithful variant fails them): the
    # repair round weakens those checks, and the candidate goes on from there
    assert gate.received == 1 and len(pairs) == gate.accepted + repair.accepted == 1, (gate.rejected, repair.rejected)
    assert pairs, "the oracle's tests for a fresh ledger pass the gate"
    task = build_task(*pairs[0])
    assert task.source_date == "2025-04-02" and task.provenance.first_commit == candidate.provenance.first_commit


class _GithubDown:
    """A GitHub client whose every read failed after the client's own retries; counts the repositories asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def repository(self, full_name: str) -> dict:
        self.asked.append(full_name)
        raise GithubUnavailable(f"GET /repos/{full_name}: 502 after 4 retries")


def test_a_repository_github_failed_on_is_retried_then_written_as_unreadable_and_not_mined_again(tmp_path, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    store, github = ArtifactStore(tmp_path / "artifacts"), _GithubDown()
    config = MineConfig(github=True)
    registry = load_domains(settings.domain_registry_path())
    with pytest.raises(TransientFailure, match="502 after 4 retries"):
        mine_one(store, "run-1", "github:acme/ledgers", config, registry, pool=None, github=github, last_attempt=False)
    assert not is_mined(store, "run-1", "github:acme/ledgers") and list(store.iter_records("run-1", Folder.REJECTIONS, Rejection)) == []
    work = mine_one(store, "run-1", "github:acme/ledgers", config, registry, pool=None, github=github)
    [(_, rejection)] = list(store.iter_records("run-1", Folder.REJECTIONS, Rejection))
    assert rejection.reason is RejectReason.SOURCE_UNREADABLE and "502" in rejection.detail
    assert work.kept == () and work.rejected == {RejectReason.SOURCE_UNREADABLE: 1}
    assert mine_one(store, "run-1", "github:acme/ledgers", config, registry, pool=None, github=github) == work
    assert github.asked == ["acme/ledgers", "acme/ledgers"]  # the finished repository is not asked again
