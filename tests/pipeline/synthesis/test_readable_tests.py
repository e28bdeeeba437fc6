"""Rendering rules of generated tests, on hand-made oracle runs of a small inline class (no sandbox):
repeated identical queries go, a bare call stays only where a later assertion (or a measured line or
edge) needs it, and names read as sentences without values."""

from __future__ import annotations

import ast
import textwrap

import pytest

from core.analysis.class_model import analyse
from core.scenarios import Scenario, call
from pipeline.synthesis.naming import NamedStep, TestNamer, argument_kind, doing, gerund, plural
from pipeline.synthesis.oracle import ScenarioRun
from pipeline.synthesis.pruning import EVERYTHING, class_reads
from pipeline.synthesis.testgen import Renderer

LEDGER = textwrap.dedent('''
    class Ledger:
        def __init__(self, limit: int = 100) -> None:
            self.limit = limit
            self.entries = []
            self.notes = []

        def add(self, amount: int) -> int:
            if amount > self.limit:
                raise ValueError("over the limit")
            self.entries.append(amount)
            return sum(self.entries)

        def set_limit(self, limit: int) -> None:
            self.limit = limit

        def note(self, text: str) -> None:
            self.notes.append(text)

        def total(self) -> int:
            return sum(self.entries)

        def last_note(self):
            return self.notes[-1] if self.notes else None

        def export(self) -> dict:
            return dict(vars(self))
''')

# Lines each method runs (what the oracle's per-step coverage contexts would report).
LINES = {"add": {9, 10, 11, 12}, "set_limit": {15}, "note": {18}, "total": {21}, "last_note": {24}, "export": {27}}
CTOR_LINES = {3, 4, 5}


def returned(literal: str) -> dict:
    return {"kind": "return", "literal": literal, "is_none": literal == "None", "type": "int"}


def raised(exc: str) -> dict:
    return {"kind": "raise", "exc": exc, "builtin": exc, "importable": None, "defined_here": False}


def oracle_run(*steps: tuple, edges=(), driven: int = 0, known: bool = True) -> ScenarioRun:
    """A run of (step, outcome, changed attributes) triples; `known=False` is a run without per-step facts."""
    scenario = Scenario(steps=tuple(s for s, _, _ in steps))
    step_lines = tuple(frozenset(LINES[s.method]) for s, _, _ in steps)
    return ScenarioRun(scenario, None, [o for _, o, _ in steps],
                       lines=frozenset(CTOR_LINES).union(*step_lines), edges=frozenset(edges), driven=driven,
                       step_lines=step_lines if known else (),
                       changed=tuple(frozenset(c) for _, _, c in steps) if known else ())


def render(*runs: ScenarioRun, source: str | None = LEDGER) -> dict[str, list[str]]:
    """Each rendered test's body lines (after the constructor), by test name; every test written whole
    (no shared setup as a fixture: what is written does not depend on it, see test_shared_setup.py)."""
    text = Renderer(analyse(LEDGER, "Ledger"), "ledger", source, shared_setup=False).module_text(list(runs))
    tree = ast.parse(text)
    return {f.name: [ast.unparse(s) for s in f.body[1:]] for f in tree.body if isinstance(f, ast.FunctionDef)}


def test_a_repeated_identical_query_is_written_once():
    tests = render(oracle_run((call("add", "5"), returned("5"), {"entries"}),
                              (call("total"), returned("5"), set()),
                              (call("total"), returned("5"), set())))
    assert list(tests.values()) == [["assert ledger.add(5) == 5", "assert ledger.total() == 5"]]


def test_a_query_repeated_after_a_change_or_that_changes_state_is_kept():
    tests = render(oracle_run((call("total"), returned("0"), set()),
                              (call("add", "5"), returned("5"), {"entries"}),
                              (call("total"), returned("5"), set())),
                   oracle_run((call("add", "2"), returned("2"), {"entries"}),
                              (call("total"), returned("2"), {"_call_counts"}),  # a counted call changes state
                              (call("total"), returned("2"), {"_call_counts"})))
    bodies = list(tests.values())
    assert bodies[0] == ["assert ledger.total() == 0", "assert ledger.add(5) == 5", "assert ledger.total() == 5"]
    assert bodies[1].count("assert ledger.total() == 2") == 2


