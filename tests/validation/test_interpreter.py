"""The sandbox's interpreter is a setting: a configured path is the Python that runs the code, its version is
asked of it (never assumed to be this process's), and the gate rejects code that needs a newer one."""

from __future__ import annotations

import sys

import pytest

from core.analysis.python_need import Supported, python_need
from core.errors import InputError
from core.records import RejectReason
from pipeline.stages.config import BuildConfig
from tests.interpreters import make_venv, python_or_skip, stand_in
from tests.validation.conftest import FAST_POLICY, make_candidate
from validation.gate import validate_candidate
from validation.sandbox import SandboxJob, SandboxPool
from validation.sandbox.interpreter import InterpreterError, own_interpreter, probe

WHICH = '''import sys


def test_the_interpreter():
    assert sys.executable == {expected!r}
    assert tuple(sys.version_info[:3]) == {version!r}
'''


def _run_which(pool: SandboxPool, expected: str, version: tuple[int, int, int]):
    files = {"test_which.py": WHICH.format(expected=expected, version=version)}
    return pool.run(SandboxJob(files=files, test_file="test_which.py", limits=FAST_POLICY.limits()))


def test_a_virtual_environments_python_runs_the_sandboxed_code(tmp_path):
    venv_python = str(make_venv(tmp_path / "venv"))
    with SandboxPool(jobs=1, limits=FAST_POLICY.limits(), python=venv_python) as pool:
        interpreter = pool.interpreter
        assert interpreter.configured and interpreter.executable == venv_python
        assert interpreter.prefix == str(tmp_path / "venv") and interpreter.version == tuple(sys.version_info[:3])
        result = _run_which(pool, venv_python, interpreter.version)
    assert result.status == "completed" and [t.outcome for t in result.tests] == ["passed"], result.tests
    # the control: the project's own interpreter is another executable, so the same test fails there
    with SandboxPool(jobs=1, limits=FAST_POLICY.limits()) as pool:
        assert not pool.interpreter.configured
        control = _run_which(pool, venv_python, interpreter.version)
    assert [t.outcome for t in control.tests] == ["failed"]


def test_the_version_is_the_interpreters_answer_not_this_process(tmp_path):
    """A stand-in interpreter that answers the probe as a 3.13 would: the version used is its answer."""
    interpreter = probe(stand_in(tmp_path / "python3.13", (3, 13, 2)))
    assert interpreter.version == (3, 13, 2) and interpreter.label == "CPython 3.13.2"
    assert interpreter.stdlib_path == ("/opt/py/lib/python3.13",)  # site-packages are not the standard library
    generic = python_need("class Box[T = int]:\n    pass\n")
    assert Supported(sandbox=interpreter.minor, pipeline=(3, 13)).refusals(generic) == ()
    assert Supported(sandbox=own_interpreter().minor, pipeline=(3, 13)).refusals(generic) or sys.version_info >= (3, 13)


def test_a_path_that_is_not_a_python_is_named(tmp_path):
    with pytest.raises(InterpreterError, match="not an executable file"):
        probe(tmp_path / "missing")
    script = tmp_path / "python"
    script.write_text("#!/bin/sh\necho hello\n")
    script.chmod(0o755)
    with pytest.raises(InterpreterError, match="not a Python that answers"):
        probe(script)
    with pytest.raises(InputError, match="sandbox_python"):
        BuildConfig(sandbox_python=tmp_path / "missing").sandbox_pool()


BATCHED = '''import itertools


class Tray:
    """Holds items and hands them out in pairs."""

    def __init__(self):
        self.items = []

    def put(self, item):
        self.items.append(item)
        return len(self.items)

    def pairs(self):
        return [list(p) for p in itertools.batched(self.items, 2)]

    def take_pair(self):
        first = self.pairs()[0]
        del self.items[:len(first)]
        return first
'''

BATCHED_TESTS = '''from tray import Tray


def test_pairs_and_take():
    tray = Tray()
    for item in "abc":
        tray.put(item)
    assert tray.pairs() == [["a", "b"], ["c"]]
    assert tray.take_pair() == ["a", "b"]
    assert tray.pairs() == [["c"]]
'''


def test_the_gate_rejects_code_newer_than_its_interpreter_and_says_which(pool):
    if sys.version_info >= (3, 12):
        pytest.skip("this interpreter has itertools.batched")
    report = validate_candidate(make_candidate(BATCHED, BATCHED_TESTS, "Tray", "tray"), FAST_POLICY, pool)
    assert report.reasons == (RejectReason.UNSUPPORTED_SYNTAX,) and not report.tests  # nothing ran
    assert "itertools.batched needs Python 3.12" in report.evidence["unsupported_syntax"][0]
    assert report.evidence["requires_python"]["requires_python"] == "3.12"
    assert report.interpreter["version"] == ".".join(map(str, sys.version_info[:3]))
    assert report.interpreter["configured"] == "no"


def test_a_configured_newer_interpreter_runs_what_the_own_one_cannot():
    python = python_or_skip((3, 12))
    policy = FAST_POLICY.model_copy(update={"run_mutation": False, "robustness": False})
    with SandboxPool(jobs=1, limits=policy.limits(), python=python) as newer:
        report = validate_candidate(make_candidate(BATCHED, BATCHED_TESTS, "Tray", "tray"), policy, newer)
    assert RejectReason.UNSUPPORTED_SYNTAX not in report.reasons
    assert [t.outcome for t in report.tests if t.run == "base"] == ["passed"]
    assert report.interpreter["version"].startswith("3.12.") and report.interpreter["configured"] == "yes"
