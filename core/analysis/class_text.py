"""A class's text as written, read with libcst: signatures, decorators, docstrings, method source.

Why libcst here and `ast` for the facts (`core.analysis.method_scan`): these strings go into released
rows (ClassEval's ``method_description``, ``solution_code``) and skeletons, and must be the source as
written, comments and layout included, which `ast` does not keep. They are asked for only by release,
mining and evaluation, so `ClassText` parses on first use (through the shared `core.analysis.parsed`)
and the gate's edge analysis never loads libcst.
"""

from __future__ import annotations

import inspect
from functools import cached_property

import libcst as cst

from core.analysis.parsed import ClassNotFound, class_not_found, parsed

__all__ = ["ClassNotFound", "ClassText", "MethodText", "description_of", "docstring_of", "docstring_statement",
           "find_class", "signature_of"]


def find_class(module: cst.Module, class_name: str) -> cst.ClassDef:
    """The top-level class `class_name` of `module`; ClassNotFound names what exists instead."""
    names = []
    for stmt in module.body:
        if isinstance(stmt, cst.ClassDef):
            if stmt.name.value == class_name:
                return stmt
            names.append(stmt.name.value)
    raise class_not_found(class_name, names)


def docstring_statement(body: cst.BaseSuite) -> cst.SimpleStatementLine | None:
    """The docstring statement opening `body`, as written (None when the body has none)."""
    if isinstance(body, cst.IndentedBlock) and body.body:
        first = body.body[0]
        if isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Expr):
            if isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
                return first
    return None


def docstring_of(body: cst.BaseSuite) -> str | None:
    """The cleaned docstring opening `body` (None without one, or when it is not a str)."""
    statement = docstring_statement(body)
    if statement is None:
        return None
    evaluated = statement.body[0].value.evaluated_value  # type: ignore[attr-defined]
    return inspect.cleandoc(evaluated) if isinstance(evaluated, str) else None


def description_of(module: cst.Module, node: cst.FunctionDef) -> str:
    """Decorators, signature and docstring of `node` (a ``...`` body when it has no docstring)."""
    doc = docstring_statement(node.body)
    body = [doc] if doc is not None else [cst.SimpleStatementLine([cst.Expr(cst.Ellipsis())])]
    stub = node.with_changes(leading_lines=(), body=cst.IndentedBlock(body=body))
    return module.code_for_node(stub).rstrip("\n")


def signature_of(module: cst.Module, node: cst.FunctionDef) -> str:
    """The `def` header of `node` as written (parameters, annotations, defaults), without decorators."""
    header = node.with_changes(
        decorators=(),
        leading_lines=(),
        body=cst.SimpleStatementSuite(body=[cst.Expr(cst.Ellipsis())]),
    )
    return module.code_for_node(header).rstrip("\n").removesuffix("...").rstrip()


class MethodText:
    """The text of one method (all its definitions: a property's getter, setter and deleter are one)."""

    def __init__(self, module: cst.Module, definitions: list[cst.FunctionDef]) -> None:
        self._module = module
        self._definitions = definitions

    @cached_property
    def signature(self) -> str:
        return signature_of(self._module, self._definitions[0])

    @cached_property
    def decorators(self) -> tuple[str, ...]:
        return tuple(self._module.code_for_node(d.decorator) for d in self._definitions[0].decorators)

    @cached_property
    def docstring(self) -> str | None:
        return docstring_of(self._definitions[0].body)

    @cached_property
    def source(self) -> str:
        """Every definition as written, joined by a newline, without the lines before the first."""
        return "\n".join(self._module.code_for_node(fn.with_changes(leading_lines=())) for fn in self._definitions)

    @cached_property
    def description(self) -> str:
        return description_of(self._module, self._definitions[0])


class ClassText:
    """The text of a class in a source, parsed with libcst on first use (raises its ParserSyntaxError)."""

    def __init__(self, source: str, class_name: str) -> None:
        self._source = source
        self._class_name = class_name

    @cached_property
    def _node(self) -> cst.ClassDef:
        return find_class(parsed(self._source).module, self._class_name)

    @cached_property
    def docstring(self) -> str | None:
        return docstring_of(self._node.body)

    @cached_property
    def _methods(self) -> dict[str, MethodText]:
        module = parsed(self._source).module
        definitions: dict[str, list[cst.FunctionDef]] = {}
        body = self._node.body.body if isinstance(self._node.body, cst.IndentedBlock) else ()
        for stmt in body:
            if isinstance(stmt, cst.FunctionDef):
                definitions.setdefault(stmt.name.value, []).append(stmt)
        return {name: MethodText(module, found) for name, found in definitions.items()}

    def method(self, name: str) -> MethodText:
        return self._methods[name]
