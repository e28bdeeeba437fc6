"""Static facts of one class: what each method reads, writes, calls and imports.

These facts feed the validation gate (the static interaction edges that the tests are asked to exercise),
synthesis (through `core.analysis.class_model`, which adds what the transforms need), release
(ClassEval's per-method dependency columns), mining and evaluation. Nothing here runs the code: it is safe
on untrusted sources. The facts are read from `ast` (`core.analysis.method_scan`), the text as written
from libcst when first asked for (`core.analysis.class_text`); both parse once per source
(`core.analysis.parsed`).

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

import ast
import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any, Literal

import libcst as cst

from core.analysis.class_text import ClassNotFound, ClassText, MethodText, docstring_statement, find_class
from core.analysis.method_scan import (
    MUTATING_FUNCTIONS,
    MUTATING_METHODS,
    RETURNING_MUTATORS,
    MethodScan,
    dotted,
    import_bindings,
)
from core.analysis.parsed import RECENT_SOURCES, find_class_node, parsed

MethodKind = Literal["instance", "static", "class", "property"]
EdgeKind = Literal["call", "state"]

_PROPERTY_DECORATORS = frozenset({"property", "cached_property"})
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

__all__ = [
    "MUTATING_FUNCTIONS", "MUTATING_METHODS", "RETURNING_MUTATORS", "ClassFacts", "ClassNotFound", "Edge",
    "MethodFacts", "class_facts", "docstring_statement", "edges_from_facts", "find_class", "method_dependencies",
    "methods_info", "pair_count", "static_edges",
]


@dataclass(frozen=True)
class Edge:
    """One static interaction edge between two methods of a class.

    ``attribute`` names the attribute written by ``source`` and read by ``target`` for a state edge, and is
    None for a call edge. Plain data (no pydantic) so that it crosses into the stdlib-only side of
    validation.sandbox.interaction as a dict (`to_dict` / `from_dict`).
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
    """What one method of the class is and does, as far as its source tells.

    The facts (kind, reads, writes, calls, libraries) come from `ast`; the text as written (signature,
    decorators, docstring, source, description) from libcst on first use (`core.analysis.class_text`).
    """

    name: str
    kind: MethodKind
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()
    class_text: ClassText | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> MethodText | None:
        return self.class_text.method(self.name) if self.class_text is not None else None

    @property
    def signature(self) -> str:
        """The `def` line(s) without decorators, ending with ':'."""
        return self.text.signature if self.text is not None else ""

    @property
    def decorators(self) -> tuple[str, ...]:
        return self.text.decorators if self.text is not None else ()

    @property
    def docstring(self) -> str | None:
        return self.text.docstring if self.text is not None else None

    @property
    def source(self) -> str:
        """Every definition of the method as written (a property's setter after its getter)."""
        return self.text.source if self.text is not None else ""

    @property
    def description(self) -> str:
        """Decorators, signature and docstring, no body."""
        return self.text.description if self.text is not None else ""

    @property
    def is_init(self) -> bool:
        return self.name == "__init__"


@dataclass(frozen=True)
class ClassFacts:
    """Static facts of one class: its methods (in source order) and its fields."""

    name: str
    methods: tuple[MethodFacts, ...]
    class_attributes: tuple[str, ...] = ()
    module_imports: dict[str, str] = field(default_factory=dict)
    text: ClassText | None = field(default=None, repr=False, compare=False)

    def method(self, name: str) -> MethodFacts:
        for m in self.methods:
            if m.name == name:
                return m
        raise KeyError(f"class {self.name} has no method {name!r}")

    @property
    def method_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.methods)

    @property
    def docstring(self) -> str | None:
        return self.text.docstring if self.text is not None else None

    @cached_property
    def fields(self) -> tuple[str, ...]:
        """Attributes written through self anywhere (instance state), in order of first write, `__init__`'s
        first (the order is read from the methods' text)."""
        ordered = sorted(self.methods, key=lambda m: 0 if m.is_init else 1)
        return _unique(w for m in ordered for w in _writes_in_order(m) if w not in self.class_attributes)


def _method_kind(node: ast.FunctionDef | ast.AsyncFunctionDef) -> MethodKind:
    kind: MethodKind = "instance"
    for decorator in node.decorator_list:
        name = dotted(decorator.func if isinstance(decorator, ast.Call) else decorator)
        last = name.rsplit(".", 1)[-1]
        if last == "staticmethod":
            return "static"
        if last == "classmethod":
            kind = "class"
        elif last in _PROPERTY_DECORATORS or last in {"setter", "getter", "deleter"}:
            return "property"
    return kind


def _one_line_body(cls: ast.ClassDef, source: str) -> bool:
    """`class A: x = 1`: libcst keeps such a body apart (a statement suite) and finds no members in it."""
    first = cls.body[0]
    # lines as the parser counts them (str.splitlines also splits at form feeds and other separators)
    line = _LINE_BREAK.split(source, maxsplit=first.lineno)[first.lineno - 1]
    return bool(line.encode("utf-8")[: first.col_offset].strip())


def _class_attributes(cls: ast.ClassDef) -> list[str]:
    names: list[str] = []
    for stmt in cls.body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign):
            targets = list(stmt.targets)
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            targets = [stmt.target]
        names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def _scan(node: ast.FunctionDef | ast.AsyncFunctionDef, *, source: str, class_name: str,
          method_names: frozenset[str], imports: dict[str, str]) -> MethodScan:
    kind = _method_kind(node)
    positional = [*node.args.posonlyargs, *node.args.args]
    self_names = {class_name}
    if kind != "static" and positional:
        self_names.add(positional[0].arg)
    local = import_bindings(node.body, into_functions=True)
    return MethodScan(node, source=source, self_names=frozenset(self_names), method_names=method_names,
                      imports={**imports, **local}).run()


