"""Dependency slicing: a class plus the module-level names it uses, transitively.

Requiring the whole module to import only the standard library throws away most classes of modern
repositories (one `import requests` for an unrelated function sinks every class in the file). Instead the
task is the *slice*: the class, the top-level statements defining the names it refers to (helper functions,
constants, other classes, imports), the statements those refer to, and so on. The slice is then held to
the standard library alone (`sys.stdlib_module_names`) and to the effects a benchmark task may have.

Name resolution is libcst's `ScopeProvider` (scope-aware, so a local variable that shadows a module-level
name does not pull the module-level one in). Everything here reads the syntax tree: mined code is never
imported or run outside the sandbox.
"""

from __future__ import annotations

import bisect
import builtins
import sys
import weakref
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import GlobalScope

from core.records import RejectReason
from pipeline.mining.extract import ClassUnit, ParsedModule, dotted_name
from pipeline.mining.filters import Drop

STDLIB: frozenset[str] = frozenset(sys.stdlib_module_names)
_BUILTINS = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__spec__", "__builtins__", "__package__"}


@dataclass(frozen=True)
class Slice:
    """The class and what it needs from its module, as a module of its own."""

    class_name: str
    code: str
    names: tuple[str, ...]  # module-level names pulled in besides the class
    imports: tuple[str, ...]  # every module the slice imports (absolute; relative ones keep their dots)
    unresolved: tuple[str, ...]  # names used that no statement of the module defines (star imports)
    inlined: tuple[str, ...] = ()  # "module:name" of each definition taken from another file of the repository
    through: tuple[tuple[str, str], ...] = ()  # (import as in `imports`, why it is there: the module chain)
    clashes: tuple[str, ...] = ()  # names two inlined files define differently, each with the files


