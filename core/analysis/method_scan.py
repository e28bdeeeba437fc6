"""What one method reads, writes, calls and imports, read from the standard library's `ast`.

The rules are those stated in `core.analysis.class_facts` (its module docstring). They were first
written on libcst with its parent and expression-context metadata; resolving that metadata cost about
0.2 s of CPU per class (55 times the `ast` scan on the seeds), and the gate, synthesis and release each
asked for it. `ast` carries the same load/store/delete context on every name, attribute and subscript, so
the scan needs only a parent map. Where libcst and `ast` see a construct differently, the scan follows
libcst's reading so that the facts stay what they were (checked on the 55 seeds and their synthesised
variants); those places are marked "libcst:".
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections.abc import Iterable, Iterator

MUTATING_METHODS: frozenset[str] = frozenset(
    {
        # list
        "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",
        # dict (pop, clear shared with list)
        "update", "setdefault", "popitem",
        # set
        "add", "discard", "intersection_update", "difference_update", "symmetric_difference_update",
        # collections.deque / OrderedDict / Counter
        "appendleft", "extendleft", "popleft", "rotate", "move_to_end", "subtract",
        # queue.Queue and friends
        "put", "put_nowait", "get_nowait",
        # io.StringIO / BytesIO buffers kept as state
        "write", "writelines", "truncate",
        # operator protocol, spelled out
        "__setitem__", "__delitem__", "__iadd__",
    }
)
"""Method names that change the object they are called on.

Chosen from the mutating methods of list, dict, set, deque, OrderedDict, Counter, queue.Queue and the io
buffers. Deliberately absent: ``get`` (dict.get reads; Queue.get mutates, but counting it would turn every
dict lookup into a write), ``copy``, ``index``, ``count``, ``keys``/``values``/``items``, ``seek`` (moves a
cursor, but is almost always followed by a read in the same method), and ``union``/``difference`` (they
return new sets). A false "write" invents state edges; a missed one hides them: for unknown receiver types
the list errs on the side of the common container methods."""

RETURNING_MUTATORS: frozenset[str] = frozenset({"pop", "popitem", "popleft", "setdefault", "get_nowait"})
"""Mutating methods that also hand back stored content: they count as a read and a write."""

MUTATING_FUNCTIONS: dict[str, frozenset[str]] = {
    "heapq": frozenset({"heappush", "heappop", "heapify", "heapreplace", "heappushpop"}),
    "bisect": frozenset({"insort", "insort_left", "insort_right"}),
    "random": frozenset({"shuffle"}),
}
"""Standard-library functions that mutate their first argument, by module."""

_READING_FUNCTIONS = frozenset({"heappop", "heapreplace", "heappushpop"})
_ALIAS_THROUGH_CALLS = frozenset({"get", "setdefault", "values", "items", "__getitem__"})
_ITERATION_WRAPPERS = frozenset({"enumerate", "reversed", "sorted", "list", "tuple", "iter"})
_ATTRIBUTE_BUILTINS = frozenset({"getattr", "setattr", "delattr", "hasattr"})
_STORES = (ast.Store, ast.Del)

Function = ast.FunctionDef | ast.AsyncFunctionDef


def dotted(node: ast.AST) -> str:
    """``a.b.c`` for a chain of names and attributes; "" where the chain holds anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    return ""


def call_arguments(call: ast.Call) -> list[ast.expr]:
    """The values of a call's arguments in source order, positional, starred and keyword alike.

    libcst: a call has one list of arguments (``*xs`` and ``k=v`` included), and the rules index it
    (``getattr(self, "x")``'s first two, ``type(self)``'s only one).
    """
    items: list[tuple[tuple[int, int], ast.expr]] = []
    for arg in call.args:
        items.append(((arg.lineno, arg.col_offset), arg.value if isinstance(arg, ast.Starred) else arg))
    for keyword in call.keywords:
        items.append(((keyword.lineno, keyword.col_offset), keyword.value))
    items.sort(key=lambda item: item[0])
    return [value for _, value in items]


def import_bindings(statements: Iterable[ast.stmt], *, into_functions: bool = False) -> dict[str, str]:
    """Local name -> module it comes from, for every import among `statements` (searched recursively,
    in source order, a later import of a name winning).

    ``import a.b`` binds ``a`` to "a"; ``import a.b as c`` binds ``c`` to "a.b"; ``from a.b import c`` binds
    ``c`` to "a.b"; a relative import keeps its dots ("." or "..pkg"). Imports inside functions and classes
    are local to them and skipped, unless `into_functions` (a method's body, where all are its own).
    """
    bindings: dict[str, str] = {}
    for node in _preorder_statements(statements, into_functions):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname is not None:
                    bindings[alias.asname] = alias.name
                else:
                    first = alias.name.split(".")[0]
                    bindings[first] = first
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name != "*":
                    bindings[alias.asname or alias.name] = module
    return bindings


