"""The failure taxonomy tells a wrong answer from a failure no implementation could avoid in the sandbox:
a missing module, a suite written for another clock, host name or user, and a test too slow for its limit;
and a sandbox given another interpreter imports what that interpreter has installed."""

from __future__ import annotations

import socket
import sys
import textwrap
from datetime import date

import pytest
from eval_fixtures import FAST

from pipeline.evaluation.scoring import score_completion
from pipeline.evaluation.tasks import EvalTask
from validation.sandbox import Limits, SandboxPool

SOLUTION = textwrap.dedent('''
    import datetime
    import os
    import socket


    class Probe:
        def today(self):
            return datetime.date.today()

        def host(self):
            return socket.gethostname()

        def write(self, path, text):
            try:
                with open(path, "w") as handle:
                    handle.write(text)
            except PermissionError:
                return -1
            return 1

        def total(self, values):
            return sum(values)
''').lstrip()


def _task(tests: str, solution: str = SOLUTION, task_id: str = "probe") -> EvalTask:
    return EvalTask(task_id=task_id, class_name="Probe", module_name="probe", skeleton=solution, solution=solution,
                    test="from probe import Probe\n\n\n" + textwrap.dedent(tests).lstrip(),
                    method_tests={}, source="fixture")


def _needs_bubblewrap(pool: SandboxPool) -> None:
    if not pool.protections["hostname_varied"]:
        pytest.skip("the host name and user can be varied only under bubblewrap")


def test_clock_host_and_privilege_failures_are_environment_and_a_wrong_sum_is_logic(pool):
    _needs_bubblewrap(pool)
    year = date.today().year
    task = _task(f'''
        import os


        def test_upcoming_event_of_the_year_the_suite_was_written():
            assert Probe().today() < __import__("datetime").date({year - 1}, 1, 1)


        def test_runs_on_the_authors_machine():
            assert Probe().host() == {socket.gethostname()!r}


        def test_a_read_only_file_refuses_a_write(tmp_path):
            path = tmp_path / "locked.json"
            path.write_text("{{}}")
            os.chmod(path, 0o444)
            assert Probe().write(str(path), "x") == -1


        def test_total():
            assert Probe().total([1, 2]) == 3
    ''')
    score = score_completion(task, task.solution, pool, FAST.limits())
    assert not score.passed and score.failure is not None and score.failure.value == "environment"
    causes = {test_id.split("::")[-1]: cause for test_id, cause in score.environment.items()}
    assert causes == {"test_upcoming_event_of_the_year_the_suite_was_written": "clock",
                      "test_runs_on_the_authors_machine": "hostname",
                      "test_a_read_only_file_refuses_a_write": "privileges"}
    assert set(score.test_failures.values()) == {"environment"}

    wrong = task.solution.replace("return sum(values)", "return sum(values) + 1")
    score = score_completion(task, wrong, pool, FAST.limits())
    assert score.failure.value == "logic"  # the one failure that is the code's own comes first
    assert score.test_failures[next(t for t in score.test_failures if t.endswith("test_total"))] == "logic"


def test_without_the_check_an_environment_failure_is_counted_as_logic(pool):
    _needs_bubblewrap(pool)
    task = _task(f'''
        def test_runs_on_the_authors_machine():
            assert Probe().host() == {socket.gethostname()!r}
    ''')
    assert score_completion(task, task.solution, pool, FAST.limits()).failure.value == "environment"
    unchecked = score_completion(task, task.solution, pool, FAST.limits(), environment_check=False)
    assert unchecked.failure.value == "logic" and unchecked.environment == {}


def test_a_missing_module_is_environment_and_a_broken_own_import_is_not(pool):
    solution = "import numpy\n\n\n" + SOLUTION
    task = _task("def test_total():\n    assert Probe().total([1]) == 1\n", solution=solution)
    score = score_completion(task, task.solution, pool, FAST.limits())
    assert score.failure.value == "environment" and "missing module numpy" in score.failure_detail
    broken = _task("from probe import Nothing\n\n\ndef test_total():\n    assert Nothing\n")
    assert score_completion(broken, broken.solution, pool, FAST.limits()).failure.value == "import"


def test_a_test_slower_than_its_limit_is_a_timeout(pool):
    task = _task('''
        import time


        def test_slow():
            time.sleep(30)


        def test_total():
            assert Probe().total([1]) == 1
    ''')
    score = score_completion(task, task.solution, pool, FAST.limits())
    assert score.failure.value == "timeout", score.failure_detail
    assert score.tests[next(t for t in score.tests if t.endswith("test_total"))] == "passed"  # the session went on


def test_the_sandbox_imports_what_its_interpreter_has_installed():
    """`eval --sandbox-python`: a venv's numpy can be imported (and may use ctypes, as numpy does), while the
    completion's own use of ctypes is still tampering."""
    pytest.importorskip("numpy")
    solution = "import numpy\n\n\nclass Probe:\n    def total(self, values):\n        return int(numpy.sum(values))\n"
    task = _task("def test_total():\n    assert Probe().total([1, 2]) == 3\n", solution=solution)
    limits = Limits(wall_seconds=60.0, per_test_seconds=20.0)
    with SandboxPool(jobs=1, limits=limits, python=sys.executable, packages=True) as with_packages:
        assert with_packages.protections["third_party_imports_blocked"] is False
        score = score_completion(task, task.solution, with_packages, limits)
        assert score.passed, (score.failure, score.failure_detail, score.tampering)
        sneaky = "import ctypes\nctypes.CDLL(None)\n\n\n" + solution
        score = score_completion(task, sneaky, with_packages, limits)
        assert score.failure.value == "tampering" and "ctypes" in score.failure_detail
    with SandboxPool(jobs=1, limits=limits, python=sys.executable) as standard_library_only:
        assert standard_library_only.protections["third_party_imports_blocked"] is True
        assert score_completion(task, task.solution, standard_library_only, limits).failure.value == "environment"
