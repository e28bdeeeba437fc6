"""Docstrings derived offline from observed behaviour: an undocumented fresh class becomes a candidate whose
docstrings state observed types, results, exceptions and examples that pass on the reference; a class whose
calls never succeed stays rejected as undocumented, with the reason."""

from __future__ import annotations

import ast

import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module

from core import settings
from core.domains import load_domains
from core.records import Candidate, Rejection, RejectReason
from core.scenarios import MAIN, Arg, Scenario, Step
from pipeline.mining.candidates import build_candidate, module_name_for
from pipeline.mining.derived_docs import (
    MARKER,
    MethodObservations,
    _check_examples,
    _display,
    docstring_for,
    insert_block_docstrings,
    observe,
)
from pipeline.mining.examine import undocumented_methods
from pipeline.mining.extract import parse_module
from pipeline.mining.local import mine_local
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.tally import Tally
from pipeline.stages.config import BuildConfig
from pipeline.stages.mine import make_documenter
from pipeline.synthesis.oracle import OracleRuns, ScenarioRun, outcome_summary
from pipeline.synthesis.stated_raises import documented_raises


def _step(method: str, *args: str) -> Step:
    return Step(MAIN, method, tuple(Arg(literal=a) for a in args))


def _returned(literal: str | None, kind: str) -> dict:
    return {"kind": "return", "literal": literal, "is_none": literal == "None", "type": kind}


def test_observations_become_a_docstring_with_types_results_raises_and_examples():
    scenario = Scenario((Arg(literal="5"),), (), (_step("add", '"a"', "2"), _step("add", '"b"', "9"),
                                                   _step("total")))
    run = ScenarioRun(scenario, None, [_returned("1", "int"), {"kind": "raise", "exc": "ValueError"},
                                       _returned("2", "int")])
    add = MethodObservations("add", [("label", None, "positional"), ("amount", None, "positional")])
    total = MethodObservations("total", [])
    observe([run], "Ledger", "ledger", {"add": add, "total": total}, None)
    assert add.arguments == {"label": ['"a"', '"b"'], "amount": ["2", "9"]} and add.calls == 2
    # the raise is quoted with the calls that built the state it happened in
    assert add.raised == {"ValueError": ['`ledger = Ledger(5)`, `ledger.add("a", 2)`, `ledger.add("b", 9)`']}
    # no example runs through a call that raised: the state after it is not shown
    assert add.examples == ['>>> ledger = Ledger(5)\n>>> ledger.add("a", 2)\n1'] and total.examples == []
    text = docstring_for(add, add.examples)
    assert text.startswith(MARKER)
    assert "label (str): observed `\"a\"`, `\"b\"`" in text and "amount (int)" in text
    assert "Returns int; values observed: `1`." in text and "ValueError: observed for" in text
    assert ">>> ledger.add(\"a\", 2)\n1" in text


def test_a_call_returning_nothing_is_shown_with_the_query_that_sees_its_effect():
    scenario = Scenario((), (), (_step("push", "1", "2"), _step("clear"), _step("size"), _step("push", '"x"')))
    run = ScenarioRun(scenario, None, [_returned("None", "NoneType"), _returned("None", "NoneType"),
                                       _returned("0", "int"), _returned("None", "NoneType")])
    push = MethodObservations("push", [("value", None, "positional"), ("count", None, "positional")])
    clear = MethodObservations("clear", [])
    observe([run], "Stack", "stack", {"push": push, "clear": clear}, None)
    assert clear.examples == [">>> stack = Stack()\n>>> stack.push(1, 2)\n>>> stack.clear()\n>>> stack.size()\n0"]
    # the last push has no query after it: no example of it; the first is shown with what observed it
    assert push.examples == [">>> stack = Stack()\n>>> stack.push(1, 2)\n>>> stack.clear()\n>>> stack.size()\n0"]
    assert "value (int or str): observed `1`, `\"x\"`" in docstring_for(push, [])


