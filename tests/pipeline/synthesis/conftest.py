"""One sandbox pool per session for the synthesis tests that run code, and the bundled seeds, read once."""

from pathlib import Path

import pytest

from core.domains import load_domains
from core.records import SeedClass
from pipeline.corpus.seeds import load_corpus

SEEDS = Path(__file__).resolve().parents[3] / "seeds"


@pytest.fixture(scope="session")
def sandbox_pool():
    sandbox = pytest.importorskip("validation.sandbox")
    with sandbox.SandboxPool(jobs=1) as pool:
        yield pool


@pytest.fixture(scope="session")
def seeds() -> dict[str, SeedClass]:
    """The bundled seeds by name, for tests that compose them as a build does."""
    corpus = load_corpus(SEEDS, load_domains(SEEDS / "domains.toml"))
    return {seed.name: seed for seed in corpus.seeds}
