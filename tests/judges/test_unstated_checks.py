"""One rule for "a test checks what the skeleton does not state": the consistency judge's, as typed records.

The judge rejects on it, mining drops the repository tests it names (`stated_tests`), and the model path
drops the tests it names for an unstated exception (`stated_raises.unstated_expectations`): the three must
never disagree on which test expects an unstated exception.
"""

from __future__ import annotations

from core.records import Decision
from judges.offline.consistency import CheckKind, ConsistencyJudge, UnstatedCheck, unstated_checks
from pipeline.mining.stated_tests import keep_stated_tests
from pipeline.synthesis.stated_raises import unstated_expectations
from tests.judges.conftest import make_candidate

SOURCE = '''class Shelf:
    """Books on a shelf, by title."""

    def __init__(self):
        """An empty shelf."""
        self._titles = []

    def put(self, title):
        """Put ``title`` on the shelf; ValueError when it is already there."""
        if title in self._titles:
            raise ValueError("already there")
        self._titles.append(title)

    def take(self, title):
        """Take ``title`` off the shelf; the call fails when it is not there."""
        self._titles.remove(title)

    def titles(self):
        """The titles on the shelf."""
        return list(self._titles)
'''

TESTS = '''import pytest

from shelf import Shelf


@pytest.fixture
def shelf():
    made = Shelf()
    made._titles.append("kept")
    return made


def test_put_twice():
    shelf = Shelf()
    shelf.put("a")
    with pytest.raises(ValueError):
        shelf.put("a")


def test_put_twice_any_of_two():
    shelf = Shelf()
    shelf.put("a")
    with pytest.raises((KeyError, ValueError)):
        shelf.put("a")


def test_take_missing_fails():
    with pytest.raises(Exception):
        Shelf().take("b")


def test_take_missing_value_error():
    with pytest.raises(ValueError):
        Shelf().take("b")


def test_titles_before_any_put():
    with pytest.raises(IndexError):
        Shelf().titles()[0]


def test_titles_in_order():
    shelf = Shelf()
    shelf.put("a")
    shelf.put("b")
    assert shelf.titles() == ["a", "b"]


class TestMore:
    def test_put_one(self):
        shelf = Shelf()
        shelf.put("a")
        assert shelf.titles() == ["a"]

    def test_put_none(self):
        with pytest.raises(TypeError):
            Shelf().put(None)
'''


def test_the_judge_returns_typed_checks_and_writes_them_as_before():
    checks = unstated_checks(TESTS, SOURCE, "Shelf")
    assert all(isinstance(c, UnstatedCheck) for c in checks)
    by_test = {(c.test, c.kind) for c in checks}
    assert (None, CheckKind.PRIVATE_ATTRIBUTE) in by_test  # the fixture is module code: no test owns it
    assert ("test_take_missing_value_error", CheckKind.UNSTATED_EXCEPTION) in by_test
    assert ("test_put_none", CheckKind.UNSTATED_EXCEPTION) in by_test
    assert ("test_titles_in_order", CheckKind.UNSTATED_ORDER) in by_test
    # an expectation of any of two exceptions, one documented, and `Exception` where the docstring says the call
    # fails: a correct implementation passes both
    assert not {"test_put_twice", "test_put_twice_any_of_two", "test_take_missing_fails"} & {c.test for c in checks}
    fixture = next(c for c in checks if c.test is None)
    assert str(fixture) == f"module:{fixture.line}: uses the private attribute _titles"
    assert [c.line for c in checks] == sorted(c.line for c in checks)


def test_the_model_path_mining_and_the_judge_name_the_same_tests():
    exceptions = {c.test for c in unstated_checks(TESTS, SOURCE, "Shelf") if c.kind is CheckKind.UNSTATED_EXCEPTION}
    # an expectation is held against the class's calls in its block: `titles()[0]` counts as titles' IndexError
    assert set(unstated_expectations(TESTS, SOURCE, "Shelf")) == exceptions == {
        "test_take_missing_value_error", "test_put_none", "test_titles_before_any_put"}
    kept = keep_stated_tests(TESTS, SOURCE, "Shelf", SOURCE)
    assert set(kept.dropped) == exceptions | {"test_titles_in_order"}
    assert "def test_put_twice_any_of_two" in kept.test_code and "def test_take_missing_fails" in kept.test_code
    assert "def test_put_one" in kept.test_code and "def test_put_none" not in kept.test_code
    candidate = make_candidate(solution=SOURCE, skeleton=SOURCE, tests=TESTS).model_copy(
        update={"class_name": "Shelf", "module_name": "shelf"})
    verdict = ConsistencyJudge().review(candidate, None)
    assert verdict.decision is Decision.REJECT
    assert "test_put_none:" in verdict.findings[0].note and "test_put_twice:" not in verdict.findings[0].note


def test_exception_is_unstated_where_no_docstring_says_the_call_can_fail():
    tests = "import pytest\n\nfrom shelf import Shelf\n\n\ndef test_titles_fail():\n" \
            "    with pytest.raises(Exception):\n        Shelf().titles()\n"
    assert set(unstated_expectations(tests, SOURCE, "Shelf")) == {"test_titles_fail"}
