"""The mine stage inside the build's stages: mined candidates go through the same gate into tasks that
carry their source date."""

from __future__ import annotations

import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module

from pipeline import stages
from pipeline.config import BuildConfig
from pipeline.mining.records import MineConfig
from pipeline.mining.stage import mining_configured
from pipeline.records import Origin
from pipeline.release.task_builder import build_task
from pipeline.store import ArtifactStore


def test_mining_is_configured_by_a_folder_or_a_token(monkeypatch, tmp_path):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    assert not mining_configured(MineConfig()) and not mining_configured(MineConfig(github=True))
    assert mining_configured(MineConfig(local=tmp_path))
    monkeypatch.setenv("GITHUB_TOKEN", "t")
    assert mining_configured(MineConfig(github=True))


@pytest.mark.slow
def test_mined_candidates_pass_the_gate_into_dated_tasks(tmp_path):
    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2025-04-02", {"books/fresh.py": ledger_module("FreshLedger"), "README.md": "a ledger cache"})
    config = BuildConfig(mine=MineConfig(local=tmp_path / "repos"))
    store = ArtifactStore(tmp_path / "artifacts")
    count = stages.stage_mine(store, "run-1", config)
    assert (count.received, count.accepted) == (1, 1)
    assert stages.stage_mine(store, "run-1", config) == count  # finished: not mined again
    [candidate] = stages.generated_candidates(store, "run-1")
    assert candidate.origin is Origin.MINED
    gate, _ = stages.stage_validate(store, "run-1", config)
    pairs = list(stages.accepted_pairs(store, "run-1"))
    assert gate.received == 1 and len(pairs) == gate.accepted, gate.rejected
    assert pairs, "the oracle's tests for a fresh ledger pass the gate"
    task = build_task(*pairs[0])
    assert task.source_date == "2025-04-02" and task.provenance.first_commit == candidate.provenance.first_commit