def test_tests_of_derived_docstrings_expect_only_the_exceptions_they_state():
    code = insert_block_docstrings(ledger_module("Bare", documented=False), "Bare",
                                   {"add": "Raises:\n    ValueError: observed for `ledger.add('a', 500)`"})
    shows = documented_raises(code, "Bare")
    scenario = Scenario((), (), (_step("add", '"a"', "500"),))
    assert shows(ScenarioRun(scenario, None, [{"kind": "raise", "exc": "ValueError"}]))
    assert not shows(ScenarioRun(scenario, None, [{"kind": "raise", "exc": "RuntimeError"}]))
    assert shows(ScenarioRun(scenario, None, [_returned("1", "int")]))


def test_only_order_free_values_are_shown_as_printed():
    assert _display('"a"') == "'a'" and _display("[1, (2, 3)]") == "[1, (2, 3)]"
    assert _display('{"b": 1, "a": 2}') is None and _display("{1, 2}") is None  # insertion or hash order
    assert _display("set()") is None


def test_inserted_docstrings_are_indented_and_escaped():
    code = ledger_module("Bare", documented=False)
    filled = insert_block_docstrings(code, "Bare", {"add": "Line one.\n\n>>> 'a\\nb'\n'a\\nb'", "total": "One line."})
    tree = ast.parse(filled)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    docs = {f.name: ast.get_docstring(f) for f in cls.body if isinstance(f, ast.FunctionDef)}
    assert docs["add"] == "Line one.\n\n>>> 'a\\nb'\n'a\\nb'" and docs["total"] == "One line."
    assert docs["labels"] is None and "def _clean" in filled


@pytest.fixture(scope="module")
def pool():
    with BuildConfig().sandbox_pool(1) as shared:
        yield shared


@pytest.fixture(scope="module")
def mined(tmp_path_factory, pool):
    root = tmp_path_factory.mktemp("repos")
    repo = make_repo(root / "books")
    # every construction fails (an int has no `bound`): nothing about the class can be observed
    sealed = ledger_module("SealedLedger", documented=False).replace("self.limit = limit\n",
                                                                     "self.limit = limit.bound()\n")
    # a helper dataclass the class uses: its decorator's import must come along in the slice (it did not, the
    # module failed on import and no scenario had an outcome)
    entries = ledger_module("EntryLedger", documented=False, helper_call="Entry(_clean(label)).label",
                            imports="from dataclasses import dataclass\n\n\n@dataclass\nclass Entry:\n    label: str\n")
    commit(repo, "2025-05-05", {"books/bare.py": ledger_module("BareLedger", documented=False),
                                "books/sealed.py": sealed, "books/entries.py": entries,
                                # `queue.py` would lose to the standard library's module in the sandbox
                                "books/queues.py": ledger_module("Queue", documented=False),
                                "README.md": "a ledger cache"})
    config = MineConfig(local=root)
    documenter = make_documenter(config, pool=pool)
    registry = load_domains(settings.domain_registry_path())
    items = list(mine_local(root, config, registry, Tally(), documenter=documenter))
    return {i.class_name if isinstance(i, MinedClass) else i.evidence["class_name"]: i for i in items}


