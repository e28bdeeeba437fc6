"""Where the values a class stores come from: per method, each field it writes (itself or through the
methods it calls) with the fields and parameters the written value derives from (read with `ast`, nothing
runs).

The seam check of a composed class (`validation/seam.py`) asks whether a value of one part's state reaches
the other part's state, and a person writing such a class sends it by many paths: assigned directly
(``self.balance += fee``), handed to a private helper that stores it (``self._charge(fee)``), returned by a
helper that computes it (``fee = self._fee_for(room)``), or written through an object a field holds
(``self.conn.execute("INSERT ...", (fee,))`` on a database connection, ``self.records.append(row)``). The
helpers' own summaries are applied at each call (parameters mapped to arguments), to a fixed point, so a
chain of helpers is followed whatever its depth.

A value also derives from what decides whether it is written: a write inside ``if self.rooms[r]:``, or after
``if guest in self.guests: raise ...`` (or after a helper that raises on such a check), happens because of
that state (control dependence). So a counter that one part's operation increments by a constant once its
own checks passed carries that operation to the counter; a method that writes a constant with no such
condition carries nothing.

What counts as a write through a held object: a call of any method on it other than the known read-only
ones (`READ_ONLY_METHODS`, and SQL ``SELECT`` statements), with the call's arguments as what was written.
Local names bound to a field (``acct = self.accounts[name]``, ``cur = self.conn.cursor()``) write that
field. Locals are tracked flow-insensitively (a name's sources are the union of everything bound to it);
nested functions and lambdas are not followed. An approximation that errs toward seeing a flow where a
method's statements could carry one, never toward inventing a source that no statement reads.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from core.analysis.class_model import HEAPQ_FUNCTIONS
from core.analysis.parsed import find_class_node, parsed

READ_ONLY_METHODS = frozenset({
    "get", "keys", "values", "items", "copy", "count", "index", "cursor", "fetchone", "fetchall", "fetchmany",
    "startswith", "endswith", "format", "join", "split", "rsplit", "splitlines", "strip", "lstrip", "rstrip",
    "lower", "upper", "title", "casefold", "replace", "encode", "decode", "find", "rfind", "partition",
    "isoformat", "total_seconds", "timestamp", "most_common", "elements", "issubset", "issuperset",
    "union", "intersection", "difference", "symmetric_difference", "isdisjoint", "bit_length", "hex",
    "is_integer", "as_integer_ratio", "__len__", "__contains__", "__getitem__", "__iter__",
})
"""Methods that only read the object they are called on (dict, list, set, str, numbers, a database cursor's
results): calling them on a field writes nothing."""

_COPIES = frozenset({"copy", "deepcopy", "__copy__"})
_QUERY_STATEMENT = ("select", "with", "pragma table_info", "explain")
_EXITS = (ast.Raise, ast.Return, ast.Continue, ast.Break)


def field_source(name: str) -> str:
    return f"field:{name}"


def param_source(name: str) -> str:
    return f"param:{name}"


@dataclass(frozen=True)
class MethodFlow:
    """What one method does with the state it reads, its own statements and its callees' together."""

    params: tuple[str, ...]  # positional and keyword parameters, without self
    writes: Mapping[str, frozenset[str]]  # field -> the sources ("field:x", "param:p") of what is written there
    returns: frozenset[str]  # the sources of the returned value
    guards: frozenset[str]  # the sources that decide whether it raises

    def observes(self) -> frozenset[str]:
        """The fields whose value decides something other than their own update: what the method returns,
        whether it raises, or what it writes to another field. ``self.total += fee`` does not observe
        `total`; ``if amount > self.total: raise`` and ``return self.total`` do."""
        seen = set(self.returns | self.guards)
        seen |= {s for name, sources in self.writes.items() for s in sources if s != field_source(name)}
        return frozenset(s[len("field:"):] for s in seen if s.startswith("field:"))


