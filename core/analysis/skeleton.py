"""Skeletons of a class module: signatures and docstrings kept, bodies gone.

Two uses, one transform:

- ``body="pass"``: the task skeleton shown to solvers (ClassEval's ``skeleton`` column).
- ``body="raise"`` with ``keep_init=True``: the module the validation gate runs the tests against to find
  vacuous tests. Every body raises ``NotImplementedError``; ``__init__`` keeps its body so that tests can
  still build instances, and so do the methods ``__init__`` calls on ``self`` (transitively): otherwise a
  constructor that delegates (``self._reset()``) would raise, every test would fail, and the gate would
  count no vacuous test where there may be many.

What happens to the rest of the module, and why:

- Imports (top-level ``import``/``from`` lines, and ``try``/``if`` blocks made only of imports) are kept:
  signatures and tests use them.
- The module docstring is kept.
- Module-level assignments (constants, type aliases) are kept verbatim: they are part of the interface
  (default values, names tests import). A constant computed by calling a module-level function becomes a
  call of that function's stub (``None`` in "pass" mode, an import-time error in "raise" mode: then every
  test fails, which the gate reads as "no vacuous test").
- Every other top-level class and function is reduced the same way (signatures, decorators, docstrings,
  class-level assignments kept, bodies replaced): tests import exception classes, enums and dataclasses
  from the module, and those are interface, not implementation. Exception classes and dataclasses usually
  have no method bodies, so they survive whole.
- Any other top-level statement (``if __name__ == "__main__":``, loops, bare expressions) is dropped.

Within a class, class-level assignments and nested classes are kept (nested classes reduced likewise).
A body is replaced by its docstring (if any) followed by ``pass`` or ``raise NotImplementedError``.
"""

from __future__ import annotations

from typing import Literal

import libcst as cst

from core.analysis.class_facts import class_facts
from core.analysis.class_text import docstring_statement, find_class
from core.analysis.parsed import parsed

BodyKind = Literal["pass", "raise"]

_PASS = cst.SimpleStatementLine(body=[cst.Pass()])
_RAISE = cst.SimpleStatementLine(body=[cst.Raise(exc=cst.Name("NotImplementedError"))])


