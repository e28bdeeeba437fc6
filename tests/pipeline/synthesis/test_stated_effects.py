"""Oracle tests never observe an effect no docstring states: a method documented as a calculation whose
reference changes what later calls return (the counts updated inside `precision`) is a reference defect.

The fixture is a small confusion-matrix class whose reference adds the labels it is given to its counts in
every metric, as a buggy benchmark reference does: `precision` then `recall` on one object count the labels
twice, and a test written from that run would expect the doubled counts. A class whose query only memoises
its result changes an attribute too, but no later result: its runs stay tests. And a buffer whose `add`
flushes it when a sentence ends, while no docstring says so: a run reading it empty after that is dropped.
"""

from __future__ import annotations

import random

import pytest

from core.analysis.class_model import analyse
from core.analysis.statements import change_stated, skeleton_statements, stated_as_query
from core.scenarios import Scenario, call
from pipeline.mining.pools import static_pools
from pipeline.stages.config import BuildConfig
from pipeline.synthesis.oracle import ScenarioRun, run_oracle
from pipeline.synthesis.stated_effects import (
    EFFECT,
    KEEPS_NOTHING,
    adding_methods,
    adding_suspects,
    effect_runs,
    first_difference,
    query_methods,
    suspect_steps,
)
from pipeline.synthesis.testgen import synthesize_tests

CONFUSION = '''
class Confusion:
    """Precision and recall of binary predictions against their labels."""

    def __init__(self):
        """No labels counted yet."""
        self.hits = 0
        self.false_alarms = 0
        self.misses = 0

    def add(self, predicted, actual):
        """Add each (predicted, actual) pair of the two lists to the counts."""
        for p, a in zip(predicted, actual):
            self.hits += p == 1 and a == 1
            self.false_alarms += p == 1 and a == 0
            self.misses += p == 0 and a == 1

    def precision(self, predicted, actual):
        """Calculate the share of the predicted positives of the two lists that are actual positives.

        Returns 0.0 when nothing is predicted positive.
        """
        self.add(predicted, actual)
        flagged = self.hits + self.false_alarms
        return self.hits / flagged if flagged else 0.0

    def recall(self, predicted, actual):
        """Calculate the share of the actual positives of the two lists that are predicted positive.

        Returns 0.0 when nothing is actually positive.
        """
        self.add(predicted, actual)
        positives = self.hits + self.misses
        return self.hits / positives if positives else 0.0

    def counted(self):
        """Return the numbers of hits, false alarms and misses, in that order."""
        return (self.hits, self.false_alarms, self.misses)
'''

MEMO = '''
class Primes:
    """Primes below a bound, worked out once and kept."""

    def __init__(self, bound):
        """Primes below `bound`; nothing is worked out yet."""
        self.bound = bound
        self._known = None

    def primes(self):
        """Return the primes below the bound, in increasing order."""
        if self._known is None:
            self._known = [n for n in range(2, self.bound) if all(n % d for d in range(2, n))]
        return list(self._known)

    def count(self):
        """Return how many primes lie below the bound."""
        return len(self.primes())

    def largest(self):
        """Return the largest prime below the bound, or None when there is none."""
        found = self.primes()
        return found[-1] if found else None
'''


BUFFER = '''
class SentenceBuffer:
    """Pieces of text, collected."""

    def __init__(self):
        """An empty buffer."""
        self.text = ""

    def add(self, piece):
        """Add `piece` to the buffered text; returns the text it completes, or None."""
        self.text += piece
        if piece.endswith("."):
            return self.take()
        return None

    def take(self):
        """Return the buffered text without surrounding spaces (None when there is none), and empties the buffer."""
        text = self.text.strip()
        self.text = ""
        return text or None

    def pending(self):
        """Return the length of the buffered text."""
        return len(self.text)
'''

STATED_BUFFER = BUFFER.replace("returns the text it completes, or None.",
                               "when `piece` ends with a full stop, the buffer is flushed: returns what `take` returns.")


def test_a_calculation_is_a_query_and_a_documented_update_is_not():
    statements = skeleton_statements(CONFUSION, "Confusion")
    assert stated_as_query(statements, "precision") and stated_as_query(statements, "counted")
    assert not stated_as_query(statements, "add") and change_stated(statements, "add")
    assert query_methods(CONFUSION, "Confusion") == {"precision", "recall", "counted"}


def test_a_class_docstring_naming_the_change_states_it():
    stated = skeleton_statements('class Brackets:\n    """Checks texts and counts the texts checked."""\n\n'
                                 '    def check(self, text):\n        """True when the brackets of `text` balance."""\n',
                                 "Brackets")
    assert not stated_as_query(stated, "check")
    every_call = skeleton_statements('class Shop:\n    """Calls of price and stock are counted, per method."""\n\n'
                                     '    def price(self, item):\n        """Return the price of `item`."""\n', "Shop")
    assert not stated_as_query(every_call, "price")


def _run(steps, outcomes, changed) -> ScenarioRun:
    return ScenarioRun(Scenario(steps=tuple(steps)), None, outcomes, changed=tuple(frozenset(c) for c in changed))


def test_a_query_that_changed_state_is_suspect_and_its_effect_is_what_a_later_call_sees_differently():
    steps = [call("precision", "[1]", "[1]"), call("recall", "[1]", "[0]")]
    value = lambda v: {"kind": "return", "literal": v}  # noqa: E731 - a step's outcome as the oracle records it
    run = _run(steps, [value("1.0"), value("0.5")], [{"hits"}, {"misses"}])
    assert suspect_steps(run, frozenset({"precision", "recall"})) == [0]  # the last call has nothing after it
    assert suspect_steps(_run(steps, [value("1.0"), value("0.5")], [set(), set()]), frozenset({"precision"})) == []
    assert suspect_steps(run, frozenset({"recall"})) == []
    alone = _run(steps[1:], [value("0.0")], [{"misses"}])
    assert first_difference(run, 0, alone) == "recall"
    assert first_difference(run, 0, _run(steps[1:], [value("0.5")], [{"misses"}])) is None