@dataclass
class _Facts:
    writes: dict[str, set[str]] = field(default_factory=dict)
    returns: set[str] = field(default_factory=set)
    guards: set[str] = field(default_factory=set)
    locals: dict[str, set[str]] = field(default_factory=dict)
    aliases: dict[str, set[str]] = field(default_factory=dict)  # local name -> the fields it holds a part of

    def size(self) -> int:
        return (sum(len(v) for v in self.writes.values()) + len(self.returns) + len(self.guards)
                + sum(len(v) for v in self.locals.values()) + sum(len(v) for v in self.aliases.values()))


def state_flows(source: str, class_name: str) -> dict[str, MethodFlow]:
    """Every method's flow (see the module docstring), by name. Raises SyntaxError or LookupError when the
    class cannot be read."""
    cls = find_class_node(parsed(source).tree, class_name)
    defs = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    flows = {name: MethodFlow(_parameters(node)[1], {}, frozenset(), frozenset()) for name, node in defs.items()}
    for _ in range(len(defs) + 2):  # each round lets a summary reach one more caller; the chains are short
        changed = False
        for name, node in defs.items():
            new = _MethodReader(node, flows).read()
            if new != flows[name]:
                flows[name], changed = new, True
        if not changed:
            break
    return flows


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str | None, tuple[str, ...]]:
    """(the instance's name or None for a static method, the other parameters by name in order)."""
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    positional = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    me = positional[0] if positional and not static else None
    rest = positional if static else positional[1:]
    extra = [a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None]
    return me, tuple([*rest, *(a.arg for a in node.args.kwonlyargs), *extra])


