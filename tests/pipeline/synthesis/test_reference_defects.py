"""Oracle tests never lock in a reference's defect: a run raising what no docstring states is dropped and
recorded, for every origin (here a benchmark-style class, as an imported ClassEval task would be).

The reference pops an empty stack on a closing bracket with nothing open: `IndexError`, where its
docstring says "False otherwise". The scenario showing it is not made into a test; the result records it.
"""

from __future__ import annotations

import random

import pytest

from core.analysis.class_model import analyse
from core.scenarios import Scenario, call
from pipeline.mining.pools import static_pools
from pipeline.stages.config import BuildConfig
from pipeline.synthesis.stated_raises import unstated_expectations
from pipeline.synthesis.testgen import synthesize_tests

BRACKETS = '''
class BalancedBrackets:
    """Checks whether the brackets of texts are balanced, and counts the texts checked."""

    PAIRS = {")": "(", "]": "[", "}": "{"}

    def __init__(self):
        """No text checked yet."""
        self.checked = 0
        self.balanced = 0

    def check(self, text):
        """True when every bracket of `text` closes the last one opened, False otherwise."""
        self.checked += 1
        stack = []
        for char in text:
            if char in "([{":
                stack.append(char)
            elif char in self.PAIRS:
                if stack.pop() != self.PAIRS[char]:
                    return False
        result = not stack
        self.balanced += result
        return result

    def share_balanced(self):
        """Share of the checked texts that were balanced; ValueError before any check."""
        if not self.checked:
            raise ValueError("nothing checked")
        return self.balanced / self.checked
'''


@pytest.mark.slow
def test_a_scenario_raising_an_undocumented_exception_is_dropped_and_recorded():
    model = analyse(BRACKETS, "BalancedBrackets")
    scenarios = [Scenario(steps=(call("check", repr("a(b){c}]")), call("share_balanced"))),
                 Scenario(steps=(call("check", repr("(a)")), call("check", repr("(]")), call("share_balanced"))),
                 Scenario(steps=(call("share_balanced"),))]
    with BuildConfig().sandbox_pool(1) as pool:
        result = synthesize_tests(pool, source=BRACKETS, module="balanced_brackets", model=model,
                                  pools=static_pools(BRACKETS, "BalancedBrackets"), extra=scenarios,
                                  rng=random.Random(3))
    assert result.tests > 0
    assert "IndexError" not in result.test_code and "a(b){c}]" not in result.test_code
    defects = {(d["method"], d["exception"]): d["scenarios"] for d in result.reference_defects}
    assert defects.get(("check", "IndexError"), 0) >= 1
    # a documented exception is a behaviour, and stays a test
    assert "pytest.raises(ValueError)" in result.test_code
    assert all(exc != "ValueError" for _, exc in defects)


def test_model_written_tests_expecting_an_unstated_exception_are_found():
    """The model path writes tests before the reference: one expecting what no docstring states is dropped
    (`model_making._Maker`), whatever the reference later raises there."""
    tests = ("import pytest\n\nfrom balanced_brackets import BalancedBrackets\n\n\n"
             "def test_unmatched_closing():\n    with pytest.raises(IndexError):\n"
             "        BalancedBrackets().check('a(b){c}]')\n\n\n"
             "def test_share_before_any_check():\n    with pytest.raises(ValueError):\n"
             "        BalancedBrackets().share_balanced()\n\n\n"
             "class TestMore:\n    def test_either(self):\n        with pytest.raises((KeyError, ValueError)):\n"
             "            BalancedBrackets().share_balanced()\n")
    found = unstated_expectations(tests, BRACKETS, "BalancedBrackets")
    assert set(found) == {"test_unmatched_closing"} and "IndexError" in found["test_unmatched_closing"]