@pytest.mark.slow
def test_runs_observing_a_calculation_s_hidden_update_are_dropped_and_recorded():
    model = analyse(CONFUSION, "Confusion")
    locked_in = Scenario(steps=(call("precision", "[1]", "[1]"), call("recall", "[0]", "[1]")))
    fresh = Scenario(steps=(call("add", "[1, 0]", "[1, 1]"), call("recall", "[1]", "[1]"), call("counted")))
    with BuildConfig().sandbox_pool(1) as pool:
        result = synthesize_tests(pool, source=CONFUSION, module="confusion", model=model,
                                  pools=static_pools(CONFUSION, "Confusion"), extra=[locked_in, fresh],
                                  rng=random.Random(5))
        memo = synthesize_tests(pool, source=MEMO, module="primes", model=analyse(MEMO, "Primes"),
                                pools=static_pools(MEMO, "Primes"),
                                extra=[Scenario(steps=(call("primes"), call("count"), call("largest")))],
                                rng=random.Random(5))
    effects = {(d["method"], d["observed_by"]) for d in result.reference_defects if d.get("effect") == EFFECT}
    assert ("precision", "recall") in effects
    # recall after precision on one object sees precision's labels: the reference gives 0.5, a correct one 0.0
    assert "assert confusion.precision([1], [1]) == 1.0\n    assert confusion.recall([0], [1]) == 0.5" not in result.test_code
    assert result.tests > 0 and ".add(" in result.test_code  # a documented update stays a behaviour
    # the memoised list changes an attribute, never a later result: nothing is dropped for it
    assert not [d for d in memo.reference_defects if d.get("effect")] and memo.tests > 0


def test_an_addition_is_stated_as_such_unless_a_docstring_states_a_flush():
    assert adding_methods(BUFFER, "SentenceBuffer") == {"add"}
    assert adding_methods(STATED_BUFFER, "SentenceBuffer") == frozenset()
    derived = ('class Log:\n    def append(self, line):\n        """Derived from observed behaviour (2 calls): line: str."""\n\n'
               '    def lines(self):\n        """Derived from observed behaviour: returns []."""\n')
    assert adding_methods(derived, "Log") == {"append"}
    # a budget the additions spend: reading it empty reads what they used up, a stated rule
    spending = ('class Retries:\n    """Each recorded failure spends one token of the budget."""\n\n'
                '    def record_failure(self, name):\n        """Record a failure of `name`."""\n')
    assert adding_methods(spending, "Retries") == frozenset()


@pytest.mark.slow
def test_runs_observing_an_unstated_flush_are_dropped_and_a_stated_one_stays_tested():
    """An automatic flush no docstring states: `add` keeps nothing of a sentence's end, so a test reading the
    buffer empty afterwards checks an unstated rule; with the rule stated, the same runs stay."""
    flushed = [Scenario(steps=(call("add", repr("Hello.")), call("pending"))),
               Scenario(steps=(call("add", repr("ab")), call("add", repr("c.")), call("take"))),
               Scenario(steps=(call("add", repr("ab")), call("pending"), call("add", repr("cd")), call("pending")))]
    outcome = {}
    with BuildConfig().sandbox_pool(1) as pool:
        for name, source in (("unstated", BUFFER), ("stated", STATED_BUFFER)):
            runs = run_oracle(pool, source=source, module="sentence_buffer", class_name="SentenceBuffer",
                              scenarios=flushed)
            outcome[name] = effect_runs(pool, runs, source=source, module="sentence_buffer", class_name="SentenceBuffer")
    kept, defects = outcome["unstated"]
    assert [run.scenario for run in kept] == flushed[2:]  # additions that keep what they add stay tests
    assert {(d["method"], d["effect"], d["observed_by"], d["scenarios"]) for d in defects} == {
        ("add", KEEPS_NOTHING, "pending", 1),  # nothing changed at all: no second run needed
        ("add", KEEPS_NOTHING, "take", 1)}  # "ab" was there: run again without the call, take() reads it
    kept, defects = outcome["stated"]
    assert [run.scenario for run in kept] == flushed and defects == ()


def test_an_addition_refused_or_ignored_is_not_suspect_and_one_that_handed_its_text_on_is():
    value = lambda v: {"kind": "return", "literal": v}  # noqa: E731 - a step's outcome as the oracle records it
    steps = [call("add", repr("x.")), call("take")]
    handed_on = _run(steps, [value("'x.'"), value("None")], [set(), set()])
    ignored = _run(steps, [value("None"), value("None")], [set(), set()])
    adding = frozenset({"add"})
    assert adding_suspects(handed_on, adding) == [(0, 1, False)]
    assert adding_suspects(ignored, adding) == []
    # the next call acts on the object (a purchase that spends the balance): its 0 is an answer, not a reading
    assert adding_suspects(_run(steps, [value("5"), value("0")], [{"balance"}, {"balance"}]), adding) == []
    # the next call adds too: its None answers nothing about what the object holds
    assert adding_suspects(_run([call("add", repr("x.")), call("add", repr("y"))], [value("'x.'"), value("None")],
                                [set(), {"text"}]), adding) == []
