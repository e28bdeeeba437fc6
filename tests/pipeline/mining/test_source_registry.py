"""The mining-source registry (pipeline/mining/sources.py): the mine stage lists, mines and names in its run id
every registered source it is asked for, so a source added by one registration line is mined by the build.

The toy source serves one repository from a dict: nothing in it is git or GitHub, so a class it serves that
reaches the stage's records went through the registry alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from mining_fixtures import ledger_module

from core.analysis.python_need import Supported
from core.domains import DomainRegistry, load_domains
from core.layout import Folder, Stage
from core.records import Rejection
from core.settings import Settings, domain_registry_path
from core.store import ArtifactStore
from pipeline.mining.examine import Documenter
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.snapshot import sources_state
from pipeline.mining.sources import REGISTRY
from pipeline.mining.tally import Tally
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, run_stage
from pipeline.stages.mine import MineStage, mining_configured, repository_items
from pipeline.stages.run_records import generated_candidates

TOY = "tests.pipeline.mining.test_source_registry:DictSource"
SHELF = {"shelf": {"ledgers/toy.py": ("ToyLedger", "2025-04-02")}}  # repository -> path -> (class, first date)


class DictSource:
    """Repositories held in `SHELF`; each class dated by the date it lists. Asked for by every configuration,
    so that the toy needs no key of `[mine]` (whose format stays the project's)."""

    needs_token = False

    def requested(self, config: MineConfig) -> bool:
        return True

    def connect(self, config: MineConfig, settings: Settings) -> None:
        return None

    def repositories(self, config: MineConfig, registry: DomainRegistry, client: Any) -> list[str]:
        return sorted(SHELF)

    def mine(self, name: str, config: MineConfig, registry: DomainRegistry, tally: Tally, *, client: Any,
             documenter: Documenter | None, supported: Supported | None) -> Iterator[MinedClass | Rejection]:
        tally.repository(name)
        for path, (class_name, first) in SHELF[name].items():
            tally.class_seen()
            yield MinedClass(repository=name, url=f"memory://{name}", path=path, class_name=class_name,
                             commit="c" * 40, licence="MIT", first_commit="f" * 40, first_commit_date=first,
                             found_by="name", domain="Finance_Ecommerce", slice_code=ledger_module(class_name),
                             description="Keeps labelled amounts and reports totals.")

    def state(self, config: MineConfig, *, today: date) -> dict[str, list[str]]:
        return {name: sorted(files) for name, files in SHELF.items()}


def test_local_and_github_keep_their_order():
    """Items, and so which classes a limit keeps, follow the registry: the local folder first, then GitHub."""
    assert list(REGISTRY)[:2] == ["local", "github"]


def test_a_registered_source_is_configured_listed_and_named_in_the_run_id(monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    settings, config = Settings.from_environment(), MineConfig()
    assert not mining_configured(config, settings) and sources_state(config, github_token=False) is None
    with REGISTRY.registered("toy", TOY):
        assert mining_configured(config, settings)
        assert repository_items(config, load_domains(domain_registry_path())) == ["toy:shelf"]
        assert sources_state(config, github_token=False) == {"toy": {"shelf": ["ledgers/toy.py"]}}
    assert not mining_configured(config, settings)


@pytest.mark.slow
def test_the_mine_stage_mines_a_registered_source(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    ctx = RunContext(store, "run-1", BuildConfig(mine=MineConfig()),
                     Settings.from_environment().with_artifacts(store.root))
    with REGISTRY.registered("toy", TOY):
        count = run_stage(MineStage(), ctx)[Stage.MINE]
    assert (count.received, count.accepted) == (1, 1), count.rejected
    [mined] = [m for _, m in store.iter_records("run-1", Folder.MINED, MinedClass)]
    assert (mined.repository, mined.class_name, mined.first_commit_date) == ("shelf", "ToyLedger", "2025-04-02")
    [candidate] = generated_candidates(store, "run-1")
    assert candidate.class_name == "ToyLedger" and candidate.provenance.path == "ledgers/toy.py"
