"""A repository's tests, kept only where they check what the task's skeleton states.

A repository's suite was written against the code, not against a skeleton: it reads the fields a tree node's
constructor sets (`tree.root.height == 0`), expects exceptions and messages the docstrings never name,
compares an unordered result with a list. The skeleton removes the bodies that would have told a solver
any of it, so such a test fails a correct implementation. Each test the consistency judge's rule
(`judges.offline.consistency.unstated_checks`) names is dropped before the gate sees the suite; the rest of
the author's suite is kept whole. A problem outside any test (a fixture, module code) drops nothing: the
judge still sees it and rejects the candidate.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from judges.offline.consistency import unstated_checks


@dataclass(frozen=True)
class StatedTests:
    """The tests kept (None when none is left) and, per dropped test, the judge's first problem with it."""

    test_code: str | None
    dropped: dict[str, str]


def keep_stated_tests(test_code: str, skeleton: str, class_name: str, solution: str) -> StatedTests:
    """`test_code` without the test functions (top level or methods of test classes) whose checks the
    skeleton does not state; the module unchanged when the judge's rule finds nothing to drop or cannot
    read it."""
    try:
        problems = unstated_checks(test_code, skeleton, class_name, solution)
    except (SyntaxError, LookupError, ValueError):
        return StatedTests(test_code, {})
    owners: dict[tuple[str, int], str] = {}
    for check in problems:
        if check.test is not None:  # module code (a fixture, a helper) drops nothing: the judge still sees it
            owners.setdefault((check.test, check.line), check.what)
    if not owners:
        return StatedTests(test_code, {})
    tree = ast.parse(test_code)
    drop: list[tuple[int, int]] = []
    dropped: dict[str, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for (name, line), what in owners.items():
            if node.name == name and node.lineno <= line <= (node.end_lineno or node.lineno):
                start = min([d.lineno for d in node.decorator_list] + [node.lineno])
                drop.append((start, node.end_lineno or node.lineno))
                dropped.setdefault(name, what)
    lines = test_code.splitlines()
    gone = {n for start, end in drop for n in range(start, end + 1)}
    kept = "\n".join(text for number, text in enumerate(lines, 1) if number not in gone) + "\n"
    try:
        left = ast.parse(kept)
    except SyntaxError:  # a test class left with no statement: the suite cannot be kept in part
        return StatedTests(None, dropped)
    has_test = any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")
                   for n in ast.walk(left))
    return StatedTests(kept if has_test else None, dropped)