@functools.lru_cache(maxsize=RECENT_SOURCES)
def class_facts(source: str, class_name: str) -> ClassFacts:
    """Static facts of the top-level class `class_name` in `source`.

    Raises SyntaxError on unparsable source and ClassNotFound when the class is absent. The source is
    parsed once per process while recently used (`core.analysis.parsed`), the facts with `ast`; the
    text fields parse with libcst when first read.

    Memoised on (source, class name) for as many classes as `parsed` keeps: the gate asks for the same
    class's facts for its static edges and again for the skeleton's kept constructor, and the release for
    its rows. The facts are frozen; nothing may mutate them.
    """
    tree = parsed(source).tree
    cls = find_class_node(tree, class_name)
    imports = import_bindings(tree.body)
    one_line = _one_line_body(cls, source)
    functions = [] if one_line else [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    class_attributes = [] if one_line else _class_attributes(cls)
    method_names = frozenset(f.name for f in functions)
    merged: dict[str, dict[str, Any]] = {}
    for fn in functions:
        scan = _scan(fn, source=source, class_name=class_name, method_names=method_names, imports=imports)
        calls = [c for c in scan.calls if c != fn.name]  # recursion (and a property's setter using its getter)
        entry = merged.setdefault(fn.name, {"kind": _method_kind(fn), "reads": [], "writes": [], "calls": [],
                                            "libraries": []})
        # a property setter/deleter, or a redefinition, merges into the first definition
        entry["reads"] += scan.reads
        entry["writes"] += scan.writes
        entry["calls"] += calls
        entry["libraries"] += scan.libraries
    text = ClassText(source, class_name)
    methods = tuple(
        MethodFacts(
            name=name,
            kind=e["kind"],
            reads=tuple(sorted(set(e["reads"]))),
            writes=tuple(sorted(set(e["writes"]))),
            calls=tuple(sorted(set(e["calls"]))),
            libraries=tuple(sorted(set(e["libraries"]))),
            class_text=text,
        )
        for name, e in merged.items()
    )
    return ClassFacts(name=class_name, methods=methods, class_attributes=_unique(class_attributes),
                      module_imports=imports, text=text)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


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


@dataclass(frozen=True)
class _TopLevelTest:
    name: str
    is_class: bool
    source: str
    fixtures: tuple[str, ...]  # sources of the module's fixtures it takes, directly or through another fixture


def _is_fixture(statement: cst.CSTNode) -> bool:
    if not isinstance(statement, cst.FunctionDef):
        return False
    for decorator in statement.decorators:
        node = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "pytest" \
                and node.attr.value == "fixture":
            return True
    return False


def _top_level_tests(test_code: str) -> list[_TopLevelTest]:
    """Every top-level test function or class of `test_code`, with the fixtures it takes, parsed once.

    Why once: `methods_info` asks which tests mention each method; parsing the test module again per
    method made the release stage spend most of its time in the libcst parser.
    """
    if not test_code.strip():
        return []
    try:
        module = cst.parse_module(test_code)
    except cst.ParserSyntaxError:
        return []
    fixtures = {stmt.name.value: stmt for stmt in module.body if _is_fixture(stmt)}

    def taken(function: cst.FunctionDef) -> list[str]:
        out: list[str] = []
        todo = [p.name.value for p in function.params.params]
        while todo:
            name = todo.pop(0)
            if name in fixtures and name not in out:
                out.append(name)
                todo.extend(p.name.value for p in fixtures[name].params.params)
        return out

    return [_TopLevelTest(stmt.name.value, isinstance(stmt, cst.ClassDef), module.code_for_node(stmt).strip("\n"),
                          tuple(module.code_for_node(fixtures[f]).strip("\n") for f in
                                (taken(stmt) if isinstance(stmt, cst.FunctionDef) else ())))
            for stmt in module.body
            if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and stmt.name.value.lower().startswith("test")
            and stmt.name.value not in fixtures]


def _tests_using(tests: Sequence[_TopLevelTest], method_name: str) -> tuple[str, str]:
    """(test class name or "", source of the top-level tests that mention `.method_name`, in their own code
    or in a fixture they take; the fixtures they take come first, each once)."""
    pattern = re.compile(rf"\.{re.escape(method_name)}\b")
    fixtures: list[str] = []
    chunks: list[str] = []
    test_class = ""
    for test in tests:
        if pattern.search(test.source) or any(pattern.search(f) for f in test.fixtures):
            chunks.append(test.source)
            fixtures.extend(f for f in test.fixtures if f not in fixtures)
            if test.is_class and not test_class:
                test_class = test.name
    return test_class, "\n\n\n".join(fixtures + chunks)


def methods_info(source: str, class_name: str, test_code: str = "", *,
                 facts: ClassFacts | None = None) -> list[dict[str, Any]]:
    """ClassEval's ``methods_info`` entries for every method except ``__init__`` (ClassEval keeps the
    constructor in ``class_constructor``), in source order.

    Each dict has the keys of `core.records.MethodInfo` (``MethodInfo.model_validate(d)`` builds one):
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
