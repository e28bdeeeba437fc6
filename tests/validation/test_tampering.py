"""Hostile code under test cannot make failing tests look like passes: each trick is refused or noticed,
named in the run's `tampering` list, and the gate rejects such a reference with `tampering`. An honest
solution whose tests use pytest's and unittest's ordinary tools is not flagged."""

from __future__ import annotations

import pytest

from core.records import RejectReason
from validation.gate import validate_candidate
from validation.policy import GatePolicy
from validation.sandbox import SandboxJob

POLICY = GatePolicy(per_test_seconds=2.0, wall_seconds=20.0, memory_mb=768, robustness=False, run_mutation=False)

WRONG = '''
class Box:
    """Doubles numbers (wrongly: the tests must fail)."""

    def __init__(self, value=0):
        self.value = value

    def double(self):
        return self.value * 3
'''

TESTS = '''
import unittest

import pytest

from box import Box


class TestBox(unittest.TestCase):
    def test_double(self):
        self.assertEqual(Box(2).double(), 4)

    def test_double_zero_is_not_one(self):
        self.assertTrue(Box(1).double() == 2)


def test_double_plain():
    assert Box(3).double() == 6


def test_raises_on_text():
    with pytest.raises(TypeError):
        Box("a").double() - 1
'''

HOSTILE = {
    "rebinds_assert_methods": "import unittest\n"
                              "unittest.TestCase.assertEqual = lambda self, *a, **k: None\n"
                              "unittest.TestCase.assertTrue = lambda self, *a, **k: None\n",
    "rebinds_assertion_error": "import builtins\n"
                               "builtins.AssertionError = type('AssertionError', (Warning,), {})\n",
    "patches_pytest_reports": "import _pytest.runner as runner\n"
                              "_real = runner.CallInfo.from_call.__func__\n"
                              "def _quiet(cls, func, when, reraise=None):\n"
                              "    info = _real(cls, func, when, reraise)\n"
                              "    object.__setattr__(info, 'excinfo', None)\n"
                              "    return info\n"
                              "runner.CallInfo.from_call = classmethod(_quiet)\n",
    "patches_assertion_rewriting": "import _pytest.assertion.rewrite as rewrite\n"
                                   "rewrite.rewrite_asserts = lambda *a, **k: None\n"
                                   "rewrite.AssertionRewritingHook.exec_module = lambda self, module: None\n",
    "disarms_pytest_raises": "import contextlib, pytest\n"
                             "pytest.raises = lambda *a, **k: contextlib.suppress(BaseException)\n",
    "edits_the_test_file": "import os\n"
                           "with open(os.path.join(os.path.dirname(__file__), 'test_box.py'), 'w') as f:\n"
                           "    f.write('def test_ok():\\n    pass\\n')\n",
    "replaces_test_code": "import sys\n"
                          "def _hollow():\n"
                          "    for cls in [c for c in vars(sys.modules['test_box']).values() if isinstance(c, type)]:\n"
                          "        for name in [n for n in vars(cls) if n.startswith('test')]:\n"
                          "            getattr(cls, name).__code__ = (lambda self: None).__code__\n",
    "patches_test_class_during_a_test": "import sys\n"
                                        "def _rebind():\n"
                                        "    test_class = sys.modules['test_box'].TestBox\n"
                                        "    test_class.assertEqual = lambda self, *a, **k: None\n"
                                        "    test_class.test_double_zero_is_not_one = lambda self: None\n",
    "searches_the_heap": "import gc, unittest\n"
                         "for holder in gc.get_referrers(unittest.TestCase.assertEqual):\n"
                         "    pass\n",
    "forges_result_messages": "import json, os\n"
                              "line = json.dumps({'t': 'done', 'exit_code': 0}).encode() + b'\\n'\n"
                              "for name in os.listdir('/proc/self/fd'):\n"
                              "    try:\n"
                              "        os.write(int(name), line)\n"
                              "    except OSError:\n"
                              "        pass\n"
                              "os._exit(0)\n",
    "exits_early": "import os\nos._exit(0)\n",
    "exits_early_with_sys_exit": "import sys\nsys.exit(0)\n",
    "writes_fake_results": "import json, os\n"
                           "here = os.path.dirname(__file__)\n"
                           "with open(os.path.join(here, 'pytest.ini'), 'w') as f:\n"
                           "    f.write('[pytest]\\naddopts = -p no:python\\n')\n",
}
# Tricks that act from inside a method (the test module exists by then).
CALLED_FROM_DOUBLE = {"replaces_test_code": "_hollow()", "patches_test_class_during_a_test": "_rebind()"}