class _MethodReader:
    """One method's statements, read with its callees' current summaries."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef, flows: Mapping[str, MethodFlow]) -> None:
        self.node = node
        self.flows = flows
        self.me, self.params = _parameters(node)
        self.facts = _Facts(locals={name: {param_source(name)} for name in self.params})

    def read(self) -> MethodFlow:
        before = -1
        while before != self.facts.size():  # locals are flow-insensitive: read again until nothing grows
            before = self.facts.size()
            self._block(self.node.body, set())
        return MethodFlow(self.params, {k: frozenset(v) for k, v in self.facts.writes.items()},
                          frozenset(self.facts.returns), frozenset(self.facts.guards))

    # --- expressions -------------------------------------------------------------------------------------

    def _self_attr(self, node: ast.AST) -> str | None:
        return node.attr if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and self.me is not None and node.value.id == self.me else None

    def _method_call(self, node: ast.AST) -> str | None:
        name = self._self_attr(node.func) if isinstance(node, ast.Call) else None
        return name if name in self.flows else None

    def sources(self, node: ast.AST | None) -> set[str]:
        """The fields and parameters the value of `node` derives from."""
        if node is None or isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
            return set()
        if isinstance(node, ast.Name):
            return set(self.facts.locals.get(node.id, ()))
        if (name := self._self_attr(node)) is not None:  # a property read gives what the property returns
            return set(self.flows[name].returns) if name in self.flows else {field_source(name)}
        if isinstance(node, ast.Call) and (callee := self._method_call(node)) is not None:
            binding = self._binding(callee, node)
            flow = self.flows[callee]
            return self._mapped(flow.returns | flow.guards, binding)
        out: set[str] = set()
        for child in ast.iter_child_nodes(node):
            out |= self.sources(child)
        return out

    def _binding(self, callee: str, call: ast.Call) -> dict[str, set[str]]:
        """Parameter of `callee` -> the sources of the argument passed to it. A starred argument hides which
        is which: then every parameter gets every argument's sources."""
        params = self.flows[callee].params
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            every = set().union(*(self.sources(a) for a in [*call.args, *(k.value for k in call.keywords)]))
            return {p: every for p in params}
        binding = {p: self.sources(a) for p, a in zip(params, call.args)}
        binding |= {k.arg: self.sources(k.value) for k in call.keywords if k.arg is not None}
        return binding

    @staticmethod
    def _mapped(sources: Iterable[str], binding: Mapping[str, set[str]]) -> set[str]:
        out: set[str] = set()
        for source in sources:
            out |= set(binding.get(source[len("param:"):], ())) if source.startswith("param:") else {source}
        return out

    def _root(self, node: ast.AST) -> set[str]:
        """The fields an access chain reaches into (``self.x``, ``self.x[k].y``, ``self.x.get(k)``, a local
        alias of one, what a helper returns of them)."""
        while True:
            if (name := self._self_attr(node)) is not None:
                return set() if name in self.flows else {name}
            if isinstance(node, ast.Call):
                if (callee := self._method_call(node)) is not None:  # ``deal = self._open_deal(name)``
                    return {s[len("field:"):] for s in self.flows[callee].returns if s.startswith("field:")}
                if isinstance(node.func, ast.Attribute) and node.func.attr in _COPIES:
                    return set()  # ``self.x.copy()`` is a new object: writing it leaves `x` as it was
                node = node.func
            elif isinstance(node, (ast.Attribute, ast.Subscript)):
                node = node.value
            elif isinstance(node, ast.Name):
                return set(self.facts.aliases.get(node.id, ()))
            else:
                return set()

    # --- statements --------------------------------------------------------------------------------------

    def _write(self, fields: Iterable[str], sources: set[str]) -> None:
        for name in fields:
            self.facts.writes.setdefault(name, set()).update(sources)

    def _bind(self, target: ast.AST, sources: set[str], value: ast.AST | None, ctx: set[str]) -> None:
        """Store `sources` (with the control context) into `target`: a local name, a field, or a part of one.
        A reset of a field (a literal stored in it whole: ``self.x = 0``, ``self.x = []``) stores what it
        stores whatever decided that it runs, so it carries no control context; an entry added
        (``self.x[k] = []``) and a local (``y = 1`` under ``if``) keep it."""
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._bind(element, sources, value, ctx)
        elif isinstance(target, ast.Starred):
            self._bind(target.value, sources, value, ctx)
        elif isinstance(target, ast.Name):
            self.facts.locals.setdefault(target.id, set()).update(sources | ctx)
            if value is not None and (held := self._root(value)):
                self.facts.aliases.setdefault(target.id, set()).update(held)
        else:
            keys = set().union(*(self.sources(s.slice) for s in ast.walk(target) if isinstance(s, ast.Subscript)))
            reset = _literal(value) and self._self_attr(target) is not None
            self._write(self._root(target), sources | keys | (set() if reset else ctx))
            self._into_local(target, sources | keys | ctx)

    def _into_local(self, node: ast.AST, sources: set[str]) -> None:
        """A local container changed in place (``out[k] = v``, ``out.append(v)``) holds what went in."""
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        if isinstance(node, ast.Name) and node.id != self.me and node.id in self.facts.locals:  # not a module
            self.facts.locals[node.id].update(sources)

    def _calls(self, node: ast.AST, ctx: set[str]) -> set[str]:
        """Apply the writes of every call in the expression `node`; return the guards of the methods it calls
        (what decides whether the statement completes)."""
        guards: set[str] = set()
        for call in (c for c in ast.walk(node) if isinstance(c, ast.Call)):
            arguments = set().union(*(self.sources(a) for a in [*call.args, *(k.value for k in call.keywords)]))
            if (callee := self._method_call(call)) is not None:
                flow, binding = self.flows[callee], self._binding(callee, call)
                for name, sources in flow.writes.items():
                    self._write([name], self._mapped(sources, binding) | ctx)
                guards |= self._mapped(flow.guards, binding)
            elif isinstance(call.func, ast.Attribute) and call.func.attr in HEAPQ_FUNCTIONS and call.args:
                self._write(self._root(call.args[0]), arguments | ctx)
            elif isinstance(call.func, ast.Name) and call.func.id in HEAPQ_FUNCTIONS and call.args:
                self._write(self._root(call.args[0]), arguments | ctx)
            elif isinstance(call.func, ast.Attribute) and self._writes_through(call):
                # ``self.x.clear()`` resets: with no argument a call writes nothing that a condition decided
                self._write(self._root(call.func.value), arguments | (ctx if call.args or call.keywords else set()))
            if isinstance(call.func, ast.Attribute) and call.func.attr not in READ_ONLY_METHODS \
                    and self._method_call(call) is None:
                self._into_local(call.func.value, arguments | ctx)
        return guards

    def _writes_through(self, call: ast.Call) -> bool:
        """Whether a method call on a held object may change it (see READ_ONLY_METHODS)."""
        assert isinstance(call.func, ast.Attribute)
        if call.func.attr in READ_ONLY_METHODS or not self._root(call.func.value):
            return False
        first = call.args[0] if call.args else None
        if call.func.attr in ("execute", "executemany", "executescript") and isinstance(first, ast.Constant) \
                and isinstance(first.value, str):
            return not first.value.strip().lower().startswith(_QUERY_STATEMENT)
        return True

    def _block(self, statements: list[ast.stmt], ctx: set[str]) -> set[str]:
        """Read a block under the control context `ctx`; return the sources that decide whether it exits
        early (a raise or return under a condition), which the statements after it depend on."""
        ctx = set(ctx)
        exits: set[str] = set()
        for statement in statements:
            decided = self._statement(statement, ctx)
            ctx |= decided
            exits |= decided
        return exits

    def _statement(self, node: ast.stmt, ctx: set[str]) -> set[str]:
        """Read one statement; return the sources that decide whether what follows it runs."""
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return set()
        own = [v for name, v in ast.iter_fields(node) if name not in ("body", "orelse", "finalbody", "handlers", "cases")]
        decided: set[str] = set()
        for value in own:
            for part in value if isinstance(value, list) else [value]:
                if isinstance(part, ast.AST):
                    for generator in (g for g in ast.walk(part) if isinstance(g, ast.comprehension)):
                        self._bind(generator.target, self.sources(generator.iter), generator.iter, ctx)
                    decided |= self._calls(part, ctx)
        return decided | self._effect(node, ctx | decided)

    def _effect(self, node: ast.stmt, ctx: set[str]) -> set[str]:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self._bind(target, self.sources(node.value), node.value, ctx)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            update = isinstance(node, ast.AugAssign)  # ``+= 1`` counts: an update, not a reset
            extra = self.sources(node.target) if update else set()
            self._bind(node.target, self.sources(node.value) | extra, None if update else node.value, ctx)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                if not isinstance(target, ast.Name):
                    self._bind(target, set(), None, ctx)
        elif isinstance(node, ast.Return):
            self.facts.returns |= self.sources(node.value) | ctx
            return set()
        elif isinstance(node, ast.Raise):
            self.facts.guards |= ctx
        elif isinstance(node, ast.Assert):
            tested = self.sources(node.test)
            self.facts.guards |= tested | ctx
            return tested
        else:
            return self._compound(node, ctx)
        return set()

    def _compound(self, node: ast.stmt, ctx: set[str]) -> set[str]:
        if isinstance(node, (ast.If, ast.While)):
            tested = self.sources(node.test)
            inner = ctx | tested
            exits = self._block(node.body, inner) | self._block(node.orelse, inner)
            return exits | (tested if _exits(node) else set())
        if isinstance(node, (ast.For, ast.AsyncFor)):
            looped = self.sources(node.iter)
            self._bind(node.target, looped, node.iter, ctx)
            return self._block(node.body, ctx | looped) | self._block(node.orelse, ctx)
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    self._bind(item.optional_vars, self.sources(item.context_expr), item.context_expr, ctx)
            return self._block(node.body, ctx)
        if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            exits = self._block(node.body, ctx)
            for handler in node.handlers:
                exits |= self._block(handler.body, ctx | exits)
            return exits | self._block(node.orelse, ctx | exits) | self._block(node.finalbody, ctx)
        if isinstance(node, ast.Match):
            subject = self.sources(node.subject)
            return set().union(*(self._block(case.body, ctx | subject) for case in node.cases)) | subject
        return set()


def _exits(node: ast.stmt) -> bool:
    """Whether a raise, return, break or continue sits anywhere in this statement (not in a nested def)."""
    todo: list[ast.AST] = [node]
    while todo:
        current = todo.pop()
        if isinstance(current, _EXITS):
            return True
        todo.extend(c for c in ast.iter_child_nodes(current)
                    if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)))
    return False


def _literal(node: ast.AST | None) -> bool:
    """A constant or an empty or literal container (``0``, ``None``, ``[]``, ``{}``, ``(1, 2)``)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _literal(k) for k in node.keys) and all(_literal(v) for v in node.values)
    return False
