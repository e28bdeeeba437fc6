"""Static facts about one class that the synthesis transforms need, read with `ast` (nothing runs).

The transforms must know which methods change state (to make them undoable, lockable or counted), which
are pure queries (to combine into a summary), which fields `__init__` sets (to snapshot and restore them)
and what each parameter's annotation is (to validate inputs and to find bridge types for composition).

It reads the same shared `ast` tree as `core.analysis.class_facts` (`core.analysis.parsed`), but
keeps its own read/write rules, which are close to the gate's and not equal: a container whose method
mutates it (``self.x.append``) is also read here; the mutating names differ (``heappush`` as a method
here; ``put``, ``write``, ``subtract`` there); a write through the result of a helper
(``deal = self._open_deal(name); deal["stage"] = s``) writes what the helper reads; ``setattr(self, ...)``
writes "*"; only direct ``self.m(...)`` calls are calls (no property reads, no method references), and
recursion stays. Measured on the 55 seeds, the gate's rules would give 5 seeds another set of mutators,
and so other synthesised classes; the generated candidates are kept as they are, so the rules are too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from core.analysis.parsed import find_class_node, parsed

MUTATING_METHODS = frozenset(
    {
        "append", "appendleft", "extend", "extendleft", "insert", "pop", "popleft", "popitem", "remove",
        "clear", "update", "add", "discard", "setdefault", "sort", "reverse", "rotate", "move_to_end",
        "difference_update", "intersection_update", "symmetric_difference_update", "__setitem__",
        "__delitem__", "heappush", "heappop", "heapreplace", "heappushpop", "heapify",
    }
)
"""Method names that change their receiver in place (list, dict, set, deque, OrderedDict, heapq)."""

HEAPQ_FUNCTIONS = frozenset({"heappush", "heappop", "heapreplace", "heappushpop", "heapify", "insort", "insort_left", "insort_right"})
"""Module functions that mutate their first argument (`heapq.heappush(self.heap, x)`, `bisect.insort`)."""


@dataclass(frozen=True)
class Param:
    """One parameter of a method (never `self`/`cls`)."""

    name: str
    annotation: str | None
    has_default: bool
    kind: str  # "positional" | "keyword" | "varargs" | "varkw"


@dataclass
class MethodModel:
    """What one method reads, writes and calls through `self`."""

    name: str
    kind: str  # "instance" | "static" | "class" | "property" | "other"
    params: tuple[Param, ...]
    returns: str | None
    docstring: str | None
    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)
    calls: set[str] = field(default_factory=set)
    returns_value: bool = False
    lineno: int = 0

    @property
    def public(self) -> bool:
        return not self.name.startswith("_")

    @property
    def required_params(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if not p.has_default and p.kind in ("positional", "keyword"))

    @property
    def simple_signature(self) -> bool:
        """No *args/**kwargs: a call can be built from literal arguments alone."""
        return all(p.kind in ("positional", "keyword") for p in self.params)


@dataclass
class ClassModel:
    """Static facts about a class and the module around it."""

    name: str
    docstring: str | None
    methods: dict[str, MethodModel]
    fields: tuple[str, ...]  # attributes `__init__` assigns on self, in source order
    class_attributes: tuple[str, ...]
    module_names: tuple[str, ...]  # top-level names other than the class (imports, helpers, constants)
    mutators: frozenset[str] = frozenset()
    self_referencing: bool = False  # builds new instances of itself (cls(...), type(self)(...), ClassName(...))
    source: str = ""  # the module's source, for checks that read more than these facts (synthesis preconditions)

    def public_methods(self) -> list[MethodModel]:
        """Public instance methods other than dunders, in source order."""
        return [m for m in self.methods.values() if m.public and m.kind == "instance"]

    def public_mutators(self) -> list[MethodModel]:
        return [m for m in self.public_methods() if m.name in self.mutators]

    def queries(self) -> list[MethodModel]:
        """Public instance methods that change nothing, take no required argument and return a value."""
        return [
            m
            for m in self.public_methods()
            if m.name not in self.mutators and not m.required_params and m.simple_signature and m.returns_value
            and (m.returns or "") not in ("None",)
        ]

    def reach(self, name: str) -> tuple[frozenset[str], frozenset[str]]:
        """(attributes read, attributes written) by method `name` and every method it calls through `self`,
        transitively: what a call of it can see and change."""
        seen, todo = {name}, [name]
        while todo:
            method = self.methods.get(todo.pop())
            for callee in method.calls if method else ():
                if callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
        found = [self.methods[m] for m in seen if m in self.methods]
        return frozenset().union(*(m.reads for m in found)), frozenset().union(*(m.writes for m in found))

    def fields_written_outside_init(self) -> set[str]:
        outside: set[str] = set()
        for method in self.methods.values():
            if method.name != "__init__":
                outside |= method.writes
        return outside - set(self.fields)


def _annotation(node: ast.expr | None) -> str | None:
    return ast.unparse(node) if node is not None else None


def _params(args: ast.arguments, drop_first: bool) -> tuple[Param, ...]:
    positional = list(args.posonlyargs) + list(args.args)
    if drop_first and positional:
        positional = positional[1:]
    defaults_start = len(list(args.posonlyargs) + list(args.args)) - len(args.defaults)
    offset = 1 if drop_first else 0
    params: list[Param] = []
    for index, arg in enumerate(positional):
        params.append(Param(arg.arg, _annotation(arg.annotation), index + offset >= defaults_start, "positional"))
    if args.vararg:
        params.append(Param(args.vararg.arg, _annotation(args.vararg.annotation), True, "varargs"))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        params.append(Param(arg.arg, _annotation(arg.annotation), default is not None, "keyword"))
    if args.kwarg:
        params.append(Param(args.kwarg.arg, _annotation(args.kwarg.annotation), True, "varkw"))
    return tuple(params)


def _self_attr_root(node: ast.expr, self_name: str) -> str | None:
    """For `self.x`, `self.x[k]`, `self.x.y[k]`: the first attribute name `x`; else None."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_name:
            return node.attr
        node = node.value
    return None


class _MethodVisitor(ast.NodeVisitor):
    def __init__(self, model: MethodModel, self_name: str, class_name: str, method_names: set[str]) -> None:
        self.model = model
        self.self_name = self_name
        self.class_name = class_name
        self.method_names = method_names
        self.aliases: dict[str, str] = {}  # local variable -> self field it was read from
        self.self_referencing = False

    def _root(self, node: ast.expr) -> str | None:
        root = _self_attr_root(node, self.self_name)
        if root is None:
            base = node
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name) and base.id in self.aliases and base is not node:
                return self.aliases[base.id]
        if root is not None and root in self.method_names:
            return None
        return root

    def _store(self, target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._store(element)
            return
        if isinstance(target, ast.Starred):
            self._store(target.value)
            return
        root = self._root(target)
        if root is None and isinstance(target, (ast.Subscript, ast.Attribute)):
            base = target
            while isinstance(base, (ast.Subscript, ast.Attribute)):
                base = base.value
            if isinstance(base, ast.Name) and base.id in self.aliases:
                root = self.aliases[base.id]
        if root is not None:
            self.model.writes.add(root)

    def _chain_root(self, node: ast.expr) -> str | None:
        """Root of an access chain (`self.x`, `self.x[k]`, `self.x.get(k)`, `self.m(...)`, `alias[k]`).

        A method call's root is "method:<name>": what such a call returns is resolved later to the fields
        that method reads, so that `deal = self._open_deal(name); deal["stage"] = s` writes `deals`.
        """
        while True:
            if isinstance(node, ast.Call):
                node = node.func
            elif isinstance(node, ast.Subscript):
                node = node.value
            elif isinstance(node, ast.Attribute):
                if isinstance(node.value, ast.Name) and node.value.id == self.self_name:
                    return ("method:" + node.attr) if node.attr in self.method_names else node.attr
                node = node.value
            elif isinstance(node, ast.Name):
                return self.aliases.get(node.id)
            else:
                return None

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._store(target)
        value_root = self._chain_root(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                if value_root is not None:
                    self.aliases[target.id] = value_root
                else:
                    self.aliases.pop(target.id, None)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._store(node.target)
        root = self._root(node.target)
        if root is not None:
            self.model.reads.add(root)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._store(node.target)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._store(target)
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        root = self._chain_root(node.iter)
        if root is not None:
            for target in ast.walk(node.target):
                if isinstance(target, ast.Name):
                    self.aliases[target.id] = root
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            if isinstance(func.value, ast.Name) and func.value.id in (self.self_name, "cls", self.class_name):
                if func.attr in self.method_names:
                    self.model.calls.add(func.attr)
            if func.attr in MUTATING_METHODS:
                root = self._root(func.value)
                if root is not None:
                    self.model.writes.add(root)
            if func.attr in HEAPQ_FUNCTIONS and node.args:
                root = self._root(node.args[0])
                if root is not None:
                    self.model.writes.add(root)
        elif isinstance(func, ast.Name):
            if func.id in HEAPQ_FUNCTIONS and node.args:
                root = self._root(node.args[0])
                if root is not None:
                    self.model.writes.add(root)
            if func.id in ("cls", self.class_name):
                self.self_referencing = True
            if func.id in ("setattr", "delattr") and node.args and isinstance(node.args[0], ast.Name):
                if node.args[0].id == self.self_name:
                    self.model.writes.add("*")
        elif isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "type":
            self.self_referencing = True
        if isinstance(func, ast.Attribute) and func.attr == "__class__":
            self.self_referencing = True
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.value, ast.Name) and node.value.id == self.self_name:
            if isinstance(node.ctx, ast.Load) and node.attr not in self.method_names:
                self.model.reads.add(node.attr)
            if node.attr == "__class__":
                self.self_referencing = True
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            self.model.returns_value = True
        self.generic_visit(node)

    def visit_Yield(self, node: ast.Yield) -> None:
        self.model.returns_value = True
        self.generic_visit(node)


def _docstring(node: ast.AST) -> str | None:
    return ast.get_docstring(node, clean=True)  # type: ignore[arg-type]


def analyse(source: str, class_name: str, bookkeeping: frozenset[str] = frozenset()) -> ClassModel:
    """Read the facts of `class_name` in `source`; raises SyntaxError or ClassNotFound (a LookupError).

    Fields named in `bookkeeping` (counters and stacks that features add) are left out of reads and
    writes, so that counting a call does not turn a query into a mutator.
    """
    tree = parsed(source).tree  # shared with class_facts and the other readers of this source; read only
    cls = find_class_node(tree, class_name)
    defs = [n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    methods, self_referencing = _method_models(defs, class_name)
    init = next((d for d in defs if d.name == "__init__"), None)
    model = ClassModel(
        name=class_name,
        docstring=_docstring(cls),
        methods=methods,
        fields=tuple(_init_fields(init)) if init is not None else (),
        class_attributes=tuple(_class_attributes(cls)),
        module_names=tuple(_module_names(tree, class_name)),
        self_referencing=self_referencing,
        source=source,
    )
    for method in methods.values():
        method.reads -= bookkeeping
        method.writes -= bookkeeping
    _resolve_method_aliases(methods)
    model.mutators = _close_mutators(methods)
    return model


def _method_kind(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """static, class, property, other (any other decorator, or async) or instance."""
    decorators = [ast.unparse(d) for d in node.decorator_list]
    if "staticmethod" in decorators:
        return "static"
    if "classmethod" in decorators:
        return "class"
    if "property" in decorators or any(d.endswith((".setter", ".deleter")) for d in decorators):
        return "property"
    if decorators or isinstance(node, ast.AsyncFunctionDef):
        return "other"
    return "instance"


def _method_models(defs: list[ast.FunctionDef | ast.AsyncFunctionDef],
                   class_name: str) -> tuple[dict[str, MethodModel], bool]:
    """Each method's model by name (a property setter shares its getter's name: the first is kept), and
    whether any method refers to the instance's own class."""
    names = {d.name for d in defs}
    methods: dict[str, MethodModel] = {}
    self_referencing = False
    for node in defs:
        kind = _method_kind(node)
        model = MethodModel(
            name=node.name,
            kind=kind,
            params=_params(node.args, drop_first=kind != "static"),
            returns=_annotation(node.returns),
            docstring=_docstring(node),
            lineno=node.lineno,
        )
        positional = list(node.args.posonlyargs) + list(node.args.args)
        self_name = positional[0].arg if positional and kind != "static" else "self"
        visitor = _MethodVisitor(model, self_name, class_name, names)
        for statement in node.body:
            visitor.visit(statement)
        self_referencing = self_referencing or visitor.self_referencing
        if node.name in methods:
            continue
        methods[node.name] = model
    return methods, self_referencing


def _init_fields(init: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The `self.<field>`s the constructor assigns, in the order first assigned."""
    fields: list[str] = []
    for sub in ast.walk(init):
        targets: list[ast.expr] = []
        if isinstance(sub, ast.Assign):
            targets = list(sub.targets)
        elif isinstance(sub, (ast.AnnAssign, ast.AugAssign)):
            targets = [sub.target]
        for target in targets:
            elements = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            for element in elements:
                if isinstance(element, ast.Attribute) and isinstance(element.value, ast.Name) and element.value.id == "self":
                    if element.attr not in fields:
                        fields.append(element.attr)
    return fields


def _class_attributes(cls: ast.ClassDef) -> list[str]:
    """The names the class body assigns."""
    class_attributes: list[str] = []
    for node in cls.body:
        if isinstance(node, ast.Assign):
            class_attributes += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            class_attributes.append(node.target.id)
    return class_attributes


def _module_names(tree: ast.Module, class_name: str) -> list[str]:
    """The names the class's module defines or imports besides the class (what a fusion may have to rename)."""
    module_names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name != class_name:
            module_names.append(node.name)
        elif isinstance(node, ast.Assign):
            module_names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            module_names.append(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            module_names += [(a.asname or a.name).split(".")[0] for a in node.names]
    return module_names


def _resolve_method_aliases(methods: dict[str, MethodModel]) -> None:
    """Turn writes through "method:<m>" aliases into writes of the fields `m` reads (one level is enough
    for accessor helpers such as `_open_deal`)."""
    for method in methods.values():
        resolved: set[str] = set()
        for written in method.writes:
            if written.startswith("method:"):
                helper = methods.get(written[len("method:"):])
                if helper is not None:
                    resolved |= {r for r in helper.reads if not r.startswith("method:")}
            else:
                resolved.add(written)
        method.writes = resolved


def _close_mutators(methods: dict[str, MethodModel]) -> frozenset[str]:
    """Methods that write state directly or through a method they call (fixed point over the call graph)."""
    return with_callers(methods, {name for name, m in methods.items() if m.writes})


def with_callers(methods: dict[str, MethodModel], names: set[str] | frozenset[str]) -> frozenset[str]:
    """`names` and every method that calls one of them, directly or through other methods (a fixed point
    over the call graph); the constructor is never one of them."""
    found = set(names) - {"__init__"}
    changed = True
    while changed:
        changed = False
        for name, method in methods.items():
            if name not in found and name != "__init__" and method.calls & found:
                found.add(name)
                changed = True
    return frozenset(found)
