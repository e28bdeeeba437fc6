"""A tiny seed corpus written inline (never the bundled one), for the foundation tests.

Imported by name (`from corpus_fixture import ...`) rather than through a conftest, so that it cannot clash
with the conftest files of other test folders.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from core import settings

COUNTER_SOURCE = textwrap.dedent(
    '''
    class Counter:
        """Counts named events."""

        def __init__(self) -> None:
            self.counts: dict[str, int] = {}

        def add(self, name: str, amount: int = 1) -> int:
            """Add `amount` to `name`; returns the new count.

            >>> Counter().add("a")
            1
            """
            self.counts[name] = self.counts.get(name, 0) + amount
            return self.counts[name]

        def total(self) -> int:
            """Sum of all counts."""
            return sum(self.counts.values())
    '''
).lstrip()

COUNTER_TESTS = textwrap.dedent(
    '''
    from counter import Counter


    def test_add_then_total():
        c = Counter()
        c.add("a", 2)
        assert c.total() == 2
    '''
).lstrip()

REGISTRY_TWO_DOMAINS = textwrap.dedent(
    '''
    [[domain]]
    name = "Algo_DataStruct"
    description = "Algorithms."
    keywords = ["graph"]

    [[domain]]
    name = "Math_Stats"
    description = "Maths."
    keywords = ["matrix"]
    '''
)


def write_seed(root: Path, domain: str, name: str, source: str, tests: str, class_name: str) -> Path:
    folder = root / domain / name
    folder.mkdir(parents=True)
    (folder / "seed.toml").write_text(
        f'class_name = "{class_name}"\ndescription = "A test seed."\nlicence = "MIT"\n'
        '[provenance]\nsource = "written for classeval-pro"\ncreated = "2026-11-01"\n'
    )
    (folder / f"{name}.py").write_text(source)
    (folder / f"test_{name}.py").write_text(tests)
    return folder


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A two-domain corpus with one valid seed, selected through the environment like a user would."""
    root = tmp_path / "seeds"
    root.mkdir()
    (root / "domains.toml").write_text(REGISTRY_TWO_DOMAINS)
    write_seed(root, "Algo_DataStruct", "counter", COUNTER_SOURCE, COUNTER_TESTS, "Counter")
    monkeypatch.setenv("CLASSEVAL_PRO_SEEDS", str(root))
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    monkeypatch.delenv("CLASSEVAL_PRO_DOMAINS", raising=False)
    return root


BUNDLED_REGISTRY = settings.PROJECT_ROOT / "seeds" / "domains.toml"
