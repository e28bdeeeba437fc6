"""Method deletions: the reference with one public method's body replaced by `pass`, one variant per method.

A task whose tests still pass when a public method does nothing does not test that method: a solver may
leave it out (an `attack` that deals no damage passed all three of a task's tests). The gate runs each
deletion against the tests that ran the method on the reference (a method no test runs is untested
outright), and a deletion no test fails names the method (`validation/gate.py`, check `public_methods_tested`,
reason `untested_method`). Unlike the sampled mutants, every public method gets its deletion: the check
is per method, not a score.

The body's lines are spliced out of the reference's text (positions read with `ast`), so the variant differs
from the reference in that method's body alone, its docstring and every comment elsewhere kept; rewriting
the tree with libcst for each method cost about a second per class, most of the check's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ast

TRIVIAL_BODIES = ("pass", "...", "return", "return None", "raise NotImplementedError",
                  "raise NotImplementedError()")
"""Bodies a deletion would not change: such a method does nothing already."""


@dataclass(frozen=True)
class Deletion:
    """The reference with `method`'s body replaced by `pass`; `lines` are the first and last lines of the
    method's body in the reference, its docstring left out (the `def` line runs when the class is made, under
    no test)."""

    method: str
    source: str
    lines: tuple[int, int]

    @property
    def id(self) -> str:
        return f"delete:{self.method}"


Function = ast.FunctionDef | ast.AsyncFunctionDef


def _statements(function: Function) -> list[ast.stmt]:
    """The body without its docstring."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:]
    return body


def _definitions(source: str, class_name: str) -> dict[str, list[Function]]:
    """Public methods defined directly in the class whose body does something, each with its definitions (a
    property and its setter share a name), in source order."""
    tree = ast.parse(source)
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    found: dict[str, list[Function]] = {}
    for item in node.body if node is not None else ():
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_"):
            statements = _statements(item)
            if statements and " ".join(ast.unparse(s) for s in statements) not in TRIVIAL_BODIES:
                found.setdefault(item.name, []).append(item)
    return found


def public_methods(source: str, class_name: str) -> dict[str, tuple[int, int]]:
    """Public methods (no leading underscore) defined directly in the class whose body does something, with
    the first and last lines of their bodies (`Deletion.lines`; a one-line body shares the `def` line)."""
    return {name: (min(_statements(f)[0].lineno for f in defs), max(f.end_lineno or f.lineno for f in defs))
            for name, defs in _definitions(source, class_name).items()}


def _hollowed(lines: list[str], definitions: list[Function]) -> str:
    """`lines` (the reference's, with their ends) with each definition's body after its docstring replaced by
    `pass`, the last definition first so that earlier line numbers stay valid."""
    out = list(lines)
    for function in sorted(definitions, key=lambda f: f.lineno, reverse=True):
        first, last = _statements(function)[0], function.end_lineno or function.lineno
        # what precedes the body on its first line: its indentation, or the `def ...:` of a one-line body
        # (`col_offset` counts UTF-8 bytes)
        before = out[first.lineno - 1].encode("utf-8")[:first.col_offset].decode("utf-8", "replace")
        out[first.lineno - 1:last] = [before + "pass\n"]
    return "".join(out)


def method_deletions(source: str, class_name: str) -> list[Deletion]:
    """One deletion per public method of the class, in source order."""
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    spans = public_methods(source, class_name)
    return [Deletion(name, _hollowed(lines, defs), spans[name])
            for name, defs in _definitions(source, class_name).items()]