def _is_import_only(stmt: cst.CSTNode) -> bool:
    """True for an import line, or a try/if block made of imports (and fallback assignments or pass)."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return all(isinstance(s, (cst.Import, cst.ImportFrom, cst.Pass)) for s in stmt.body) and any(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body
        )
    if isinstance(stmt, (cst.Try, cst.If)):
        inner: list[cst.CSTNode] = list(stmt.body.body) if isinstance(stmt.body, cst.IndentedBlock) else []
        if isinstance(stmt, cst.Try):
            for handler in stmt.handlers:
                inner.extend(handler.body.body if isinstance(handler.body, cst.IndentedBlock) else [])
        elif stmt.orelse is not None and isinstance(stmt.orelse, cst.Else):
            inner.extend(stmt.orelse.body.body if isinstance(stmt.orelse.body, cst.IndentedBlock) else [])
        # fallbacks such as `except ImportError: numpy = None` belong with the import
        return bool(inner) and any(_is_import_only(s) for s in inner) and all(
            _is_import_only(s) or _is_assignment(s) or (isinstance(s, cst.SimpleStatementLine) and all(isinstance(x, cst.Pass) for x in s.body))
            for s in inner
        )
    return False


def _is_assignment(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Assign, cst.AnnAssign, cst.AugAssign)) for s in stmt.body
    )


def _stub_body(body: cst.BaseSuite, filler: cst.SimpleStatementLine) -> cst.IndentedBlock:
    doc = docstring_statement(body)
    return cst.IndentedBlock(body=[doc, filler] if doc is not None else [filler])


def _stub_function(node: cst.FunctionDef, filler: cst.SimpleStatementLine) -> cst.FunctionDef:
    return node.with_changes(body=_stub_body(node.body, filler))


def _stub_class(node: cst.ClassDef, filler: cst.SimpleStatementLine, keep: frozenset[str] = frozenset()) -> cst.ClassDef:
    """Class with class-level assignments and docstring kept, methods stubbed except those in `keep`."""
    statements = node.body.body if isinstance(node.body, cst.IndentedBlock) else node.body.body
    doc = docstring_statement(node.body)
    kept: list[cst.BaseStatement] = []
    for stmt in statements:
        if stmt is doc:
            kept.append(stmt)
        elif isinstance(stmt, cst.FunctionDef):
            kept.append(stmt if stmt.name.value in keep else _stub_function(stmt, filler))
        elif isinstance(stmt, cst.ClassDef):
            kept.append(_stub_class(stmt, filler))
        elif isinstance(stmt, cst.SimpleStatementLine):
            small = [s for s in stmt.body if isinstance(s, (cst.Assign, cst.AnnAssign, cst.AugAssign))]
            if small:
                kept.append(stmt.with_changes(body=small))
        elif _is_import_only(stmt):
            kept.append(stmt)
    if not any(isinstance(s, (cst.FunctionDef, cst.ClassDef, cst.SimpleStatementLine)) for s in kept):
        kept.append(_PASS)
    return node.with_changes(body=cst.IndentedBlock(body=kept))


def _kept_by_init(source: str, class_name: str) -> frozenset[str]:
    """__init__ and every method it reaches through calls on self (properties included)."""
    facts = class_facts(source, class_name)
    if "__init__" not in facts.method_names:
        return frozenset()
    calls = {m.name: set(m.calls) for m in facts.methods}
    reached = {"__init__"}
    frontier = ["__init__"]
    while frontier:
        for callee in calls.get(frontier.pop(), ()):
            if callee not in reached:
                reached.add(callee)
                frontier.append(callee)
    return frozenset(reached)


def make_skeleton(source: str, class_name: str, *, body: BodyKind = "pass", keep_init: bool = False) -> str:
    """The module `source` with `class_name` (and every other top-level class and function) reduced to
    signatures, decorators and docstrings; see the module docstring for what else is kept.

    Raises libcst.ParserSyntaxError on unparsable source and class_text.ClassNotFound when the class is
    absent. ``keep_init`` keeps ``__init__`` and the methods it calls (meant for ``body="raise"``).
    """
    if body not in ("pass", "raise"):
        raise ValueError(f"body must be 'pass' or 'raise', not {body!r}")
    module = parsed(source).module  # shared with the other readers of this source
    find_class(module, class_name)
    filler = _PASS if body == "pass" else _RAISE
    keep = _kept_by_init(source, class_name) if keep_init else frozenset()
    out: list[cst.BaseStatement] = []
    module_doc = docstring_statement(cst.IndentedBlock(body=list(module.body)))
    for stmt in module.body:
        if stmt is module_doc or _is_import_only(stmt) or _is_assignment(stmt):
            out.append(stmt)
        elif isinstance(stmt, cst.ClassDef):
            target = stmt.name.value == class_name
            out.append(_stub_class(stmt, filler, keep if target else frozenset()))
        elif isinstance(stmt, cst.FunctionDef):
            out.append(_stub_function(stmt, filler))
    return module.with_changes(body=out).code


def strip_imports(source: str) -> tuple[list[str], str]:
    """Split a module into ClassEval's ``import_statement`` (one entry per top-level import statement, in
    order) and ``solution_code`` (the rest, imports removed, leading blank lines trimmed).

    Only plain top-level import lines move; imports inside ``try``/``if`` blocks or functions stay in the
    code, where they are guarded or local. ``"\\n".join(imports) + "\\n\\n" + rest`` runs like the original
    as long as the imports came before the code that uses them (which is how modules are written).
    """
    module = parsed(source).module  # shared with the other readers of this source
    imports: list[str] = []
    rest: list[cst.BaseStatement] = []
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body):
            for small in stmt.body:
                imports.append(module.code_for_node(small).strip())
        else:
            rest.append(stmt)
    if rest:
        first = rest[0]
        rest[0] = first.with_changes(leading_lines=[line for line in first.leading_lines if line.comment is not None])
    code = module.with_changes(body=rest, header=[line for line in module.header if line.comment is not None]).code
    return imports, code.lstrip("\n")