def _doctests(code: str, class_name: str) -> list[str]:
    cls = next(n for n in ast.parse(code).body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return [doc for f in cls.body if isinstance(f, ast.FunctionDef) and (doc := ast.get_docstring(f)) and ">>>" in doc]


@pytest.mark.slow  # mines a repository and synthesises tests in the sandbox
def test_an_undocumented_class_becomes_a_candidate_with_derived_docstrings(mined, pool):
    bare = mined["BareLedger"]
    assert isinstance(bare, MinedClass) and bare.docstrings_by == "derived"
    assert undocumented_methods(parse_module(bare.slice_code).classes[0]) == []
    assert bare.slice_code.count(MARKER) == 6  # __init__ and the five public methods; the private helper not
    assert "ValueError: observed for" in bare.slice_code and "RuntimeError: observed for" in bare.slice_code
    examples = _doctests(bare.slice_code, "BareLedger")
    assert len(examples) >= 4
    # every docstring's examples, run as a reader would run them, pass on the reference (in the sandbox)
    assert _check_examples(pool, bare.slice_code, module_name_for("BareLedger"), examples) == set(examples)
    candidate = build_candidate(bare, pool=pool, rng_seed=1)
    assert isinstance(candidate, Candidate)
    assert candidate.generator.parameters["docstrings"] == "derived" and candidate.generator.model is None
    assert MARKER in candidate.skeleton and ">>> ledger.add(" in candidate.skeleton


@pytest.mark.slow
def test_a_class_never_observed_working_stays_undocumented(mined):
    sealed = mined["SealedLedger"]
    assert isinstance(sealed, Rejection) and sealed.reason is RejectReason.UNDOCUMENTED
    assert "no call of it succeeded" in sealed.detail and sealed.evidence["docstrings"] == "derived"
    # the detail says what happened, not a count of scenarios
    assert "the constructor of SealedLedger raised AttributeError in every one of the" in sealed.detail


@pytest.mark.slow
def test_a_class_using_a_decorated_helper_or_named_like_a_stdlib_module_is_observed(mined):
    for name in ("EntryLedger", "Queue"):
        found = mined[name]
        assert isinstance(found, MinedClass), getattr(found, "detail", found)
        assert found.docstrings_by == "derived" and MARKER in found.slice_code
    assert "from dataclasses import dataclass" in mined["EntryLedger"].slice_code


@pytest.mark.slow
def test_no_tests_names_what_the_oracle_saw(mined, pool):
    sealed = mined["SealedLedger"]
    code = ledger_module("SealedLedger").replace("self.limit = limit\n", "self.limit = limit.bound()\n")
    mined_class = mined["BareLedger"].model_copy(update={"class_name": "SealedLedger", "slice_code": code,
                                                          "path": "books/sealed.py", "docstrings_by": None})
    rejected = build_candidate(mined_class, pool=pool, rng_seed=1)
    assert isinstance(rejected, Rejection) and rejected.reason is RejectReason.NO_TESTS
    assert "no scenario gave a usable test: the constructor of SealedLedger raised AttributeError" in rejected.detail
    assert sealed.evidence["class_name"] == "SealedLedger"


def test_the_outcome_summary_names_what_happened():
    ctor_fails = ScenarioRun(Scenario(steps=(_step("add", "1"),)), {"kind": "raise", "exc": "ValueError"}, [])
    assert outcome_summary(OracleRuns([ctor_fails] * 3, 3), "Ledger") == (
        "the constructor of Ledger raised ValueError in every one of the 3 scenario(s) run")
    calls_fail = ScenarioRun(Scenario(steps=(_step("fit", "1", "'alpha'"), _step("predict", "1"))), None,
                             [{"kind": "raise", "exc": "TypeError"}] * 2)
    assert outcome_summary([calls_fail, ctor_fails], "KNN") == (
        "2 scenario(s) run; the constructor raised in 1 (ValueError); every one of the 2 method call(s) raised: "
        "TypeError x2 (in fit, predict)")
    assert "no call scenario was proposed" in outcome_summary(OracleRuns([], 0), "Empty")
    assert outcome_summary(OracleRuns([], 4, "the class's module failed to import: NameError: x"), "Bad") == (
        "the sandbox run of 4 scenario(s) gave no outcome: the class's module failed to import: NameError: x")


def test_derivation_is_off_without_a_sandbox_or_when_disabled(pool):
    assert make_documenter(MineConfig()) is None
    assert make_documenter(MineConfig(derive_docstrings=False), pool=pool) is None
    assert make_documenter(MineConfig(), pool=pool) is not None


def test_static_and_class_methods_are_called_on_the_class():
    """Walks call instance methods only: an undocumented static method was never observed, and the class was
    rejected for it."""
    from core.analysis.class_model import analyse
    from core.scenarios import CLASS
    from pipeline.mining.derived_docs import class_calls
    from pipeline.mining.pools import static_pools

    code = ledger_module("Grid", documented=False, extra_method='''
        @staticmethod
        def blank(size: int):
            return [[0] * size for _ in range(size)]

        @classmethod
        def sized(cls, limit: int):
            return cls(limit)
        ''')
    scenarios = class_calls(analyse(code, "Grid"), static_pools(code, "Grid"), ["blank", "sized", "total"])
    called = {(s.steps[0].target, s.steps[0].method) for s in scenarios}
    assert called == {(CLASS, "blank"), (CLASS, "sized")} and all(len(s.steps) == 1 for s in scenarios)


AUTHORED = '''class Tally:
    """Counts named items."""

    def __init__(self):
        """An empty tally."""
        self.counts = {}

    def add(self, name, amount=1):
        "Count an item."
        if amount < 0:
            raise ValueError("negative amount")
        self.counts[name] = self.counts.get(name, 0) + amount
        return self.counts[name]

    def count(self, name):
        """Return how many of `name` were counted."""
        return self.counts.get(name, 0)

    def _internal(self, x):
        return x

    def scale(self, factor):
        r"""Multiply every count by `factor`; returns nothing \\ ever."""
        for name in self.counts:
            self.counts[name] *= factor


def sample():
    t = Tally()
    t.add("pears", 2)
    t.add("pears", -1)
    return t
'''


def test_an_authors_docstring_is_completed_with_what_it_leaves_out_and_was_observed(pool):
    from core.analysis.interface import read_interface
    from judges.offline.specification import documentation_problems
    from pipeline.mining.derived_docs import derive_docstrings

    before = documentation_problems(read_interface(AUTHORED, "Tally"), AUTHORED)
    assert before == ["add: parameter(s) name, amount not described", "add: return value not described",
                      "add: raises ValueError without documenting it"]
    code = derive_docstrings(pool, "Tally", AUTHORED, [], rng_seed=3)
    assert isinstance(code, str) and code != AUTHORED
    assert documentation_problems(read_interface(code, "Tally"), code) == []
    add = ast.get_docstring(next(f for f in ast.walk(ast.parse(code))
                                 if isinstance(f, ast.FunctionDef) and f.name == "add"))
    # the author's words first, then only the omitted parts, under the derived marker
    assert add.startswith("Count an item.\n\n" + MARKER) and "the author's docstring leaves this out" in add
    assert "name (str): observed `'pears'`" in add and "amount (int): observed `0`, `-1`" in add
    assert "Returns int or float; values observed" in add  # after scale(10.0) a count is a float
    assert "ValueError: observed for `tally = Tally()`, `tally.add('pears', -1)`" in add
    # docstrings that state everything are left alone, a raw one included
    assert '"""Return how many of `name` were counted."""' in code and 'r"""Multiply every count' in code
    assert MARKER not in code.split("def count", 1)[1]
    assert derive_docstrings(pool, "Tally", code, [], rng_seed=3) == code  # nothing left to complete


def test_an_omission_nothing_observed_is_left_for_the_judge(pool):
    from pipeline.mining.derived_docs import derive_docstrings

    # a KeyError no recorded call reaches: naming it without the call that raises it states nothing usable
    never = AUTHORED.replace("        return self.counts.get(name, 0)",
                             "        if len(self.counts) > 10_000:\n            raise KeyError(name)\n"
                             "        return self.counts.get(name, 0)")
    code = derive_docstrings(pool, "Tally", never, [], rng_seed=3)
    count = ast.get_docstring(next(f for f in ast.walk(ast.parse(code))
                                   if isinstance(f, ast.FunctionDef) and f.name == "count"))
    assert count == "Return how many of `name` were counted."
