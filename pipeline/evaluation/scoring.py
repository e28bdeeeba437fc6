"""Scoring one completion: its module and the task's tests run in the sandbox, never in this process.

Class-level: the completion passes when every collected test passes, at least one test ran, and the run
showed no tampering. Method-level: a method passes when every test aimed at it (its `method_tests`, matched
against the pytest node ids) passed; methods with no aimed test are not scored. A run that tampered
passes nothing, whatever its tests reported.
"""

from __future__ import annotations

import ast
from functools import lru_cache

from pydantic import Field

from core.analysis.class_facts import class_facts
from core.records import Record
from pipeline.evaluation.environment import RECOVERABLE, environment_causes
from pipeline.evaluation.tasks import EvalTask
from pipeline.evaluation.taxonomy import ClassShape, FailureClass, run_failure, static_failure, test_classes
from validation.sandbox import Limits, RunResult, SandboxJob, SandboxPool


class Score(Record):
    """The graded outcome of one completion."""

    passed: bool = Field(description="Class level: every test passed, at least one ran, no tampering.")
    methods: dict[str, bool] = Field(default_factory=dict, description="Method -> all its aimed tests passed.")
    tests: dict[str, str] = Field(default_factory=dict, description="pytest node id -> outcome.")
    failure: FailureClass | None = Field(default=None, description="The completion's failure class; None if it passed.")
    failure_detail: str = Field(default="", description="One line of evidence for the failure class.")
    test_failures: dict[str, str] = Field(default_factory=dict, description="Failure class of each failing test.")
    environment: dict[str, str] = Field(default_factory=dict, description="Failing test -> the environment "
                                        "difference it failed by (clock, privileges, hostname, network).")
    tampering: tuple[str, ...] = Field(default=(), description="What the run did to the grading machinery.")
    run_status: str = Field(default="not_run", description="How the sandbox run ended (see RunResult.status).")


@lru_cache(maxsize=256)
def _facts(solution: str, class_name: str) -> tuple[frozenset[str], frozenset[str]]:
    """(method names, instance fields) of the reference, from the gate's static analysis."""
    try:
        facts = class_facts(solution, class_name)
    except Exception:  # noqa: BLE001 - a reference the analysis cannot read: classify without its facts
        return frozenset(), frozenset()
    return frozenset(facts.method_names), frozenset(facts.fields)


def expected_methods(task: EvalTask) -> tuple[str, ...]:
    """Methods the completion must define: those of the skeleton's class."""
    for node in ast.parse(task.skeleton).body:
        if isinstance(node, ast.ClassDef) and node.name == task.class_name:
            return tuple(n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return ()


def method_results(task: EvalTask, outcomes: dict[str, str], *, valid: bool) -> dict[str, bool]:
    """Method -> passed, for methods with aimed tests that were collected."""
    results: dict[str, bool] = {}
    for method, names in task.method_tests.items():
        ids = [t for t in outcomes if len(t.split("::")) > 1 and t.split("::")[1] in names]
        if ids:
            results[method] = valid and all(outcomes[t] == "passed" for t in ids)
    return results


def grade_run(task: EvalTask, run: RunResult, environment: dict[str, str] | None = None) -> Score:
    """Turn a sandbox run of a completion into its Score (`environment`: see `environment_causes`)."""
    methods, fields = _facts(task.solution, task.class_name)
    shape = ClassShape(task.class_name, f"{task.module_name}.py", methods, fields)
    outcomes = {t: "not run" for t in run.collected} | {t.test_id: t.outcome for t in run.tests}
    outcomes |= {e.test_id: "error" for e in run.collection_errors}
    failure = run_failure(run, shape, environment)
    valid = not run.tampering and run.status == "completed"
    passed = failure is None and valid and bool(run.collected)
    return Score(passed=passed, methods=method_results(task, outcomes, valid=valid), tests=outcomes,
                 failure=None if passed else (failure[0] if failure else FailureClass.RESOURCE),
                 failure_detail="" if passed else (failure[1][:300] if failure else "the run did not complete"),
                 test_failures=test_classes(run, shape, environment), environment=dict(environment or {}),
                 tampering=tuple(run.tampering), run_status=run.status)


def score_completion(task: EvalTask, completion: str, pool: SandboxPool, limits: Limits | None = None, *,
                     environment_check: bool = True) -> Score:
    """Grade `completion` (a module defining the class) against the task's tests in the sandbox. A completion
    that does not parse is not run; one lacking a method still runs, so its other methods can score.
    `environment_check`: failing tests run again where the environment differs (environment.py), so that a
    clock, host or privilege difference is not counted as the completion's logic error."""
    static = static_failure(completion, task.class_name, expected_methods(task), task.solution)
    if static is not None and static[0] == FailureClass.SYNTAX:
        return Score(passed=False, failure=FailureClass.SYNTAX, failure_detail=static[1])
    files = {f"{task.module_name}.py": completion, task.test_file: task.test}
    run = pool.run(SandboxJob(files=files, test_file=task.test_file, limits=limits or Limits()))
    score = grade_run(task, run)
    if environment_check and score.failure in RECOVERABLE and not score.tampering:
        causes = environment_causes(score.test_failures, files, task.test_file, pool, limits or Limits())
        if causes:
            score = grade_run(task, run, causes)
    if static is not None and not score.passed and score.failure not in (FailureClass.TAMPERING,):
        return score.model_copy(update={"failure": static[0], "failure_detail": static[1]})
    return score