def _preorder_statements(statements: Iterable[ast.stmt], into_functions: bool) -> Iterator[ast.AST]:
    for statement in statements:
        yield statement
        if not into_functions and isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        yield from _preorder_statements(
            [child for child in ast.iter_child_nodes(statement) if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case))],
            into_functions,
        )


def source_order_children(node: ast.AST) -> list[ast.AST]:
    """`node`'s children in the order they are written (the order libcst visits them).

    `ast` keeps some fields apart from source order: a definition's decorators come last, a dict's keys
    all before its values, a call's keyword arguments after all positional ones, a conditional
    expression's test first. Alias bindings are collected in visiting order and the first one of a name
    wins, so the order is part of the result.
    """
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        head: list[ast.AST] = [*node.decorator_list, node.args]
        return [*head, *([node.returns] if node.returns is not None else []), *node.body]
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords, *node.body]
    if isinstance(node, ast.Dict):
        return [child for key, value in zip(node.keys, node.values) for child in (key, value) if child is not None]
    if isinstance(node, ast.Call):
        positional: list[tuple[tuple[int, int], ast.AST]] = [((a.lineno, a.col_offset), a) for a in node.args]
        positional += [((k.lineno, k.col_offset), k) for k in node.keywords]
        return [node.func, *(child for _, child in sorted(positional, key=lambda item: item[0]))]
    if isinstance(node, ast.IfExp):
        return [node.body, node.test, node.orelse]
    return list(ast.iter_child_nodes(node))


def preorder(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and everything under it, each before its children, children in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(source_order_children(current)))


