"""Static facts of one class, read with libcst: what each method reads, writes, calls and imports.

These facts feed three consumers: the validation gate (the static interaction edges that the tests are
asked to exercise), synthesis (which methods share state, so that new features can be woven into them)
and release (ClassEval's per-method dependency columns). Nothing here runs the code: it is safe on
untrusted sources.

Definitions (the ones the gate and docs/ARCHITECTURE.md use):

- A *read* of attribute ``x`` is a load of ``self.x`` (or ``cls.x``, ``ClassName.x``, ``type(self).x``,
  ``self.__class__.x``, ``getattr(self, "x")``) that is not the root of a write.
- A *write* of ``x`` is any store through ``self``: ``self.x = ...``, ``self.x += ...`` (also a read),
  ``self.x[k] = ...``, ``self.x.y = ...``, ``del self.x[k]``, ``setattr(self, "x", ...)``, a call of a
  mutating method on anything reached from ``self.x`` (``self.x.append(...)``, ``self.x[k].add(...)``;
  see `MUTATING_METHODS`), a call of a standard-library function that mutates its first argument
  (``heapq.heappush(self.x, ...)``, ``bisect.insort``, ``random.shuffle``; see `MUTATING_FUNCTIONS`), and the
  same mutations through a local alias of ``self.x``'s contents (``node = self.root; node.kids[c] = n``,
  ``for entry in self.entries: entry["done"] = True``). Alias tracking is per method and flow-insensitive:
  a local name ever bound to something reached from ``self.x`` is an alias of ``x``.
- Calls of methods on objects the class merely holds (``self.account.deposit(5)``) count as reads of
  ``account`` unless the method name is in `MUTATING_METHODS`: the callee's class is unknown, and guessing
  "mutates" for every call would make every attribute look written.
- A *call* of method ``m`` is ``self.m(...)`` / ``cls.m(...)`` / ``ClassName.m(...)``, and also a reference
  to ``self.m`` that is not called on the spot (``sorted(xs, key=self.m)``): the method runs from inside
  this one. Reading a property is a call of it, and so is assigning to it (its setter).
  Methods inherited from other classes are not known and not counted.
- Getter, setter and deleter of one property are merged into one method: at run time all three are code
  objects named after the property, so the dynamic tracer cannot tell them apart either.

Edges (`static_edges`): a call edge ``A -> B`` when A calls B (A != B: recursion is not an interaction);
a state edge ``A -> B`` for every attribute ``x`` that A writes and B reads, with A != B and neither being
``__init__`` (it always writes, and nothing calls it twice). A call edge and a state edge between the same
methods are two edges. State edges are per attribute (the ``attribute`` field); `pair_count` gives the
number of distinct method pairs when a per-pair figure is wanted.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import libcst as cst
from libcst.metadata import ExpressionContext, ExpressionContextProvider, MetadataWrapper, ParentNodeProvider

MethodKind = Literal["instance", "static", "class", "property"]
EdgeKind = Literal["call", "state"]

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

_ALIAS_THROUGH_CALLS = frozenset({"get", "setdefault", "values", "items", "__getitem__"})
_ITERATION_WRAPPERS = frozenset({"enumerate", "reversed", "sorted", "list", "tuple", "iter"})
_PROPERTY_DECORATORS = frozenset({"property", "cached_property"})


@dataclass(frozen=True)
class Edge:
    """One static interaction edge between two methods of a class.

    ``attribute`` names the attribute written by ``source`` and read by ``target`` for a state edge, and is
    None for a call edge. Plain data (no pydantic) so that it crosses into the stdlib-only side of
    validation.interaction as a dict (`to_dict` / `from_dict`).
    """

    kind: EdgeKind
    source: str
    target: str
    attribute: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Edge:
        return cls(kind=data["kind"], source=data["source"], target=data["target"], attribute=data.get("attribute"))

    def __str__(self) -> str:
        tail = f" [{self.attribute}]" if self.attribute else ""
        return f"{self.kind}: {self.source} -> {self.target}{tail}"


@dataclass(frozen=True)
class MethodFacts:
    """What one method of the class is and does, as far as its source tells."""

    name: str
    kind: MethodKind
    signature: str = field(metadata={"doc": "The `def` line(s) without decorators, ending with ':'."})
    decorators: tuple[str, ...] = ()
    docstring: str | None = None
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()
    source: str = ""
    description: str = field(default="", metadata={"doc": "Decorators, signature and docstring, no body."})

    @property
    def is_init(self) -> bool:
        return self.name == "__init__"


@dataclass(frozen=True)
class ClassFacts:
    """Static facts of one class: its methods (in source order) and its fields."""

    name: str
    docstring: str | None
    methods: tuple[MethodFacts, ...]
    fields: tuple[str, ...] = field(metadata={"doc": "Attributes written through self anywhere (instance state)."})
    class_attributes: tuple[str, ...] = ()
    module_imports: dict[str, str] = field(default_factory=dict)

    def method(self, name: str) -> MethodFacts:
        for m in self.methods:
            if m.name == name:
                return m
        raise KeyError(f"class {self.name} has no method {name!r}")

    @property
    def method_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.methods)


class ClassNotFound(ValueError):
    """The module has no top-level class of the requested name."""


def find_class(module: cst.Module, class_name: str) -> cst.ClassDef:
    """The top-level class `class_name` of `module`; ClassNotFound names what exists instead."""
    names = []
    for stmt in module.body:
        if isinstance(stmt, cst.ClassDef):
            if stmt.name.value == class_name:
                return stmt
            names.append(stmt.name.value)
    raise ClassNotFound(f"no top-level class {class_name!r} (found: {', '.join(names) or 'none'})")


def import_bindings(statements: Iterable[cst.CSTNode]) -> dict[str, str]:
    """Local name -> module it comes from, for every import among `statements` (searched recursively).

    ``import a.b`` binds ``a`` to "a"; ``import a.b as c`` binds ``c`` to "a.b"; ``from a.b import c`` binds
    ``c`` to "a.b"; a relative import keeps its dots ("." or "..pkg").
    """
    bindings: dict[str, str] = {}

    class _Collector(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            for alias in node.names:
                dotted = _dotted(alias.name)
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    bindings[alias.asname.name.value] = dotted
                else:
                    bindings[dotted.split(".")[0]] = dotted.split(".")[0]

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            module = ("." * len(node.relative)) + (_dotted(node.module) if node.module is not None else "")
            if isinstance(node.names, cst.ImportStar):
                return
            for alias in node.names:
                local = alias.asname.name if alias.asname is not None else alias.name
                if isinstance(local, cst.Name):
                    bindings[local.value] = module

        # do not descend into classes and functions: their imports are local to them
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

    for stmt in statements:
        stmt.visit(_Collector())
    return bindings


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _decorator_name(decorator: cst.Decorator) -> str:
    expr = decorator.decorator
    if isinstance(expr, cst.Call):
        expr = expr.func
    return _dotted(expr)


def _method_kind(node: cst.FunctionDef) -> MethodKind:
    kind: MethodKind = "instance"
    for decorator in node.decorators:
        name = _decorator_name(decorator)
        last = name.rsplit(".", 1)[-1]
        if last == "staticmethod":
            return "static"
        if last == "classmethod":
            kind = "class"
        elif last in _PROPERTY_DECORATORS or last in {"setter", "getter", "deleter"}:
            return "property"
    return kind


def docstring_statement(body: cst.BaseSuite) -> cst.SimpleStatementLine | None:
    """The docstring statement opening `body`, as written (None when the body has none)."""
    if isinstance(body, cst.IndentedBlock) and body.body:
        first = body.body[0]
        if isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Expr):
            if isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
                return first
    return None


def _docstring_of(body: cst.BaseSuite) -> str | None:
    statement = docstring_statement(body)
    if statement is None:
        return None
    evaluated = statement.body[0].value.evaluated_value  # type: ignore[attr-defined]
    return inspect.cleandoc(evaluated) if isinstance(evaluated, str) else None


def _description(module: cst.Module, node: cst.FunctionDef) -> str:
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


def _first_param(node: cst.FunctionDef) -> str | None:
    params = [*node.params.posonly_params, *node.params.params]
    return params[0].name.value if params else None


class _MethodScanner(cst.CSTVisitor):
    """Collects reads, writes, calls and library names of one method (see the module docstring)."""

    METADATA_DEPENDENCIES = (ParentNodeProvider, ExpressionContextProvider)

    def __init__(
        self,
        *,
        self_names: frozenset[str],
        method_names: frozenset[str],
        imports: dict[str, str],
    ) -> None:
        super().__init__()
        self.self_names = self_names  # names that denote the instance or the class inside this method
        self.method_names = method_names
        self.imports = dict(imports)
        self.aliases: dict[str, str] = {}
        self.reads: list[str] = []
        self.writes: list[str] = []
        self.calls: list[str] = []
        self.libraries: list[str] = []

    # -- helpers -------------------------------------------------------------------------------------
    def _parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        try:
            return self.get_metadata(ParentNodeProvider, node)
        except KeyError:
            return None

    def _context(self, node: cst.CSTNode) -> ExpressionContext | None:
        return self.get_metadata(ExpressionContextProvider, node, None)

    def is_self_base(self, expr: cst.BaseExpression) -> bool:
        """`self`, `cls`, `ClassName`, `type(self)` or `self.__class__`."""
        if isinstance(expr, cst.Name):
            return expr.value in self.self_names
        if isinstance(expr, cst.Call) and _dotted(expr.func) == "type" and len(expr.args) == 1:
            return self.is_self_base(expr.args[0].value)
        if isinstance(expr, cst.Attribute) and expr.attr.value == "__class__":
            return self.is_self_base(expr.value)
        return False

    def root_attribute(self, expr: cst.BaseExpression) -> str | None:
        """The self attribute whose contents `expr` reaches without copying, if any (for aliases)."""
        while True:
            if isinstance(expr, cst.Attribute):
                if self.is_self_base(expr.value):
                    name = expr.attr.value
                    return None if name in self.method_names or name == "__class__" else name
                expr = expr.value
            elif isinstance(expr, cst.Subscript):
                expr = expr.value
            elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
                if expr.func.attr.value not in _ALIAS_THROUGH_CALLS:
                    return None
                expr = expr.func.value
            elif isinstance(expr, cst.Name):
                return self.aliases.get(expr.value)
            else:
                return None

    def _iteration_root(self, expr: cst.BaseExpression) -> str | None:
        if isinstance(expr, cst.Call) and _dotted(expr.func) in _ITERATION_WRAPPERS and expr.args:
            return self._iteration_root(expr.args[0].value)
        return self.root_attribute(expr)

    def _bind(self, target: cst.BaseExpression, attribute: str) -> None:
        if isinstance(target, cst.Name):
            if target.value not in self.self_names:
                self.aliases.setdefault(target.value, attribute)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value, attribute)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, attribute)

    # -- pass 1: aliases -----------------------------------------------------------------------------
    def collect_aliases(self, body: cst.CSTNode) -> None:
        scanner = self
        bindings: list[tuple[cst.BaseExpression, cst.BaseExpression, bool]] = []

        class _Bindings(cst.CSTVisitor):
            def visit_Assign(self, node: cst.Assign) -> None:
                for target in node.targets:
                    bindings.append((target.target, node.value, False))

            def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
                if node.value is not None:
                    bindings.append((node.target, node.value, False))

            def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
                bindings.append((node.target, node.value, False))

            def visit_For(self, node: cst.For) -> None:
                bindings.append((node.target, node.iter, True))

            def visit_CompFor(self, node: cst.CompFor) -> None:
                bindings.append((node.target, node.iter, True))

            def visit_WithItem(self, node: cst.WithItem) -> None:
                if node.asname is not None:
                    bindings.append((node.asname.name, node.item, False))

        body.visit(_Bindings())
        # fixpoint: `node = self.root` then `node = node.children[c]` chains through earlier aliases
        for _ in range(len(bindings) + 1):
            changed = False
            for target, value, iterated in bindings:
                root = scanner._iteration_root(value) if iterated else scanner.root_attribute(value)
                if root is not None:
                    before = len(scanner.aliases)
                    scanner._bind(target, root)
                    changed |= before != len(scanner.aliases)
            if not changed:
                break

    # -- pass 2: accesses ----------------------------------------------------------------------------
    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.is_self_base(node.value):
            self._classify(node, node.attr.value, through_alias=False)

    def visit_Name(self, node: cst.Name) -> None:
        if self._context(node) != ExpressionContext.LOAD:
            return
        parent = self._parent(node)
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            return  # `x.name` is an attribute named like a local, not a use of the local
        if node.value in self.aliases:
            self._classify(node, self.aliases[node.value], through_alias=True)
        if node.value in self.imports:
            self.libraries.append(self.imports[node.value])

    def visit_Call(self, node: cst.Call) -> None:
        name = _dotted(node.func)
        if name in {"getattr", "setattr", "delattr", "hasattr"} and len(node.args) >= 2:
            target, attr = node.args[0].value, node.args[1].value
            if self.is_self_base(target) and isinstance(attr, cst.SimpleString):
                attribute = attr.evaluated_value
                if isinstance(attribute, str):
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
        mutators = MUTATING_FUNCTIONS.get(origin or "", frozenset())
        if function in mutators and node.args:
            attribute = self.root_attribute(node.args[0].value)
            if attribute is not None:
                self.writes.append(attribute)
                if function in {"heappop", "heapreplace", "heappushpop"}:
                    self.reads.append(attribute)

    def _classify(self, base: cst.BaseExpression, attribute: str, *, through_alias: bool) -> None:
        if not through_alias and attribute in self.method_names:
            self.calls.append(attribute)  # a call, a reference handed on, or a property get/set
            return
        if not through_alias and attribute == "__class__":
            return
        context = self._context(base)
        if not through_alias and context in (ExpressionContext.STORE, ExpressionContext.DEL):
            self.writes.append(attribute)
            if isinstance(self._parent(base), cst.AugAssign):
                self.reads.append(attribute)
            return
        current: cst.CSTNode = base
        while True:
            parent = self._parent(current)
            if isinstance(parent, cst.Attribute) and parent.value is current:
                grand = self._parent(parent)
                if isinstance(grand, cst.Call) and grand.func is parent:
                    method = parent.attr.value
                    if method in MUTATING_METHODS:
                        self.writes.append(attribute)
                        if method in RETURNING_MUTATORS and not through_alias:
                            self.reads.append(attribute)
                        return
                if self._context(parent) in (ExpressionContext.STORE, ExpressionContext.DEL):
                    self._write(attribute, parent, through_alias)
                    return
                current = parent
            elif isinstance(parent, cst.Subscript) and parent.value is current:
                if self._context(parent) in (ExpressionContext.STORE, ExpressionContext.DEL):
                    self._write(attribute, parent, through_alias)
                    return
                current = parent
            else:
                break
        if not through_alias:
            self.reads.append(attribute)

    def _write(self, attribute: str, target: cst.CSTNode, through_alias: bool) -> None:
        self.writes.append(attribute)
        if isinstance(self._parent(target), cst.AugAssign) and not through_alias:
            self.reads.append(attribute)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _scan_method(
    module: cst.Module,
    node: cst.FunctionDef,
    *,
    class_name: str,
    method_names: frozenset[str],
    imports: dict[str, str],
) -> tuple[list[str], list[str], list[str], list[str]]:
    kind = _method_kind(node)
    first = _first_param(node)
    self_names = {class_name}
    if kind != "static" and first is not None:
        self_names.add(first)
    local_imports = import_bindings(node.body.children if isinstance(node.body, cst.IndentedBlock) else [node.body])
    local_imports.update(_nested_imports(node.body))
    scanner = _MethodScanner(
        self_names=frozenset(self_names), method_names=method_names, imports={**imports, **local_imports}
    )
    # a sub-module keeps the metadata resolution to this method; positions do not matter here
    wrapper = MetadataWrapper(cst.Module(body=[node.with_changes(decorators=())]), unsafe_skip_copy=True)
    scanner.collect_aliases(node.body)
    wrapper.visit(scanner)
    return scanner.reads, scanner.writes, scanner.calls, scanner.libraries


def _nested_imports(body: cst.BaseSuite) -> dict[str, str]:
    """Imports anywhere inside a method body (they are local to it)."""
    bindings: dict[str, str] = {}

    class _All(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            bindings.update(import_bindings([node]))

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            bindings.update(import_bindings([node]))

    body.visit(_All())
    return bindings


@functools.lru_cache(maxsize=256)
def class_facts(source: str, class_name: str) -> ClassFacts:
    """Static facts of the top-level class `class_name` in `source`.

    Raises libcst.ParserSyntaxError on unparsable source and ClassNotFound when the class is absent.

    Memoised on (source, class name): the gate asks for the same class's facts for its static edges and
    again for the skeleton's kept constructor, and the release for its rows; the scan (a metadata pass per
    method) was the largest in-process cost of the gate. The facts are frozen; nothing may mutate them.
    """
    module = cst.parse_module(source)
    cls = find_class(module, class_name)
    imports = import_bindings(module.body)
    functions: list[cst.FunctionDef] = []
    class_attributes: list[str] = []
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else cls.body.body
    for stmt in body:
        if isinstance(stmt, cst.FunctionDef):
            functions.append(stmt)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                targets: list[cst.BaseExpression] = []
                if isinstance(small, cst.Assign):
                    targets = [t.target for t in small.targets]
                elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                    targets = [small.target]
                for target in targets:
                    if isinstance(target, cst.Name):
                        class_attributes.append(target.value)
    method_names = frozenset(f.name.value for f in functions)
    merged: dict[str, dict[str, Any]] = {}
    for fn in functions:
        name = fn.name.value
        reads, writes, calls, libraries = _scan_method(
            module, fn, class_name=class_name, method_names=method_names, imports=imports
        )
        calls = [c for c in calls if c != name]  # recursion (and a property's setter using its getter)
        entry = merged.get(name)
        code = module.code_for_node(fn.with_changes(leading_lines=()))
        if entry is None:
            merged[name] = {
                "name": name,
                "kind": _method_kind(fn),
                "signature": signature_of(module, fn),
                "decorators": tuple(module.code_for_node(d.decorator) for d in fn.decorators),
                "docstring": _docstring_of(fn.body),
                "reads": reads,
                "writes": writes,
                "calls": calls,
                "libraries": libraries,
                "source": code,
                "description": _description(module, fn),
            }
        else:  # property setter/deleter, or a redefinition: merge into the first definition
            entry["reads"] = entry["reads"] + reads
            entry["writes"] = entry["writes"] + writes
            entry["calls"] = entry["calls"] + calls
            entry["libraries"] = entry["libraries"] + libraries
            entry["source"] = entry["source"] + "\n" + code
    methods = tuple(
        MethodFacts(
            name=e["name"],
            kind=e["kind"],
            signature=e["signature"],
            decorators=e["decorators"],
            docstring=e["docstring"],
            reads=tuple(sorted(set(e["reads"]))),
            writes=tuple(sorted(set(e["writes"]))),
            calls=tuple(sorted(set(e["calls"]))),
            libraries=tuple(sorted(set(e["libraries"]))),
            source=e["source"],
            description=e["description"],
        )
        for e in merged.values()
    )
    # instance fields in order of first write, __init__ first
    ordered = sorted(methods, key=lambda m: 0 if m.is_init else 1)
    fields = _unique(w for m in ordered for w in _writes_in_order(m) if w not in class_attributes)
    return ClassFacts(
        name=class_name,
        docstring=_docstring_of(cls.body),
        methods=methods,
        fields=fields,
        class_attributes=_unique(class_attributes),
        module_imports=imports,
    )


def _writes_in_order(method: MethodFacts) -> Sequence[str]:
    # `writes` is sorted; re-derive first-appearance order from the source for a readable field list
    positions = {w: method.source.find(f".{w}") for w in method.writes}
    return sorted(method.writes, key=lambda w: (positions[w] if positions[w] >= 0 else 1 << 30, w))


def edges_from_facts(facts: ClassFacts) -> list[Edge]:
    """Interaction edges of a class (see the module docstring), sorted: calls first, then state."""
    edges: set[Edge] = set()
    for method in facts.methods:
        for callee in method.calls:
            if callee != method.name:
                edges.add(Edge("call", method.name, callee, None))
    for writer in facts.methods:
        if writer.is_init:
            continue
        for reader in facts.methods:
            if reader.is_init or reader.name == writer.name:
                continue
            for attribute in set(writer.writes) & set(reader.reads):
                edges.add(Edge("state", writer.name, reader.name, attribute))
    order = {m.name: i for i, m in enumerate(facts.methods)}
    return sorted(
        edges,
        key=lambda e: (e.kind != "call", order.get(e.source, 0), order.get(e.target, 0), e.attribute or ""),
    )


def static_edges(source: str, class_name: str) -> list[Edge]:
    """Interaction edges of `class_name` in `source`: call edges and per-attribute state edges."""
    return edges_from_facts(class_facts(source, class_name))


def pair_count(edges: Iterable[Edge]) -> int:
    """Number of distinct (kind, source, target) pairs: state edges on several attributes count once."""
    return len({(e.kind, e.source, e.target) for e in edges})


# -- ClassEval per-method columns -------------------------------------------------------------------


def method_dependencies(method: MethodFacts) -> dict[str, Any]:
    """ClassEval's dependency dict for one method (key names as ClassEval spells them).

    ``field_dependencies`` lists attributes read or written, as ``self.x`` (ClassEval's spelling);
    ``Standalone`` is True when the method uses no field, no other method of the class and no library.
    """
    fields_used = sorted(set(method.reads) | set(method.writes))
    return {
        "Standalone": not (fields_used or method.calls or method.libraries),
        "lib_dependencies": list(method.libraries),
        "field_dependencies": [f"self.{f}" for f in fields_used],
        "method_dependencies": list(method.calls),
    }


def _method_description(method: MethodFacts) -> str:
    """Decorators, signature and docstring as the solver sees them (ClassEval's method_description)."""
    return method.description


def _top_level_tests(test_code: str) -> list[tuple[str, bool, str]]:
    """(name, is a class, source) of every top-level test function or class of `test_code`, parsed once.

    Why once: `methods_info` asks which tests mention each method; parsing the test module again per
    method made the release stage spend most of its time in the libcst parser.
    """
    if not test_code.strip():
        return []
    try:
        module = cst.parse_module(test_code)
    except cst.ParserSyntaxError:
        return []
    return [(stmt.name.value, isinstance(stmt, cst.ClassDef), module.code_for_node(stmt).strip("\n"))
            for stmt in module.body
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and stmt.name.value.lower().startswith("test")]


def _tests_using(tests: Sequence[tuple[str, bool, str]], method_name: str) -> tuple[str, str]:
    """(test class name or "", source of the top-level tests that mention `.method_name`)."""
    pattern = re.compile(rf"\.{re.escape(method_name)}\b")
    chunks: list[str] = []
    test_class = ""
    for name, is_class, code in tests:
        if pattern.search(code):
            chunks.append(code)
            if is_class and not test_class:
                test_class = name
    return test_class, "\n\n\n".join(chunks)


def methods_info(source: str, class_name: str, test_code: str = "", *,
                 facts: ClassFacts | None = None) -> list[dict[str, Any]]:
    """ClassEval's ``methods_info`` entries for every method except ``__init__`` (ClassEval keeps the
    constructor in ``class_constructor``), in source order.

    Each dict has the keys of `pipeline.records.MethodInfo` (``MethodInfo.model_validate(d)`` builds one):
    method_name, method_description, test_class, test_code (the top-level tests of `test_code` that mention
    ``.method_name``), solution_code, dependencies. `facts`, when the caller already has them, saves a
    second analysis of `source`.
    """
    facts = facts if facts is not None else class_facts(source, class_name)
    tests = _top_level_tests(test_code)
    out: list[dict[str, Any]] = []
    for method in facts.methods:
        if method.is_init:
            continue
        test_class, method_tests = _tests_using(tests, method.name)
        out.append(
            {
                "method_name": method.name,
                "method_description": _method_description(method),
                "test_class": test_class,
                "test_code": method_tests,
                "solution_code": method.source,
                "dependencies": method_dependencies(method),
            }
        )
    return out
