"""The build's stages as plain functions over the artifact store.

Each stage reads its inputs from the run's folder, writes one record per output under its own stage
folder (skipping records a previous attempt already wrote), and returns its `StageCount` for the funnel.
The Prefect flow in flows/build.py only sequences these; they are tested without Prefect.
"""

from __future__ import annotations

from pipeline import settings
from pipeline.config import BuildConfig
from pipeline.domains import load_domains
from pipeline.errors import InputError
from pipeline.funnel import StageCount
from pipeline.records import SeedClass, content_hash
from pipeline.seeds import load_corpus
from pipeline.store import ArtifactStore

SEEDS_STAGE = "seeds"


def record_file_id(record_id: str) -> str:
    """A record id as a file name: seed ids contain '/', which must not become a folder."""
    return record_id.replace("/", "__")


def load_seed_records(config: BuildConfig) -> tuple[SeedClass, ...]:
    """The valid seeds of the configured domains. A broken seed ends the build: building on a corpus that
    `seeds check` rejects would silently change what a release contains."""
    registry = load_domains(settings.domain_registry_path())
    unknown = set(config.domains) - set(registry.names)
    if unknown:
        raise InputError(f"configuration field domains: unknown domain(s) {sorted(unknown)}")
    corpus = load_corpus(settings.seeds_dir(), registry)
    if corpus.problems:
        raise InputError(f"{corpus.problems[0]} ({len(corpus.problems)} seed problem(s); run `classeval-pro seeds check`)")
    seeds = tuple(s for s in corpus.seeds if not config.domains or s.domain in config.domains)
    if not seeds:
        raise InputError(f"{settings.seeds_dir()}: no seeds in the configured domains")
    return seeds


def corpus_hash(seeds: tuple[SeedClass, ...]) -> str:
    """Digest of the whole seed corpus: part of the run id and of the release manifest."""
    return content_hash([s.model_dump(mode="json") for s in seeds])


def default_run_id(config: BuildConfig, seeds: tuple[SeedClass, ...]) -> str:
    """Same settings and corpus give the same run id, so rerunning an interrupted build resumes it."""
    return f"run-{config.fingerprint()}-{corpus_hash(seeds)[:10]}"


def stage_seeds(store: ArtifactStore, run_id: str, seeds: tuple[SeedClass, ...]) -> StageCount:
    """Record the seeds the run starts from (the corpus may change later; the run keeps what it used)."""
    for seed in seeds:
        store.write(run_id, SEEDS_STAGE, record_file_id(seed.seed_id), seed)
    return StageCount(received=len(seeds), accepted=len(seeds))
