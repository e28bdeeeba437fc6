"""A mined class's tests compare a returned list in order only when the skeleton states its order."""

from __future__ import annotations

from core.analysis.class_model import analyse
from core.scenarios import MAIN, Arg, Scenario, Step
from judges.offline.consistency import ConsistencyJudge
from pipeline.synthesis.oracle import ScenarioRun
from pipeline.synthesis.stated_orders import order_free_assertion, unordered_methods
from pipeline.synthesis.testgen import Renderer

SOURCE = '''class Shelf:
    """Books on a shelf."""

    def __init__(self):
        self.books = []

    def add(self, title):
        """Put `title` on the shelf."""
        self.books.append(title)

    def titles(self):
        """The titles on the shelf."""
        return list(self.books)

    def in_order(self):
        """The titles in the order they were added."""
        return list(self.books)
'''


def _run() -> ScenarioRun:
    steps = (Step(MAIN, "add", (Arg(literal="'b'"),)), Step(MAIN, "add", (Arg(literal="'a'"),)),
             Step(MAIN, "titles"), Step(MAIN, "in_order"))
    outcome = {"kind": "return", "literal": "['b', 'a']", "type": "list"}
    nothing = {"kind": "return", "literal": "None", "is_none": True}
    return ScenarioRun(Scenario((), (), steps), None, [nothing, nothing, outcome, outcome])


def test_an_unstated_order_is_compared_sorted_and_a_stated_one_in_order():
    assert unordered_methods(SOURCE, "Shelf") == {"__init__", "add", "titles"}
    renderer = Renderer(analyse(SOURCE, "Shelf"), "shelf", unordered=unordered_methods(SOURCE, "Shelf"))
    body, _ = renderer.lines_for(_run())
    assert "assert sorted(shelf.titles()) == ['a', 'b']" in body
    assert "assert shelf.in_order() == ['b', 'a']" in body
    # without the list of unordered methods (seeds and their variants) every comparison stays as it was
    plain, _ = Renderer(analyse(SOURCE, "Shelf"), "shelf").lines_for(_run())
    assert "assert shelf.titles() == ['b', 'a']" in plain


def test_the_consistency_judge_accepts_the_order_free_comparison():
    from core.records import Candidate

    renderer = Renderer(analyse(SOURCE, "Shelf"), "shelf", unordered=unordered_methods(SOURCE, "Shelf"))
    tests = renderer.module_text([_run()])
    candidate = Candidate.model_construct(candidate_id="c", class_name="Shelf", module_name="shelf",
                                          skeleton=SOURCE, solution_code=SOURCE, test_code=tests)
    verdict = ConsistencyJudge().review(candidate, None)
    assert verdict.decision == "accept", verdict.findings


def test_only_lists_of_distinct_items_are_compared_sorted():
    assert order_free_assertion("s.f()", "[3, 1, 2]") == "assert sorted(s.f()) == [1, 2, 3]"
    assert order_free_assertion("s.f()", "[1, 'a']") == "assert sorted(s.f(), key=repr) == ['a', 1]"
    assert order_free_assertion("s.f()", "[1, 1]") is None  # one item twice: order cannot matter
    assert order_free_assertion("s.f()", "(1, 2)") is None  # a tuple's positions are its meaning
    assert order_free_assertion("s.f()", "'ab'") is None