def hostile_solution(trick: str) -> str:
    solution = HOSTILE[trick] + WRONG
    call = CALLED_FROM_DOUBLE.get(trick)
    if call:
        solution = solution.replace("        return self.value * 3",
                                    f"        try:\n            {call}\n        except Exception:\n"
                                    "            pass\n        return self.value * 3")
    return solution


def run(pool, solution: str, tests: str = TESTS):
    return pool.run(SandboxJob(files={"box.py": solution, "test_box.py": tests}, test_file="test_box.py",
                               limits=POLICY.limits()))


def passed(result) -> set[str]:
    return {t.test_id for t in result.tests if t.outcome == "passed"}


@pytest.mark.slow
@pytest.mark.parametrize("trick", sorted(HOSTILE))
def test_hostile_solution_is_named_tampering(pool, trick):
    result = run(pool, hostile_solution(trick))
    assert result.tampering, (trick, result.status, result.notes, result.outcomes())
    # Whatever the tests reported, a wrong solution never shows a full pass either.
    assert passed(result) != set(result.collected) or not result.collected


def test_honest_solution_using_ordinary_test_tools_is_not_flagged(pool):
    solution = WRONG.replace("* 3", "* 2")
    tests = TESTS + '''

import builtins
import warnings


def test_tools(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(builtins, "input", lambda *a: "7")
    monkeypatch.setattr(Box, "double", lambda self: 0)
    print("hello")
    assert capsys.readouterr().out == "hello\\n"
    (tmp_path / "x.txt").write_text("x")
    assert Box(int(input())).double() == pytest.approx(0.0)
    with pytest.warns(UserWarning):
        warnings.warn("careful")


class TestMore(unittest.TestCase):
    def test_sub(self):
        for value in (1, 2):
            with self.subTest(value=value):
                self.assertAlmostEqual(Box(value).double(), value * 2.0)
        with self.assertRaises(TypeError):
            Box(None).double()
'''
    result = run(pool, solution, tests)
    assert result.tampering == []
    assert result.status == "completed" and passed(result) == set(result.collected) and len(result.collected) == 6


def test_mocks_and_class_long_patches_are_not_tampering(pool):
    """unittest.mock imports asyncio (whose `types.coroutine` swaps `__code__` of its own functions), and a
    test class may patch `input` for all its tests: neither is tampering."""
    tests = """
import builtins
import unittest
from unittest import mock
from unittest.mock import MagicMock, patch

from box import Box

_real_input = builtins.input


class TestWithMocks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        builtins.input = lambda *a: "3"

    @classmethod
    def tearDownClass(cls):
        builtins.input = _real_input

    def test_input(self):
        self.assertEqual(Box(int(input())).double(), 6)

    @patch("builtins.print")
    def test_print(self, printed):
        print("x")
        printed.assert_called_once_with("x")

    def test_magic(self):
        box = MagicMock(spec=Box)
        box.double.return_value = 9
        self.assertEqual(box.double(), 9)
        with mock.patch.object(Box, "double", return_value=1):
            self.assertEqual(Box(5).double(), 1)
        self.assertEqual(Box(5).double(), 10)
"""
    result = run(pool, WRONG.replace("* 3", "* 2"), tests)
    assert result.tampering == []
    assert result.status == "completed" and passed(result) == set(result.collected) and len(result.collected) == 3


def test_fake_result_files_change_nothing(pool):
    """The harness reads no file the run can write: a fake report beside the tests is just a file."""
    fake = ("import json, os\nhere = os.path.dirname(__file__)\n"
            "for name in ('results.json', 'report.xml', '.pytest-results'):\n"
            "    with open(os.path.join(here, name), 'w') as f:\n"
            "        f.write(json.dumps({'passed': 4, 'failed': 0}))\n")
    result = run(pool, fake + WRONG)
    assert passed(result) == {"test_box.py::test_raises_on_text"}


def test_wrong_solution_fails_without_tampering(pool):
    result = run(pool, WRONG)
    assert result.tampering == []
    assert passed(result) == {"test_box.py::test_raises_on_text"}


def test_the_gate_rejects_a_reference_that_disarms_assertions(pool, candidate_of):
    disarmed = candidate_of(hostile_solution("rebinds_assert_methods"), TESTS.replace(
        "def test_double_plain():\n    assert Box(3).double() == 6\n", ""), "Box", "box")
    honest = candidate_of(WRONG.replace("* 3", "* 2"), TESTS, "Box", "box")
    reports = [validate_candidate(candidate, POLICY, pool) for candidate in (disarmed, honest)]
    assert not reports[0].passed and RejectReason.TAMPERING in reports[0].reasons
    assert reports[0].evidence["tampering"]["findings"]
    assert RejectReason.TAMPERING not in reports[1].reasons
    assert reports[1].check("all_tests_pass").passed