def test_a_bare_call_nothing_observes_goes_when_its_lines_are_covered_elsewhere():
    unobserved = oracle_run((call("note", '"x"'), returned("None"), {"notes"}),
                            (call("add", "5"), returned("5"), {"entries"}),
                            (call("total"), returned("5"), set()))
    covering = oracle_run((call("note", '"y"'), returned("None"), {"notes"}),
                          (call("last_note"), returned('"y"'), set()))
    first, second = render(unobserved, covering).values()
    assert first == ["assert ledger.add(5) == 5", "assert ledger.total() == 5"]
    assert second == ["ledger.note('y')", "assert ledger.last_note() == 'y'"]  # observed: kept


def test_a_bare_call_stays_when_dropping_it_would_lose_a_line_or_an_edge():
    alone = oracle_run((call("note", '"x"'), returned("None"), {"notes"}),
                       (call("add", "5"), returned("5"), {"entries"}))
    assert list(render(alone).values()) == [["ledger.note('x')", "assert ledger.add(5) == 5"]]
    edge = ("state", "note", "add", "notes")
    with_edge = oracle_run((call("note", '"x"'), returned("None"), {"notes"}),
                           (call("add", "5"), returned("5"), {"entries"}), edges=[edge])
    covering = oracle_run((call("note", '"y"'), returned("None"), {"notes"}),
                          (call("last_note"), returned('"y"'), set()))
    assert list(render(with_edge, covering).values())[0] == ["ledger.note('x')", "assert ledger.add(5) == 5"]


def test_a_bare_call_a_later_assertion_depends_on_is_kept():
    tests = render(oracle_run((call("set_limit", "1"), returned("None"), {"limit"}),
                              (call("add", "5"), raised("ValueError"), set())),
                   oracle_run((call("set_limit", "7"), returned("None"), {"limit"}),
                              (call("export"), returned("{'limit': 7}"), set())))  # reads vars(self): everything
    first, second = tests.values()
    assert first[0] == "ledger.set_limit(1)" and first[1].startswith("with pytest.raises(ValueError)")
    assert second[0] == "ledger.set_limit(7)"


def test_without_measured_effects_or_source_every_step_is_written():
    steps = ((call("note", '"x"'), returned("None"), {"notes"}), (call("total"), returned("0"), set()),
             (call("total"), returned("0"), set()))
    covering = oracle_run((call("note", '"y"'), returned("None"), {"notes"}), (call("last_note"), returned('"y"'), set()))
    assert len(list(render(oracle_run(*steps, known=False), covering).values())[0]) == 3
    assert len(list(render(oracle_run(*steps), covering, source=None).values())[0]) == 3


def test_reads_follow_calls_and_properties_and_a_handed_on_self_reads_everything():
    reads = class_reads(LEDGER, "Ledger")
    assert reads.of("total") == {"entries"} and reads.of("add") >= {"limit", "entries"}
    assert EVERYTHING in reads.of("export") and EVERYTHING in reads.of("inherited_method")
    source = "class A:\n    @property\n    def size(self):\n        return len(self.items)\n\n" \
             "    def report(self):\n        return self.size\n"
    assert class_reads(source, "A").of("report") == {"items"}


def test_names_read_as_sentences_without_values_and_stay_unique():
    tests = render(oracle_run((call("add", "5"), returned("5"), {"entries"}), (call("add", "6"), returned("11"), {"entries"}),
                              (call("total"), returned("11"), set())),
                   oracle_run((call("add", "7"), returned("7"), {"entries"}), (call("total"), returned("7"), set())),
                   oracle_run((call("add", "-1"), raised("ValueError"), set())),
                   oracle_run((call("set_limit", "0"), returned("None"), {"limit"}),
                              (call("add", "3"), raised("ValueError"), set())))
    assert list(tests) == ["test_total_after_adding_twice", "test_total_after_adding",
                           "test_add_rejects_a_negative_amount", "test_add_raises_value_error_after_setting_limit"]
    assert not any(ch.isdigit() for name in tests for ch in name)


