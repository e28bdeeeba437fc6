"""Scoring and the failure taxonomy: every scripted completion lands in its class; pass@k is unbiased."""

from __future__ import annotations

import math

import pytest
from eval_fixtures import EXPECTED_FAILURE, FAST, SCRIPTED, ledger_eval_task

from pipeline.evaluation.passk import mean_pass_at_k, pass_at_k
from pipeline.evaluation.scoring import score_completion
from pipeline.evaluation.strategies import holistic


def test_pass_at_k_is_the_unbiased_estimator():
    assert pass_at_k(5, 0, 1) == 0.0 and pass_at_k(5, 5, 5) == 1.0
    assert pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert pass_at_k(5, 2, 2) == pytest.approx(1 - math.comb(3, 2) / math.comb(5, 2))  # 0.7
    assert pass_at_k(10, 7, 4) == 1.0  # fewer than k wrong samples: some draw always holds a right one
    assert mean_pass_at_k([(5, 2), (5, 0)], 1) == pytest.approx(0.2)
    assert mean_pass_at_k([(1, 1)], 5) is None
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)


def test_method_tests_come_from_the_release_columns():
    task = ledger_eval_task()
    assert task.method_tests["transfer"] == ("test_transfer", "test_transfer_refuses_overdraft")
    assert "test_balance_starts_at_zero" in task.method_tests["balance"]


@pytest.mark.parametrize("name", sorted(SCRIPTED))
def test_each_scripted_completion_lands_in_its_class(pool, name):
    task = ledger_eval_task()
    attempt = holistic(task, lambda prompt, values: (SCRIPTED[name], "solve_class@1", False, 0.0), 0)
    if attempt.completion is None:
        failure = "syntax" if attempt.syntax_error else "bad_answer"
        assert failure == EXPECTED_FAILURE[name], attempt.bad_answers
        return
    score = score_completion(task, attempt.completion, pool, FAST.limits())
    assert (score.failure.value if score.failure else None) == EXPECTED_FAILURE[name], (score.failure_detail,
                                                                                         score.test_failures)
    assert score.passed == (name == "right")
    if name == "right":
        assert set(score.methods) == {"deposit", "balance", "transfer"} and all(score.methods.values())
    if name == "dependency":  # deposit's own tests still pass: method level is finer than class level
        assert score.methods["deposit"] and not score.methods["transfer"]
    if name == "disarms_assertions":
        assert score.tampering and not any(score.methods.values())


FIXTURE_TESTS = """import pytest

from ledger import Ledger


@pytest.fixture
def ledger_with_ten_in_a():
    ledger = Ledger()
    ledger.deposit("a", 10)
    return ledger


def test_balance_after_depositing(ledger_with_ten_in_a):
    assert ledger_with_ten_in_a.balance("a") == 10


def test_transfer_after_depositing(ledger_with_ten_in_a):
    assert ledger_with_ten_in_a.transfer("a", "b", 4) == 4
    assert ledger_with_ten_in_a.balance("a") == 6
"""


@pytest.mark.parametrize("name", ["right", "wrong"])
def test_tests_taking_a_fixture_are_scored_and_aimed_at_the_methods_their_fixture_calls(pool, name):
    # the shape the offline test writer gives shared setup: a method called only in the fixture (deposit)
    # is one the tests taking it are aimed at
    task = ledger_eval_task(FIXTURE_TESTS)
    assert task.method_tests["deposit"] == ("test_balance_after_depositing", "test_transfer_after_depositing")
    score = score_completion(task, SCRIPTED[name].split("```python\n")[1].split("```")[0], pool, FAST.limits())
    assert score.passed == (name == "right") and len(score.tests) == 2
    assert (score.failure.value if score.failure else None) == EXPECTED_FAILURE[name]
    assert score.methods == {m: name == "right" for m in ("deposit", "balance", "transfer")}


def _test(reason, outcome="failed", exc=None, frames=()):
    from validation.sandbox import TestResult

    raised = {"type": exc, "frames": [list(f) for f in frames]} if exc else None
    return TestResult("test_ledger.py::test_x", outcome, reason, raised)


@pytest.mark.parametrize("test, expected", [
    (_test("assert 3 == 4", exc="AssertionError", frames=[("test_ledger.py", "test_x")]), "logic"),
    (_test("AttributeError: 'NoneType' object has no attribute 'deposit'", exc="AttributeError",
           frames=[("test_ledger.py", "test_x")]), "logic"),  # about a returned None, not about the class
    (_test("AttributeError: 'Ledger' object has no attribute 'deposit'", exc="AttributeError",
           frames=[("test_ledger.py", "test_x")]), "missing"),
    (_test("AttributeError: 'Ledger' object has no attribute 'balances'", exc="AttributeError",
           frames=[("test_ledger.py", "test_x"), ("ledger.py", "balance")]), "dependency"),  # state not set yet
    (_test("KeyError: 'a'", exc="KeyError",
           frames=[("test_ledger.py", "test_x"), ("ledger.py", "transfer"), ("ledger.py", "balance")]), "dependency"),
    (_test("KeyError: 'a'", exc="KeyError", frames=[("test_ledger.py", "test_x"), ("ledger.py", "balance")]), "runtime"),
    (_test("NotImplementedError", exc="NotImplementedError", frames=[("ledger.py", "balance")]), "missing"),
    (_test("SystemExit: 0", exc="SystemExit", frames=[("ledger.py", "balance")]), "tampering"),
    # A module the sandbox lacks is the environment's; the completion's own module missing is the code's.
    (_test("ModuleNotFoundError: No module named 'numpy'", exc="ModuleNotFoundError"), "environment"),
    (_test("ModuleNotFoundError: No module named 'ledger'", exc="ModuleNotFoundError"), "import"),
    (_test("MemoryError", exc="MemoryError", frames=[("ledger.py", "deposit")]), "resource"),
    (_test("test exceeded 1 s", outcome="timeout"), "timeout"),
    (_test("run process killed by SIGKILL", outcome="killed"), "resource"),
])
def test_classify_one_failing_test(test, expected):
    from pipeline.evaluation.taxonomy import ClassShape, classify_test

    shape = ClassShape("Ledger", "ledger.py", frozenset({"__init__", "deposit", "balance", "transfer"}),
                       frozenset({"balances"}))
    assert classify_test(test, shape).value == expected


def test_the_skeleton_baseline_fails_as_missing_methods_not_logic(pool):
    """Its methods are docstrings: the failing assertions are there because nothing is implemented."""
    from pipeline.evaluation.baselines import baseline_attempt
    from pipeline.evaluation.taxonomy import static_failure

    task = ledger_eval_task()
    score = score_completion(task, baseline_attempt(task, "skeleton", 0).completion, pool, FAST.limits())
    assert not score.passed and score.failure.value == "missing"
    assert score.failure_detail.startswith("methods not implemented: ") and "transfer" in score.failure_detail
    # a method the reference leaves a stub too is not held against a completion
    stub = "class A:\n    def f(self):\n        pass\n"
    assert static_failure(stub, "A", ["f"], stub) is None
    assert static_failure(stub, "A", ["f"], "class A:\n    def f(self):\n        return 1\n")[0].value == "missing"