def is_future_import(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and any(
        isinstance(s, cst.ImportFrom) and isinstance(s.module, cst.Name) and s.module.value == "__future__"
        for s in stmt.body)


def _is_star_import(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and any(
        isinstance(s, cst.ImportFrom) and isinstance(s.names, cst.ImportStar) for s in stmt.body)


def _first_line(stmt: cst.BaseStatement, positions) -> int:  # noqa: ANN001 - libcst mapping
    """The line a top-level statement starts on, its decorators included: libcst's position of a decorated
    class or function starts at `class`/`def`, so a name used only in a decorator (`@dataclass`) would be
    counted as used by the statement before it, and the slice of a class needing the decorated one would
    lose the decorator's import (the slice then fails on import with a NameError)."""
    line = positions[stmt].start.line
    for decorator in getattr(stmt, "decorators", ()):
        line = min(line, positions[decorator].start.line)
    return line


class _Statements:
    """Maps any node of the module to the index of the top-level statement containing it."""

    def __init__(self, body: tuple[cst.BaseStatement, ...], positions) -> None:  # noqa: ANN001 - libcst mapping
        self.starts = [_first_line(stmt, positions) for stmt in body]
        self.positions = positions

    def index_of(self, node: cst.CSTNode) -> int | None:
        position = self.positions.get(node)
        if position is None:
            return None
        index = bisect.bisect_right(self.starts, position.start.line) - 1
        return index if index >= 0 else None


@dataclass(frozen=True, eq=False)
class ModuleGraph:
    """Which top-level statement of a module uses which, by name: what every slice of the module walks.

    `uses[i]` maps each statement that statement `i` refers to onto the names it takes from it; `binds[i]`
    is what statement `i` defines at module level; `undefined[i]` the names `i` uses that no statement
    defines (a star import's, or a typo's)."""

    body: tuple[cst.BaseStatement, ...]
    uses: dict[int, dict[int, set[str]]]
    binds: dict[int, set[str]]
    undefined: dict[int, set[str]]

    def definers(self, name: str) -> list[int]:
        """The statements binding `name` at module level, in source order (several for `try`/`except`
        fallbacks or reassignments: a slice takes them all)."""
        return sorted(index for index, names in self.binds.items() if name in names)

    def closure(self, wanted: dict[int, set[str]]) -> dict[int, set[str]]:
        """`wanted` (statement -> names asked of it) and every statement those use, transitively, each with
        the names asked of it (an import statement is then resolved for those names only)."""
        needed = {index: set(names) for index, names in wanted.items()}
        frontier = list(needed)
        while frontier:
            for used, names in self.uses.get(frontier.pop(), {}).items():
                before = needed.get(used)
                if before is None or not names <= before:
                    needed.setdefault(used, set()).update(names)
                    if before is None:
                        frontier.append(used)
        return needed


def module_graph(module: ParsedModule) -> ModuleGraph:
    """The statement graph of `module`, from libcst's scopes (one analysis, shared by its classes)."""
    cached = _GRAPHS.get(module)
    if cached is not None:
        return cached
    tree = module.tree
    scopes, positions = module.metadata
    statements = _Statements(tuple(tree.body), positions)
    scope = scopes.get(tree)
    if not isinstance(scope, GlobalScope):
        raise ValueError(f"{module.path}: no global scope")
    uses: dict[int, dict[int, set[str]]] = {}
    binds: dict[int, set[str]] = {}
    for assignment in scope.assignments:
        node = getattr(assignment, "node", None)
        defined_at = statements.index_of(node) if node is not None else None
        if defined_at is None:
            continue
        binds.setdefault(defined_at, set()).add(assignment.name)
        for access in assignment.references:
            used_at = statements.index_of(access.node)
            if used_at is not None and used_at != defined_at:
                uses.setdefault(used_at, {}).setdefault(defined_at, set()).add(assignment.name)
    undefined: dict[int, set[str]] = {}
    for every in {s for s in scopes.values() if s is not None}:
        for access in every.accesses:
            if isinstance(access.node, cst.Name) and not access.referents and access.node.value not in _BUILTINS:
                at = statements.index_of(access.node)
                if at is not None:
                    undefined.setdefault(at, set()).add(access.node.value)
    graph = ModuleGraph(tuple(tree.body), uses, binds, undefined)
    _GRAPHS[module] = graph
    return graph


_GRAPHS: weakref.WeakKeyDictionary[ParsedModule, ModuleGraph] = weakref.WeakKeyDictionary()


def slice_class(unit: ClassUnit) -> Slice:
    """The slice of `unit` (see the module docstring). Statements keep their source order."""
    tree = unit.module.tree
    graph = module_graph(unit.module)
    start = tree.body.index(unit.node)
    keep = set(graph.closure({start: {unit.name}}))
    unresolved = sorted({name for index in keep for name in graph.undefined.get(index, ())})
    names = sorted({name for index in keep if index != start for name in graph.binds.get(index, ())})
    for index, stmt in enumerate(tree.body):
        if is_future_import(stmt) or (unresolved and _is_star_import(stmt)):
            keep.add(index)
    body = [stmt for index, stmt in enumerate(tree.body) if index in keep]
    code = tree.with_changes(body=body).code
    return Slice(unit.name, code, tuple(names), tuple(sorted(imported_modules(body))), tuple(unresolved))


def imported_modules(statements: list[cst.BaseStatement] | tuple[cst.BaseStatement, ...]) -> set[str]:
    """Every module imported anywhere in `statements` (nested imports too): `import a.b` -> 'a.b',
    `from a import b` -> 'a', `from . import x` -> '.'."""
    found: set[str] = set()

    class _Imports(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            found.update(dotted_name(alias.name) for alias in node.names)

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            found.add("." * len(node.relative) + (dotted_name(node.module) if node.module is not None else ""))

    for stmt in statements:
        stmt.visit(_Imports())
    return found


def third_party(modules: tuple[str, ...] | set[str]) -> list[str]:
    """The modules outside the standard library (relative imports are the repository's own code)."""
    return sorted(m for m in modules if m.startswith(".") or m.split(".")[0] not in STDLIB)


def self_contained(piece: Slice) -> Drop | None:
    """The slice imports only the standard library, takes no name from two files, and every name it uses is
    defined."""
    outside = third_party(piece.imports)
    if outside:
        why = dict(piece.through)
        named = [f"{m} ({why[m]})" if m in why else m for m in outside]
        evidence: dict[str, object] = {"modules": outside}
        if any(m in why for m in outside):
            evidence["through"] = {m: why[m] for m in outside if m in why}
        return Drop(RejectReason.NOT_SELF_CONTAINED, f"{piece.class_name} needs {', '.join(named)}", evidence)
    if piece.clashes:
        return Drop(RejectReason.NOT_SELF_CONTAINED, f"{piece.class_name}: the repository's files it takes definitions "
                    f"from define one name differently: {', '.join(piece.clashes[:5])}",
                    {"clashes": list(piece.clashes), "inlined": list(piece.inlined)})
    if piece.unresolved:
        return Drop(RejectReason.NOT_SELF_CONTAINED,
                    f"{piece.class_name} uses names defined nowhere in its module: {', '.join(piece.unresolved[:5])}",
                    {"names": list(piece.unresolved)})
    return None
