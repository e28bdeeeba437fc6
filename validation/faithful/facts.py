"""Facts about the reference's methods, read with `ast`: which raise (or document a raise), which change the
object, which attributes they touch, which hold sets. The kinds decide from these whether a change is one a
correct implementation might make (independent checks, an unordered result)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from core.analysis.parsed import parsed
from core.analysis.statements import raises_clauses


class MethodFacts:
    """The class's methods as ast nodes: which raise, which attributes they touch, which are set-valued."""

    def __init__(self, source: str, class_name: str) -> None:
        tree = parsed(source).tree
        self.nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == class_name:
                self.nodes = {item.name: item for item in node.body
                              if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.set_attributes = self._set_attributes()

    def raises(self, name: str) -> bool:
        """Whether a method raises: a `raise` of its own, or an exception its docstring says it raises
        (`missing_for` documents the KeyError that `self.recipes[recipe]` raises for an unknown recipe)."""
        node = self.nodes.get(name)
        return node is not None and (any(isinstance(n, ast.Raise) for n in ast.walk(node))
                                     or bool(self.documented_raises(name)))

    def raised(self, name: str) -> set[str]:
        """Names of the exceptions a method raises itself or documents."""
        node = self.nodes.get(name)
        return raised_names(node) | set(self.documented_raises(name)) if node is not None else set()

    def documented_raises(self, name: str) -> dict[str, str]:
        """Exception name -> its `:raises X: when` clause in the method's docstring."""
        node = self.nodes.get(name)
        doc = (ast.get_docstring(node) or "") if node is not None else ""
        return raises_clauses(doc)

    def checked_arguments(self, call: ast.Call) -> list[ast.expr]:
        """The arguments of `self.m(...)` that `m`'s documented raises depend on: those passed for the
        parameters its `:raises` clauses name (``recipe`` in "if the recipe is unknown"). Every argument when
        the clauses name none of them, or `m` documents no raise: without the words, any argument may be
        what it checks."""
        callee = self_method(call)
        node = self.nodes.get(callee or "")
        clauses = " ".join(self.documented_raises(callee)) if callee and node is not None else ""
        if not clauses or node is None:
            return [*call.args, *(k.value for k in call.keywords)]
        words = set(re.findall(r"\w+", " ".join(self.documented_raises(callee).values())))
        params = [a.arg for a in node.args.args[1:]]  # without self
        chosen = [arg for param, arg in zip(params, call.args) if param in words]
        chosen += [k.value for k in call.keywords if k.arg in words]
        return chosen or [*call.args, *(k.value for k in call.keywords)]

    def writes(self, name: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether a method changes `self` state: a store through `self`, a mutating call on a `self`
        attribute, or a call of another method that does."""
        node = self.nodes.get(name)
        if node is None or name in seen:
            return False
        for n in ast.walk(node):
            targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else \
                [n.target] if isinstance(n, (ast.AugAssign, ast.AnnAssign)) else []
            if any(on_self(t) for t in targets):
                return True
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                if n.func.attr in MUTATORS and on_self(n.func.value):
                    return True
                if isinstance(n.func.value, ast.Name) and n.func.value.id == "self" and \
                        self.writes(n.func.attr, seen | {name}):
                    return True
        return False

    def touched(self, name: str) -> set[str]:
        """`self.x` attributes a method reads or writes (one level: for guard independence)."""
        node = self.nodes.get(name)
        if node is None:
            return set()
        return {f"self.{n.attr}" for n in ast.walk(node) if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name) and n.value.id == "self"}

    def _set_attributes(self) -> set[str]:
        out = set()
        for node in self.nodes.values():
            for n in ast.walk(node):
                targets: list[ast.expr] = []
                value = None
                if isinstance(n, ast.Assign):
                    targets, value = n.targets, n.value
                elif isinstance(n, ast.AnnAssign) and n.value is not None:
                    targets, value = [n.target], n.value
                if value is not None and set_valued(value, set()):
                    out.update(t.attr for t in targets if isinstance(t, ast.Attribute)
                               and isinstance(t.value, ast.Name) and t.value.id == "self")
        return out


MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard",
                       "setdefault", "popitem", "sort", "reverse"})


def on_self(node: ast.AST) -> bool:
    """`self.x`, `self.x[k]`, `self.x.y`: a place inside the instance."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            return True
        node = node.value
    return False


def raised_names(node: ast.AST) -> set[str]:
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Raise) and n.exc is not None:
            exc = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
            if isinstance(exc, ast.Name):
                out.add(exc.id)
            elif isinstance(exc, ast.Attribute):
                out.add(exc.attr)
    return out


def set_valued(node: ast.expr, set_names: set[str], set_attributes: Iterable[str] = ()) -> bool:
    """Whether an expression is a set: a set display or comprehension, set()/frozenset(), set operators of
    sets, a local name or `self` attribute known to hold one."""
    if isinstance(node, (ast.Set, ast.SetComp)):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset"):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.BitAnd, ast.Sub, ast.BitXor)):
        return set_valued(node.left, set_names, set_attributes) and set_valued(node.right, set_names, set_attributes)
    if isinstance(node, ast.Name):
        return node.id in set_names
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr in set(set_attributes)
    return False


def set_derived_sequence(node: ast.expr, set_names: set[str], set_attributes: set[str]) -> bool:
    """A list or tuple whose order is a set's iteration order: list(S), tuple(S), [.. for x in S]."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple")
            and len(node.args) == 1):
        return set_valued(node.args[0], set_names, set_attributes)
    if isinstance(node, ast.ListComp) and len(node.generators) == 1:
        return set_valued(node.generators[0].iter, set_names, set_attributes)
    return False


def local_sets(function: ast.FunctionDef | ast.AsyncFunctionDef, set_attributes: set[str]) -> set[str]:
    names: set[str] = set()
    for n in ast.walk(function):
        if isinstance(n, ast.Assign) and set_valued(n.value, names, set_attributes):
            names.update(t.id for t in n.targets if isinstance(t, ast.Name))
    return names


def self_method(node: ast.AST) -> str | None:
    """`m` for `self.m(...)`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == "self":
        return node.func.attr
    return None


def raising_if(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and not node.orelse and len(node.body) == 1 and isinstance(node.body[0], ast.Raise)