@pytest.mark.parametrize(("verb", "expected"), [("add", "adding"), ("parse", "parsing"), ("set", "setting"),
                                                ("reset", "resetting"), ("open", "opening"), ("tie", "tying"),
                                                ("free", "freeing"), ("undo", "undoing"), ("withdraw", "withdrawing"),
                                                ("rollback", "rolling_back"), ("resync", "resyncing"),
                                                ("panic", "panicking"), ("snapshot", "snapshotting"),
                                                ("rebin", "rebinning"), ("process", "processing")])
def test_gerund(verb, expected):
    assert gerund(verb) == expected


def test_phrases_for_repeated_calls_and_special_arguments():
    assert [plural(n) for n in ("heading", "entry", "box", "statistics", "day")] == \
        ["headings", "entries", "boxes", "statistics", "days"]
    assert doing("add_heading", 3) == "adding_headings" and doing("deposit", 2) == "depositing_twice"
    assert doing("render", 1, verb=False) == "calling_render"
    # Methods named by a noun, a plural, a participle or a question word are called, even when they change
    # state (a cache, a statistic): the names a released build had mangled.
    assert [doing(m, 1) for m in ("similarity", "tokens", "columns", "changed_lines", "where", "most_called",
                                  "correction_count", "entries", "stats")] == \
        ["calling_similarity", "calling_tokens", "calling_columns", "calling_changed_lines", "calling_where",
         "calling_most_called", "calling_correction_count", "calling_entries", "calling_stats"]
    assert [doing(m, 1) for m in ("rollback", "address", "focus", "analysis_run", "merge", "submit_order")] == \
        ["rolling_back", "addressing", "focusing", "calling_analysis_run", "merging", "submitting_order"]
    assert [argument_kind(x) for x in ('""', '"  "', "-2", "0", "None", "[]", "3", '"x"', "True", "f()")] == \
        ["an_empty", "a_blank", "a_negative", "a_zero", "no", "an_empty", None, None, None, None]


def test_a_name_grows_with_what_tells_two_tests_apart_before_a_number():
    namer = TestNamer()
    deposit = NamedStep("deposit", True, True, changes_state=True)
    balance = NamedStep("balance", True, True)
    statement = NamedStep("statement", True, True)
    assert namer.name([deposit, balance]) == "test_balance_after_depositing"
    assert namer.name([deposit, statement, balance]) == "test_balance_and_statement_after_depositing"
    assert namer.name([balance]) == "test_balance"
    assert namer.name([NamedStep("audit", True, False), balance]) == "test_balance_on_a_fresh_instance"
    assert namer.name([balance]) == "test_balance_2"  # nothing else tells them apart
    titled = [NamedStep("undo", True, False, changes_state=True), NamedStep("total", True, True)]
    assert namer.name(titled, "undo_reverts_last_operation") == "test_undo_reverts_last_operation"
    assert namer.name(titled, "undo_reverts_last_operation") == "test_undo_reverts_last_operation_involving_total"


@pytest.mark.parametrize("literal, expected", [
    ("0.025400000000000002", "pytest.approx(0.025400000000000002)"),
    ("[1, -8.711754349385727, 2.5]", "[1, pytest.approx(-8.711754349385727), 2.5]"),
    ('{"é": 0.3333333333333333, "n": 0.1}', '{"é": pytest.approx(0.3333333333333333), "n": 0.1}'),
    ("{0.1234567890123456: 1}", "{0.1234567890123456: 1}"),  # a key stays exact: approx is not hashable
    ('"0.30000000000000004"', '"0.30000000000000004"'),
    ("None", "None"),
])
def test_computed_floats_are_compared_approximately(literal, expected):
    from pipeline.synthesis.testgen import approximate_floats

    written = approximate_floats(literal)
    assert written == expected
    assert eval(written, {"pytest": pytest}) == eval(literal)  # noqa: S307 - literals written by the test
