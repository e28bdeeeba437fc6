"""The seeds stage: the seeds a run starts from, and the run id they and the configuration give."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.domains import DomainRegistry, load_domains
from core.errors import InputError
from core.funnel import StageCount
from core.layout import Stage, record_file_id
from core.records import SeedClass, content_hash
from core.settings import Settings
from pipeline.corpus.seeds import load_corpus
from pipeline.mining.snapshot import sources_digest
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import Counts, RecordStage, RunContext
from pipeline.stages.runs import record_registry


def load_seed_records(config: BuildConfig, settings: Settings) -> tuple[DomainRegistry, tuple[SeedClass, ...]]:
    """The domain registry and the valid seeds of the configured domains, from the live corpus. A broken
    seed of those domains ends the build: building on a corpus that `seeds check` rejects would silently
    change what a release contains. Seeds of other domains are not read, so a broken one there does not
    stop a build restricted to these."""
    registry = load_domains(settings.domains)
    unknown = set(config.domains) - set(registry.names)
    if unknown:
        raise InputError(f"configuration field domains: unknown domain(s) {sorted(unknown)}")
    corpus = load_corpus(settings.seeds, registry, config.domains)
    if corpus.problems:
        raise InputError(f"{corpus.problems[0]} ({len(corpus.problems)} seed problem(s); run `classeval-pro seeds check`)")
    seeds = corpus.seeds
    if not seeds:
        raise InputError(f"{settings.seeds}: no seeds in the configured domains")
    return registry, seeds


def corpus_hash(seeds: Sequence[SeedClass]) -> str:
    """Digest of the whole seed corpus: part of the run id and of the release manifest. Taken in seed id
    order, so the live corpus and the run's own `seeds/` records of it give the same digest."""
    return content_hash([s.model_dump(mode="json") for s in sorted(seeds, key=lambda s: s.seed_id)])


def default_run_id(config: BuildConfig, seeds: tuple[SeedClass, ...], settings: Settings) -> str:
    """Same settings, corpus and mined sources give the same run id, so rerunning an interrupted build
    resumes it. With mining configured the id also names the state of the repositories it reads
    (pipeline/mining/snapshot.py): a rebuild after they moved on is a new run, not the finished old one."""
    run_id = f"run-{config.fingerprint()}-{corpus_hash(seeds)[:10]}"
    sources = sources_digest(config.mine, github_token=bool(settings.token()))
    return run_id if sources is None else f"{run_id}-{sources}"


class SeedsStage(RecordStage):
    """The seeds the run starts from, read from the live corpus once, with the domain registry they were
    read with. Later stages read these records (`RunContext.seeds`, `.registry`), never the live corpus:
    a resumed run keeps what it started with."""

    stage = Stage.SEEDS
    reads = ("the seed corpus", "the domain registry")
    in_process = True  # the corpus is read once, here
    uses_pool = False

    def __init__(self) -> None:
        self._read: tuple[DomainRegistry, dict[str, SeedClass]] | None = None

    def _corpus(self, ctx: RunContext) -> tuple[DomainRegistry, dict[str, SeedClass]]:
        if self._read is None:
            registry, seeds = load_seed_records(ctx.config, ctx.settings)
            self._read = registry, {record_file_id(s.seed_id): s for s in seeds}
        return self._read

    def items(self, ctx: RunContext) -> list[str]:
        return list(self._corpus(ctx)[1])

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return ctx.store.has(ctx.run_id, Stage.SEEDS, item)

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> None:
        ctx.store.write(ctx.run_id, Stage.SEEDS, item, self._corpus(ctx)[1][item])

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        record_registry(ctx.store, ctx.run_id, self._corpus(ctx)[0])
        return {self.stage: StageCount(received=len(items), accepted=len(items))}
