"""Tests that expect only the exceptions the skeleton states, for mined classes.

A class documented from one oracle run (`pipeline/mining/derived_docs.py`, `docstrings: derived`) names the
exceptions that run observed; a class its author documented names those the author thought of. The test
synthesis, and the repair that adds tests for missed lines, run scenarios with values read from the source
alone, and many raise what no docstring states (a `TypeError` from a value of the wrong type); a test
expecting it is one a correct implementation of the skeleton may fail, and the consistency judge rejects
the task for it (it rejected 34 of 57 mined candidates that reached it in a corpus build, mostly for this).
For mined classes such runs are not made into tests. Seeds and their variants have hand-written tests and
docstrings written with them, and are left as they are.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from core.analysis.statements import exception_named

DERIVED = "derived"
"""The generator parameter `docstrings` of a candidate whose missing docstrings were derived offline."""


def documented_raises(source: str, class_name: str) -> Callable[[Any], bool]:
    """A predicate on scenario runs (`ScenarioRun`): true when every exception the run raised is named by the
    docstring of the method that raised it, or by the class docstring (`core.analysis.statements.exception_named`,
    the rule that says what a docstring documents)."""
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    class_doc = ast.get_docstring(node) or ""
    docs = {f.name: (ast.get_docstring(f) or "") + "\n" + class_doc for f in node.body
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def shows(run: Any) -> bool:  # a ScenarioRun
        for step, outcome in zip(run.scenario.steps, run.steps):
            if outcome.get("kind") == "raise" and not exception_named(outcome["exc"], docs.get(step.method, class_doc)):
                return False
        return True

    return shows
