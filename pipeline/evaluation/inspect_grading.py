"""Grading a completion in the sandbox Inspect was given (`inspect eval ... --sandbox docker`), and the
Inspect run's exit code.

When the user gives Inspect a sandbox, that is where untrusted code must run: the completion and the tests
are written into it and pytest runs there (`python3 -m pytest --junitxml`; the interpreter is the task's
`sandbox_python` parameter, and pytest must be installed in it). Its JUnit XML report becomes the same
`RunResult` the project's sandbox returns (one outcome per pytest node id, collection errors apart), so
`scoring.grade_run` scores it with the same taxonomy. Without an Inspect sandbox the project's own is used.

Inspect's `inspect eval` ends with exit code 0 whatever became of its samples (its `eval-set` exits 1 for an
incomplete run). A script that runs this task must see a run that completed no sample as a failure, so a
hook notes such runs and, in the `inspect` command only, the process ends with 1 once everything else ran.
"""

from __future__ import annotations

import atexit
import os
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from inspect_ai.hooks import Hooks, RunEnd, hooks
from inspect_ai.util import SandboxEnvironment

from pipeline.evaluation.scoring import Score, grade_run
from pipeline.evaluation.tasks import EvalTask
from validation.sandbox import Limits, RunResult, TestResult

REPORT = "classeval-pro-junit.xml"
WORK_DIR = "classeval_pro_run"
TASK_PREFIX = "classeval_pro"


def _node_id(test_file: str, classname: str, name: str) -> str:
    """pytest's node id from a JUnit test case: `classname` is the dotted module, then the class if any."""
    module = test_file.removesuffix(".py")
    inner = classname[len(module) + 1:] if classname.startswith(module + ".") else ""
    return "::".join([test_file, *([inner] if inner else []), name])


def _reason(element: ElementTree.Element) -> str:
    """The exception line of a failure or error: pytest's `E   Type: message` line, else its message."""
    lines = [line[1:].strip() for line in (element.text or "").splitlines() if line.startswith("E ")]
    return (lines[-1] if lines else element.get("message") or element.tag)[:500]


def junit_run(xml_text: str, test_file: str) -> RunResult:
    """A pytest JUnit XML report as the project sandbox's `RunResult` (status `completed`)."""
    root = ElementTree.fromstring(xml_text)
    tests: list[TestResult] = []
    errors: list[TestResult] = []
    for case in root.iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "")
        problem = next((child for child in case if child.tag in ("failure", "error", "skipped")), None)
        if not classname:  # a module pytest could not collect: reported as a test case named after it
            errors.append(TestResult(test_id=test_file, outcome="error", reason=_reason(problem) if problem is not None else name))
            continue
        outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}.get(problem.tag, "passed") \
            if problem is not None else "passed"
        tests.append(TestResult(test_id=_node_id(test_file, classname, name), outcome=outcome,
                                reason=_reason(problem) if problem is not None else ""))
    return RunResult(status="completed", collected=[t.test_id for t in tests], tests=tests, collection_errors=errors)


async def grade_in_inspect_sandbox(task: EvalTask, completion: str, environment: SandboxEnvironment,
                                   limits: Limits, python: str) -> Score:
    """Run the task's tests against `completion` in Inspect's sandbox `environment` and score the report."""
    files = {task.test_file: task.test, f"{task.module_name}.py": completion, "pytest.ini": "[pytest]\n"}
    for name, text in files.items():
        await environment.write_file(f"{WORK_DIR}/{name}", text)
    try:
        done = await environment.exec([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={REPORT}",
                                       task.test_file], cwd=WORK_DIR, timeout=int(limits.wall_seconds))
    except TimeoutError:
        return grade_run(task, RunResult(status="timeout", notes=[f"the tests ran past {limits.wall_seconds:g} s"]))
    try:
        report = await environment.read_file(f"{WORK_DIR}/{REPORT}")
    except FileNotFoundError:
        said = (done.stderr or done.stdout).strip()[-300:]
        return grade_run(task, RunResult(status="error", notes=[f"{python} -m pytest wrote no report in Inspect's "
                                                               f"sandbox (is pytest installed there?): {said}"]))
    return grade_run(task, junit_run(report, task.test_file))


_INCOMPLETE: list[str] = []


@hooks(name="classeval_pro_incomplete_runs", description="Notes classeval_pro runs that completed no sample.")
class IncompleteRuns(Hooks):
    """Notes every run of this task that completed no sample (see `end_incomplete_run`)."""

    async def on_run_end(self, data: RunEnd) -> None:
        # The run's end, not each task's: a task interrupted by an error never reaches its own end event.
        for log in data.logs:
            if not log.eval.task.startswith(TASK_PREFIX):
                continue
            completed = log.results.completed_samples if log.results is not None else 0
            if log.status != "success" or completed == 0:
                why = log.error.message.strip().splitlines()[-1][:200] if log.error and log.error.message else ""
                _INCOMPLETE.append(f"{log.eval.task}: {log.status}, {completed} sample(s) completed"
                                   + (f" ({why})" if why else ""))


@atexit.register  # registered when Inspect imports the task, before Inspect's own: so it runs after them
def end_incomplete_run() -> None:
    """In the `inspect` command: exit 1 when a run of this task completed no sample (a library user, or a
    test calling `inspect_ai.eval`, reads the log's status instead)."""
    if _INCOMPLETE and Path(sys.argv[0]).name == "inspect":
        print("classeval_pro: " + "; ".join(_INCOMPLETE) + " (exit code 1)", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(1)
