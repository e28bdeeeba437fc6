"""The seed loader names the broken file and keeps checking the others."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.domains import load_domains
from pipeline.seeds import SeedProblem, load_corpus, load_seed

from corpus_fixture import COUNTER_SOURCE, COUNTER_TESTS, corpus, write_seed  # noqa: F401 (fixture)


def test_a_valid_seed_becomes_a_seed_class(corpus: Path):
    seed = load_seed(corpus / "Algo_DataStruct" / "counter", "Algo_DataStruct")
    assert not isinstance(seed, SeedProblem)
    assert seed.seed_id == "Algo_DataStruct/counter"
    assert seed.class_name == "Counter" and seed.module_name == "counter"
    assert seed.source == COUNTER_SOURCE and seed.tests == COUNTER_TESTS
    assert seed.provenance.licence == "MIT" and seed.provenance.first_commit_date == "2026-11-01"


def _add_broken_seeds(root: Path) -> dict[str, Path]:
    broken = {}
    folder = write_seed(root, "Math_Stats", "syntax", "class Syntax:\n    def f(self:\n", "from syntax import Syntax\ndef test_x(): pass\n", "Syntax")
    broken["syntax error at line"] = folder / "syntax.py"
    folder = write_seed(root, "Math_Stats", "renamed", COUNTER_SOURCE, COUNTER_TESTS.replace("counter", "renamed"), "Renamed")
    broken["class 'Renamed' named in seed.toml is not defined"] = folder / "renamed.py"
    folder = write_seed(root, "Math_Stats", "testless", COUNTER_SOURCE, "from testless import Counter\n", "Counter")
    broken["defines no tests"] = folder / "test_testless.py"
    folder = write_seed(root, "Math_Stats", "nometa", COUNTER_SOURCE, COUNTER_TESTS, "Counter")
    (folder / "seed.toml").unlink()
    broken["missing"] = folder / "seed.toml"
    return broken


def test_each_broken_seed_is_named_and_valid_seeds_still_load(corpus: Path):
    broken = _add_broken_seeds(corpus)
    result = load_corpus(corpus, load_domains(corpus / "domains.toml"))
    assert [s.seed_id for s in result.seeds] == ["Algo_DataStruct/counter"]
    problems = {p.path: p.message for p in result.problems}
    for message, path in broken.items():
        assert path in problems and message in problems[path]


def test_a_folder_that_is_not_a_registered_domain_is_reported(corpus: Path):
    (corpus / "Math_Stat").mkdir()
    result = load_corpus(corpus, load_domains(corpus / "domains.toml"))
    assert any(p.path == corpus / "Math_Stat" and "not a domain" in p.message for p in result.problems)


def test_seeds_check_prints_one_line_per_broken_seed_and_exits_non_zero(corpus: Path, monkeypatch, capsys):
    broken = _add_broken_seeds(corpus)
    monkeypatch.setattr("sys.argv", ["classeval-pro", "seeds", "check"])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 1
    out = capsys.readouterr()
    error_lines = [line for line in out.err.splitlines() if line.startswith("error")]
    assert len(error_lines) == len(broken)
    for path in broken.values():
        assert sum(str(path) in line for line in error_lines) == 1
    assert "1 valid seed(s), 4 with problems" in out.out