def load_names(node: ast.AST) -> Iterator[str]:
    """Names `node` itself loads as libcst reads it.

    libcst: a name that `ast` keeps as a plain string still is a Name node there, in load context when no
    store applies to it: the modules and names of an import (not the ``as`` name), ``global``/``nonlocal``
    names, keyword-argument names and the names in match patterns.
    """
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        yield node.id
    elif isinstance(node, ast.Import):
        yield from (alias.name.split(".")[0] for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.module:
            yield node.module.split(".")[0]
        yield from (alias.name for alias in node.names if alias.name != "*")
    elif isinstance(node, (ast.Global, ast.Nonlocal)):
        yield from node.names
    elif isinstance(node, ast.keyword) and node.arg is not None:
        yield node.arg
    elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name is not None:
        yield node.name
    elif isinstance(node, ast.MatchMapping) and node.rest is not None:
        yield node.rest
    elif isinstance(node, ast.MatchClass):
        yield from node.kwd_attrs


def is_single_string(node: ast.expr, source: str) -> bool:
    """A plain string literal (libcst's SimpleString): not an f-string, not implicitly concatenated."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    segment = ast.get_source_segment(source, node) or ""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(segment).readline) if t.type == tokenize.STRING]
    except (tokenize.TokenError, SyntaxError):
        return False
    return len(tokens) == 1


class MethodScan:
    """Reads, writes, calls and library names of one method (see `core.analysis.class_facts`)."""

    def __init__(self, node: Function, *, source: str, self_names: frozenset[str], method_names: frozenset[str],
                 imports: dict[str, str]) -> None:
        self.node = node
        self.source = source
        self.self_names = self_names  # names that denote the instance or the class inside this method
        self.method_names = method_names
        self.imports = imports
        self.aliases: dict[str, str] = {}
        self.reads: list[str] = []
        self.writes: list[str] = []
        self.calls: list[str] = []
        self.libraries: list[str] = []
        # the method without its decorators: what the rules look at
        self.scope: list[ast.AST] = [node.args, *([node.returns] if node.returns is not None else []), *node.body]
        self.parents: dict[int, ast.AST] = {}
        for top in self.scope:
            for parent in ast.walk(top):
                for child in ast.iter_child_nodes(parent):
                    self.parents[id(child)] = parent

    def run(self) -> MethodScan:
        self.collect_aliases()
        for top in self.scope:
            for node in ast.walk(top):
                if isinstance(node, ast.Attribute) and self.is_self_base(node.value):
                    self.classify(node, node.attr, through_alias=False)
                elif isinstance(node, ast.Call):
                    self.visit_call(node)
                for name in load_names(node):
                    if name in self.aliases and isinstance(node, ast.Name):
                        self.classify(node, self.aliases[name], through_alias=True)
                    if name in self.imports:
                        self.libraries.append(self.imports[name])
        return self

    # -- helpers -------------------------------------------------------------------------------------
    def is_self_base(self, expr: ast.expr) -> bool:
        """`self`, `cls`, `ClassName`, `type(self)` or `self.__class__`."""
        if isinstance(expr, ast.Name):
            return expr.id in self.self_names
        if isinstance(expr, ast.Call) and dotted(expr.func) == "type":
            arguments = call_arguments(expr)
            return len(arguments) == 1 and self.is_self_base(arguments[0])
        if isinstance(expr, ast.Attribute) and expr.attr == "__class__":
            return self.is_self_base(expr.value)
        return False

    def root_attribute(self, expr: ast.expr) -> str | None:
        """The self attribute whose contents `expr` reaches without copying, if any (for aliases)."""
        while True:
            if isinstance(expr, ast.Attribute):
                if self.is_self_base(expr.value):
                    name = expr.attr
                    return None if name in self.method_names or name == "__class__" else name
                expr = expr.value
            elif isinstance(expr, ast.Subscript):
                expr = expr.value
            elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
                if expr.func.attr not in _ALIAS_THROUGH_CALLS:
                    return None
                expr = expr.func.value
            elif isinstance(expr, ast.Name):
                return self.aliases.get(expr.id)
            else:
                return None

    def _iteration_root(self, expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Call) and dotted(expr.func) in _ITERATION_WRAPPERS:
            arguments = call_arguments(expr)
            if arguments:
                return self._iteration_root(arguments[0])
        return self.root_attribute(expr)

    def _bind(self, target: ast.expr, attribute: str) -> None:
        if isinstance(target, ast.Name):
            if target.id not in self.self_names:
                self.aliases.setdefault(target.id, attribute)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._bind(element.value if isinstance(element, ast.Starred) else element, attribute)
        elif isinstance(target, ast.Starred):
            self._bind(target.value, attribute)

    # -- pass 1: aliases -----------------------------------------------------------------------------
    def collect_aliases(self) -> None:
        bindings: list[tuple[ast.expr, ast.expr, bool]] = []
        for statement in self.node.body:
            for node in preorder(statement):
                if isinstance(node, ast.Assign):
                    bindings += [(target, node.value, False) for target in node.targets]
                elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                    bindings.append((node.target, node.value, False))
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    bindings.append((node.target, node.iter, True))
                elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                    bindings.append((node.optional_vars, node.context_expr, False))
        # fixpoint: `node = self.root` then `node = node.children[c]` chains through earlier aliases
        for _ in range(len(bindings) + 1):
            changed = False
            for target, value, iterated in bindings:
                root = self._iteration_root(value) if iterated else self.root_attribute(value)
                if root is not None:
                    before = len(self.aliases)
                    self._bind(target, root)
                    changed |= before != len(self.aliases)
            if not changed:
                break

    # -- pass 2: accesses ----------------------------------------------------------------------------
    def visit_call(self, node: ast.Call) -> None:
        name = dotted(node.func)
        arguments = call_arguments(node)
        if name in _ATTRIBUTE_BUILTINS and len(arguments) >= 2:
            target, attr = arguments[0], arguments[1]
            if self.is_self_base(target) and is_single_string(attr, self.source):
                attribute = attr.value  # type: ignore[attr-defined]
                if attribute in self.method_names:
                    self.calls.append(attribute)
                elif name in {"setattr", "delattr"}:
                    self.writes.append(attribute)
                else:
                    self.reads.append(attribute)
            return
        module, _, function = name.rpartition(".")
        origin = self.imports.get(module) if module else self.imports.get(function)
        if module and origin is None:
            origin = module
        if function in MUTATING_FUNCTIONS.get(origin or "", frozenset()) and arguments:
            attribute = self.root_attribute(arguments[0])
            if attribute is not None:
                self.writes.append(attribute)
                if function in _READING_FUNCTIONS:
                    self.reads.append(attribute)

    def classify(self, base: ast.expr, attribute: str, *, through_alias: bool) -> None:
        if not through_alias and attribute in self.method_names:
            self.calls.append(attribute)  # a call, a reference handed on, or a property get/set
            return
        if not through_alias and attribute == "__class__":
            return
        if not through_alias and isinstance(getattr(base, "ctx", None), _STORES):
            self.writes.append(attribute)
            if isinstance(self.parents.get(id(base)), ast.AugAssign):
                self.reads.append(attribute)
            return
        current: ast.expr = base
        while True:
            parent = self.parents.get(id(current))
            if isinstance(parent, ast.Attribute) and parent.value is current:
                grand = self.parents.get(id(parent))
                if isinstance(grand, ast.Call) and grand.func is parent and parent.attr in MUTATING_METHODS:
                    self.writes.append(attribute)
                    if parent.attr in RETURNING_MUTATORS and not through_alias:
                        self.reads.append(attribute)
                    return
                if isinstance(parent.ctx, _STORES):
                    self._write(attribute, parent, through_alias)
                    return
                current = parent
            elif isinstance(parent, ast.Subscript) and parent.value is current:
                if isinstance(parent.ctx, _STORES):
                    self._write(attribute, parent, through_alias)
                    return
                current = parent
            else:
                break
        if not through_alias:
            self.reads.append(attribute)

    def _write(self, attribute: str, target: ast.expr, through_alias: bool) -> None:
        self.writes.append(attribute)
        if isinstance(self.parents.get(id(target)), ast.AugAssign) and not through_alias:
            self.reads.append(attribute)
