"""The steps of ClassEval's evaluation harness, written for this project from its documented behaviour, to
run an export the way ClassEval runs it. Run as a script in its own process (the code it imports is
untrusted): `python classeval_harness.py EXPORT.json reference|skeleton WORKDIR` prints, per task and test
class, `{"errors", "failures", "testsRun"}` as JSON.

The steps: the code is `solution_code` for the reference, or the task's `import_statement` lines then the
skeleton for a "completion" that implements nothing; the module is that code, a newline, and `test`,
written as `<task_id>_0.py` and imported with `importlib`; each name in `test_classes` is taken from the
module with `getattr` and run with `unittest.TestLoader().loadTestsFromTestCase` and a `TextTestRunner`.
Anything that goes wrong for a class (a name that is not a class, an import that fails) counts that class
as no test run, as the harness does.
"""

from __future__ import annotations

import importlib
import io
import json
import sys
import unittest
from pathlib import Path


def run(export: Path, mode: str, workdir: Path) -> dict:
    tasks = json.loads(export.read_text(encoding="utf-8"))
    sys.path.insert(0, str(workdir))
    results: dict[str, dict] = {}
    for task in tasks:
        if mode == "reference":
            code = task["solution_code"]
        else:
            code = "\n".join(task["import_statement"]) + "\n" + task["skeleton"]
        name = f"{task['task_id']}_0"
        (workdir / f"{name}.py").write_text(code + "\n" + task["test"], encoding="utf-8")
        results[task["task_id"]] = per_class = {}
        for test_class in task["test_classes"]:
            try:
                module = importlib.import_module(name)
                suite = unittest.TestLoader().loadTestsFromTestCase(getattr(module, test_class))
                outcome = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
                per_class[test_class] = {"errors": len(outcome.errors), "failures": len(outcome.failures),
                                         "testsRun": outcome.testsRun}
            except Exception as exc:  # the harness's bare except: the class ran nothing
                per_class[test_class] = {"errors": 0, "failures": 0, "testsRun": 0,
                                         "exception": f"{type(exc).__name__}: {exc}"}
    return results


def verdict(per_class: dict) -> str:
    """ClassEval's answer for one test class: success, partial_success, fail or error."""
    if per_class["testsRun"] == 0 or per_class["errors"] == per_class["testsRun"]:
        return "error"
    if per_class["errors"] + per_class["failures"] == 0:
        return "success"
    if per_class["errors"] + per_class["failures"] < per_class["testsRun"]:
        return "partial_success"
    return "fail"


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]))))
