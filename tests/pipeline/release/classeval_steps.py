"""ClassEval's evaluation steps, written for this project from their documented behaviour (not copied), to
run an export the way ClassEval's own harness runs a model's answers, in the project's sandbox.

The steps, for one answer to one task:

1. **Cut the code out of the answer.** Trailing whitespace goes. Then the first of these patterns that
   matches (dot matching newlines, non-greedy) gives the code: a ```` ```python ```` fence, a `ruby` fence,
   an `scss` fence, an unclosed `python` fence (which gives nothing), a bare fence, `[PYTHON]...[/PYTHON]`.
   Without any: the lines above the first line starting (after its indentation) with `class` that do not
   start with `import` or `from` are collected, and every line of the answer equal to one of them is
   dropped. (Answers after a `### Response:`-style marker and re-indented classes are handled too.)
2. **Static methods.** Every line holding `@staticmethod` is dropped; one is put back above every line of
   exactly four spaces' indentation starting `def ` that holds neither `self` nor `cls`.
3. **The module.** The task's `import_statement` lines, a newline, the code; then a newline and the task's
   `test`; written as `<task_id>_0.py`.
4. **The tests.** The module is imported with `importlib`; for each name in `test_classes` the class is
   taken with `getattr` and run with `unittest.TestLoader().loadTestsFromTestCase` and a text runner,
   5 s per class. A class succeeds when it ran tests and none failed or erred; anything raised counts as
   no test run. A task passes when every class succeeds.

Step 4 runs inside the sandbox (`validation.sandbox`): the module and a small pytest file doing step 4, one
pytest test per test class. As a script: `python tests/pipeline/release/classeval_steps.py EXPORT.json`
prints how many tasks pass with the reference as a plain answer and inside a fence.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path

if __name__ == "__main__":  # as a script from anywhere: the checkout's packages first
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from validation.sandbox import SandboxJob, SandboxPool  # noqa: E402

PATTERNS = (r"```python(.*?)```", r"```ruby(.*?)```", r"```scss(.*?)```", r"```python(.*?)", r"```(.*?)```",
            r"\[PYTHON\](.*?)\[/PYTHON\]")
RESPONSE_MARKERS = ("### Response:", "@@ Response:", "[/INST]")
CLASS_SECONDS = 5.0
RUNNER_FILE = "test_classeval_run.py"

RUNNER = '''import importlib
import io
import os
import sys
import time
import unittest

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
MODULE = {module!r}
LIMIT = {limit!r}
RUNS = {runs!r}  # test class -> how many tests it must run (not the harness's own check: a test's)


@pytest.mark.parametrize("name", {classes!r})
def test_class(name):
    started = time.monotonic()
    module = importlib.import_module(MODULE)
    suite = unittest.TestLoader().loadTestsFromTestCase(getattr(module, name))
    stream = io.StringIO()
    result = unittest.TextTestRunner(stream=stream).run(suite)
    assert result.testsRun > 0, "no test ran"
    assert not result.errors and not result.failures, stream.getvalue()[-2000:]
    assert RUNS.get(name, result.testsRun) == result.testsRun, f"{{result.testsRun}} tests ran, not {{RUNS[name]}}"
    assert time.monotonic() - started <= LIMIT, "over the harness's time limit"
'''


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def cut_code(answer: str) -> str:
    """Step 1: the code the harness takes out of an answer."""
    text = answer.rstrip()
    for marker in RESPONSE_MARKERS:
        if marker in text:
            text = text.split(marker)[1]
            break
    for pattern in PATTERNS:
        found = re.findall(pattern, text, re.S)
        if found:
            return found[0]
    lines = text.split("\n")
    dropped: set[str] = set()
    for line in lines:
        if line.strip().startswith("class"):
            break
        if not line.strip().startswith(("import", "from")):
            dropped.add(line)
    kept = [line for line in lines if line not in dropped]
    class_line = next((line for line in kept if line.strip().startswith("class")), None)
    if class_line is not None and _indent(class_line) != 0:
        shift = _indent(class_line)
        kept = [" " * (_indent(line) - shift) + line.lstrip() for line in kept]
    return "\n".join(kept)


def mark_static(code: str) -> str:
    """Step 2: `@staticmethod` lines dropped, then put above every four-space `def` without self or cls."""
    out: list[str] = []
    for line in (line for line in code.split("\n") if "@staticmethod" not in line):
        if line.strip().startswith("def ") and "self" not in line and "cls" not in line and _indent(line) == 4:
            out.append("    @staticmethod")
        out.append(line)
    return "\n".join(out)


def harness_module(task: dict, answer: str) -> str:
    """Steps 1-3: the module the harness writes for `answer` to `task` (an entry of `classeval.json`)."""
    code = mark_static(cut_code(answer))
    return "\n".join(task["import_statement"]) + "\n" + code + "\n" + task["test"]


def fenced(code: str) -> str:
    return f"```python\n{code}\n```"


def run_task(pool: SandboxPool, task: dict, answer: str, runs: dict[str, int] | None = None) -> dict[str, str]:
    """Step 4 in the sandbox: test class -> "success" or what went wrong. `runs`, when given, is how many
    tests a class must run (the harness itself only asks for more than none)."""
    module = f"{task['task_id']}_0"
    runner = RUNNER.format(module=module, limit=CLASS_SECONDS, classes=list(task["test_classes"]), runs=runs or {})
    run = pool.run(SandboxJob(files={f"{module}.py": harness_module(task, answer), RUNNER_FILE: runner},
                              test_file=RUNNER_FILE))
    outcomes = {t.test_id: t for t in run.tests}
    verdicts: dict[str, str] = {}
    for name in task["test_classes"]:
        test = next((t for test_id, t in outcomes.items() if test_id.endswith(f"[{name}]")), None)
        if test is None:
            verdicts[name] = f"not run ({run.status}): {run.output[-300:]}"
        else:
            verdicts[name] = "success" if test.outcome == "passed" else f"{test.outcome}: {test.reason[-300:]}"
    return verdicts


def failing(pool: SandboxPool, tasks: Sequence[dict], *, fence: bool) -> dict[str, dict[str, str]]:
    """The tasks whose reference, given as the answer (plain or fenced), does not pass every test class."""
    out = {}
    for task in tasks:
        answer = fenced(task["solution_code"]) if fence else task["solution_code"]
        verdicts = run_task(pool, task, answer)
        if not task["test_classes"] or any(v != "success" for v in verdicts.values()):
            out[task["task_id"]] = {k: v for k, v in verdicts.items() if v != "success"} or {"": "no test class"}
    return out


def main(export: Path) -> int:
    tasks = json.loads(export.read_text(encoding="utf-8"))
    with SandboxPool(jobs=1) as pool:
        for fence in (False, True):
            bad = failing(pool, tasks, fence=fence)
            print(f"{'fenced' if fence else 'plain'}: {len(tasks) - len(bad)} of {len(tasks)} tasks pass")
            for task_id, why in list(bad.items())[:10]:
                print(f"  {task_id}: {json.dumps(why)[:400]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1])))
