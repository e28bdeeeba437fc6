"""The seed loader names the broken file and keeps checking the others."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_fixture import COUNTER_SOURCE, COUNTER_TESTS, corpus, write_seed  # noqa: F401 (fixture)

from commands.main import main
from core.domains import load_domains
from pipeline.corpus.seeds import SeedProblem, load_corpus, load_seed


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


UNITTEST_TESTS = '''
import unittest
from unittest import TestCase as Case

from counter import Counter


class CounterTestAdd(unittest.TestCase):
    def test_add(self):
        self.assertEqual(Counter().add("a"), 1)


class CounterTestBase(Case):
    def test_total(self):
        self.assertEqual(Counter().total(), 0)


class CounterTestInherited(CounterTestBase):
    pass
'''


@pytest.mark.parametrize(("tests", "collected"), [
    (UNITTEST_TESTS, True),  # TestCase subclasses of any name, direct, aliased and inherited
    ("from counter import Counter\nclass TestAdd:\n    def test_add(self):\n        assert Counter().add('a') == 1\n", True),
    # pytest skips a Test* class with __init__, one that opts out, and a plain class of another name
    ("from counter import Counter\nclass TestAdd:\n    def __init__(self):\n        pass\n    def test_add(self):\n        pass\n", False),
    ("from counter import Counter\nclass TestAdd:\n    __test__ = False\n    def test_add(self):\n        pass\n", False),
    ("from counter import Counter\nclass CounterTestAdd:\n    def test_add(self):\n        pass\n", False),
    ("import unittest\nfrom counter import Counter\nclass CounterTestAdd(unittest.TestCase):\n    def check_add(self):\n        pass\n", False),
])
def test_tests_are_what_pytest_collects_by_its_default_rules(corpus: Path, tests: str, collected: bool):
    folder = write_seed(corpus, "Math_Stats", "counter", COUNTER_SOURCE, tests, "Counter")
    result = load_seed(folder, "Math_Stats")
    if collected:
        assert not isinstance(result, SeedProblem), result
    else:
        assert isinstance(result, SeedProblem) and "defines no tests pytest would collect" in result.message


def test_methods_without_docstrings_or_type_hints_are_named_and_the_seed_still_loads(corpus: Path):
    source = COUNTER_SOURCE.replace('        """Sum of all counts."""\n', "").replace(
        "def add(self, name: str, amount: int = 1) -> int:", "def add(self, name, amount: int = 1):")
    write_seed(corpus, "Math_Stats", "bare", source, COUNTER_TESTS.replace("from counter", "from bare"), "Counter")
    result = load_corpus(corpus, load_domains(corpus / "domains.toml"))
    assert [s.seed_id for s in result.seeds] == ["Algo_DataStruct/counter", "Math_Stats/bare"] and not result.problems
    path = corpus / "Math_Stats" / "bare" / "bare.py"
    assert [(g.path, g.message) for g in result.gaps] == [
        (path, "method Counter.add: no type hint on name; no return type"),
        (path, "method Counter.total: no docstring"),
    ]


def test_a_corpus_read_for_some_domains_does_not_read_the_others(corpus: Path):
    _add_broken_seeds(corpus)  # all in Math_Stats
    (corpus / "Math_Stat").mkdir()
    result = load_corpus(corpus, load_domains(corpus / "domains.toml"), ("Algo_DataStruct",))
    assert [s.seed_id for s in result.seeds] == ["Algo_DataStruct/counter"] and not result.problems


def test_a_broken_seed_stops_only_a_build_of_its_own_domain(corpus: Path):
    from core.errors import InputError
    from core.settings import Settings
    from pipeline.stages.config import BuildConfig
    from pipeline.stages.seeds import load_seed_records

    _add_broken_seeds(corpus)  # all in Math_Stats
    settings = Settings.from_environment()
    _, seeds = load_seed_records(BuildConfig(domains=("Algo_DataStruct",)), settings)
    assert [s.seed_id for s in seeds] == ["Algo_DataStruct/counter"]
    for domains in ((), ("Math_Stats",)):
        with pytest.raises(InputError, match="seed problem"):
            load_seed_records(BuildConfig(domains=domains), settings)


_PRODUCES = '\n[[produces]]\nmethod = "total"\nmeaning = "count"\nunit = "events"\nwhat = "the number of events"\nname = "events"\n'
_ACCEPTS = ('\n[[accepts]]\nmethod = "add"\nparameter = "amount"\nmeaning = "count"\nunit = "events"\n'
            'role = "added to a name\'s count"\naction = "add {what} to a count"\nverb = "count"\n')


_EVENT = ('\n[[produces]]\nmethod = "add"\nmeaning = "text"\nunit = "event"\nwhat = "a note of a name counted"\n'
          'name = "count_note"\nevent = "{name} counted; {result} in all"\n')


def _seed_with(root: Path, name: str, ends: str) -> Path:
    folder = write_seed(root, "Math_Stats", name, COUNTER_SOURCE, COUNTER_TESTS.replace("counter", name), "Counter")
    with (folder / "seed.toml").open("a") as meta:
        meta.write(ends)
    return folder


def test_declared_link_ends_load_and_a_wrong_one_is_named_by_its_field(corpus: Path):
    seed = load_seed(_seed_with(corpus, "declared", _PRODUCES + _ACCEPTS), "Math_Stats")
    assert not isinstance(seed, SeedProblem)
    assert [p.what for p in seed.produces] == ["the number of events"]
    assert [(a.method, a.parameter, a.verb) for a in seed.accepts] == [("add", "amount", "count")]
    noted = load_seed(_seed_with(corpus, "noted", _EVENT), "Math_Stats")
    assert not isinstance(noted, SeedProblem) and noted.produces[0].event == "{name} counted; {result} in all"
    given = load_seed(_seed_with(corpus, "given", _EVENT + 'context = { who = "name", topic = "\'counts\'" }\n'),
                      "Math_Stats")
    assert not isinstance(given, SeedProblem) and given.produces[0].context == {"who": "name", "topic": "'counts'"}
    # a context read from the instance's state (a clock, with its unit) and a condition on the state the
    # operation finds or on its result are expressions over the required parameters, `self` and `{result}`
    stateful = load_seed(_seed_with(corpus, "stateful", _EVENT + 'context = { when = "len(self.counts)" }\n'
                                    'units = { when = "minutes" }\ncondition = "name not in self.counts"\n'
                                    'condition_words = "when the name is new"\n'), "Math_Stats")
    assert not isinstance(stateful, SeedProblem) and stateful.produces[0].units == {"when": "minutes"}
    assert stateful.produces[0].condition == "name not in self.counts"
    # a value handed on that is not what the method returns: an expression over the same names
    handing = load_seed(_seed_with(corpus, "handing", _PRODUCES.replace('"total"', '"add"')
                                   + 'value = "len(name) + {result}"\n'), "Math_Stats")
    assert not isinstance(handing, SeedProblem) and handing.produces[0].value == "len(name) + {result}"
    wrong = {
        "field produces[0].meaning: 'events' is not a known meaning": _PRODUCES.replace('"count"', '"events"'),
        "field produces[0].method: Counter has no public method 'sum'": _PRODUCES.replace('"total"', '"sum"'),
        "field accepts[0].parameter: add takes no parameter 'value'": _ACCEPTS.replace('"amount"', '"value"'),
        "field accepts[0].action: must hold '{what}'": _ACCEPTS.replace("add {what} to a count", "add it"),
        "field produces.0.colour": _PRODUCES + 'colour = "red"\n',
        "field produces[0].event: amount is not a required parameter of add or 'result'": _EVENT.replace(
            "{name} counted", "{amount} counted"),
        "field produces[0].event: only a text or a word can be an event, not 'count'":
            _EVENT.replace('"text"', '"count"'),
        "field produces[0].context: 'why' is not a known role": _EVENT + 'context = { why = "name" }\n',
        # `amount` has a default: a link method does not take it, so it is no required parameter
        "field produces[0].context: who = 'amount' is neither a required parameter of add, a quoted text, nor an "
        "expression over those and the instance's state: amount is not a required parameter":
            _EVENT + 'context = { who = "amount" }\n',
        "field produces[0].context: units names 'when', which the context does not give":
            _EVENT + 'units = { when = "minutes" }\n',
        "field produces[0].context: units.when = 'ticks' is not a unit of time":
            _EVENT + 'context = { when = "self.clock" }\nunits = { when = "ticks" }\n',
        "field produces[0].condition: a condition needs condition_words": _EVENT + 'condition = "{result} > 1"\n',
        "field produces[0].condition: condition_words needs a condition": _EVENT + 'condition_words = "when new"\n',
        "field produces[0].condition: amount is not a required parameter":
            _EVENT + 'condition = "amount > 1"\ncondition_words = "when more than one"\n',
        "field produces[0].condition: not a Python expression":
            _EVENT + 'condition = "{result} >"\ncondition_words = "when more than one"\n',
        "field produces[0].value: amount is not a required parameter":
            _PRODUCES.replace('"total"', '"add"') + 'value = "amount"\n',
        "field produces[0].value: an event hands on its text": _EVENT + 'value = "name"\n',
        "field accepts[0].context: who = 'amount' is not another parameter of add":
            _ACCEPTS + 'context = { who = "amount" }\n',
    }
    for index, (message, ends) in enumerate(wrong.items()):
        problem = load_seed(_seed_with(corpus, f"wrong{index}", ends), "Math_Stats")
        assert isinstance(problem, SeedProblem) and message in problem.message, (message, problem)
        assert problem.path.name == "seed.toml"
