"""Tests that expect only the exceptions the skeleton states, whatever the class's origin.

A class documented from one oracle run (`pipeline/mining/derived_docs.py`, `docstrings: derived`) names the
exceptions that run observed; a class its author documented names those the author thought of. The test
synthesis, and the repair that adds tests for missed lines, run scenarios with values read from the source
alone, and many raise what no docstring states (a `TypeError` from a value of the wrong type); a test
expecting it is one a correct implementation of the skeleton may fail, and the consistency judge rejects
the task for it (it rejected 34 of 57 mined candidates that reached it in a corpus build, mostly for this).
Such runs are not made into tests, for every origin (`testgen.synthesize_tests`): an imported benchmark
task's reference popping an empty stack (an `IndexError` where its docstring says "False otherwise") is a
defect of that reference, and a test expecting it would lock the defect in. The run is recorded as such.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from core.analysis.statements import exception_named
from judges.offline.consistency import CheckKind, unstated_checks

DERIVED = "derived"
"""The generator parameter `docstrings` of a candidate whose missing docstrings were derived offline."""


def documented_raises(source: str, class_name: str) -> Callable[[Any], bool]:
    """A predicate on scenario runs (`ScenarioRun`): true when every exception the run raised is named by the
    docstring of the method that raised it, or by the class docstring (`core.analysis.statements.exception_named`,
    the rule that says what a docstring documents)."""
    class_doc, docs = _docs(source, class_name)

    def shows(run: Any) -> bool:  # a ScenarioRun
        return _first_unstated(run, class_doc, docs) is None

    return shows


def _docs(source: str, class_name: str) -> tuple[str, dict[str, str]]:
    """The class docstring, and per method its docstring followed by the class's."""
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    class_doc = ast.get_docstring(node) or ""
    return class_doc, {f.name: (ast.get_docstring(f) or "") + "\n" + class_doc for f in node.body
                       if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _first_unstated(run: Any, class_doc: str, docs: dict[str, str]) -> tuple[str, str] | None:
    for step, outcome in zip(run.scenario.steps, run.steps):
        if outcome.get("kind") == "raise" and not exception_named(outcome["exc"], docs.get(step.method, class_doc)):
            return step.method, outcome["exc"]
    return None


def unstated_raise(run: Any, source: str, class_name: str) -> tuple[str, str]:
    """(method, exception) of the first step of `run` that raised what no docstring states."""
    class_doc, docs = _docs(source, class_name)
    return _first_unstated(run, class_doc, docs) or ("", "")


def unstated_expectations(test_code: str, source: str, class_name: str) -> dict[str, str]:
    """Test functions (top-level or in classes) that expect an exception no docstring states: name -> why.
    The consistency judge's rule (`judges.offline.consistency.unstated_checks`, its `unstated_exception`
    checks), so that the model path drops exactly the tests the judge would reject for it. Written before
    the reference, such a test checks what the skeleton leaves open; run against it, it locks in what the
    reference happens to raise. `SyntaxError`/`LookupError` when the tests or the source cannot be read."""
    found: dict[str, str] = {}
    for check in unstated_checks(test_code, source, class_name):
        if check.kind is CheckKind.UNSTATED_EXCEPTION and check.test is not None:
            found.setdefault(check.test, check.what)
    return found
