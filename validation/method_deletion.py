"""Method deletions: the reference with one public method's body replaced by `pass`, one variant per method.

A task whose tests still pass when a public method does nothing does not test that method: a solver may
leave it out (an `attack` that deals no damage passed all three of a task's tests). The gate runs each
deletion against the tests that ran the method on the reference (a method no test runs is untested
outright), and a deletion no test fails names the method (`validation/gate.py`, check `public_methods_tested`,
reason `untested_method`). Unlike the sampled mutants, every public method gets its deletion: the check
is per method, not a score.

Written with libcst, as the mutants are, so that the variant differs from the reference in that method's
body alone (its docstring kept, so line numbers of the other methods move only by the body's length).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import libcst as cst

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


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def _body_text(function: cst.FunctionDef) -> str:
    body = function.body
    if isinstance(body, cst.IndentedBlock):
        statements: list[cst.CSTNode] = [s for s in body.body if not _is_docstring(s)]
    else:  # a one-line body: `def f(self): return 1`
        statements = list(body.body)
    return " ".join(cst.Module([]).code_for_node(s).strip() for s in statements)


class _Hollow(cst.CSTTransformer):
    """Replaces the body of every definition named `method` directly in the class `class_name` (a property's
    getter and setter alike) by its docstring and `pass`."""

    def __init__(self, class_name: str, method: str) -> None:
        self.class_name, self.method, self.depth, self.inside = class_name, method, 0, False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.depth += 1
        if self.depth == 1 and node.name.value == self.class_name:
            self.inside = True
        return True

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        if self.depth == 1:
            self.inside = False
        self.depth -= 1
        return updated

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not (self.inside and self.depth == 1 and original.name.value == self.method):
            return updated
        kept = [s for s in updated.body.body if _is_docstring(s)][:1] if isinstance(updated.body, cst.IndentedBlock) else []
        return updated.with_changes(body=cst.IndentedBlock(body=[*kept, cst.SimpleStatementLine([cst.Pass()])]))


def _body_start(function: cst.FunctionDef, positions: Any) -> int:
    """The first line of the body's statements after the docstring (the `def` line for a one-line body)."""
    body = function.body
    if isinstance(body, cst.IndentedBlock):
        statements = [s for s in body.body if not _is_docstring(s)]
        if statements:
            return positions[statements[0]].start.line
    return positions[function].start.line


def public_methods(source: str, class_name: str) -> dict[str, tuple[int, int]]:
    """Public methods (no leading underscore) defined directly in the class whose body does something, with
    the first and last lines of their bodies (`Deletion.lines`); a method defined twice (a property and its
    setter) spans both."""
    wrapper = cst.MetadataWrapper(cst.parse_module(source))
    positions = wrapper.resolve(cst.metadata.PositionProvider)
    node = next((n for n in wrapper.module.body if isinstance(n, cst.ClassDef) and n.name.value == class_name), None)
    found: dict[str, tuple[int, int]] = {}
    for item in node.body.body if node is not None else ():
        if not isinstance(item, cst.FunctionDef) or item.name.value.startswith("_"):
            continue
        if _body_text(item) in TRIVIAL_BODIES:
            continue
        start, end = _body_start(item, positions), positions[item].end.line
        lo, hi = found.get(item.name.value, (start, end))
        found[item.name.value] = (min(lo, start), max(hi, end))
    return found


def method_deletions(source: str, class_name: str) -> list[Deletion]:
    """One deletion per public method of the class, in source order."""
    module = cst.parse_module(source)
    return [Deletion(name, module.visit(_Hollow(class_name, name)).code, lines)
            for name, lines in public_methods(source, class_name).items()]
