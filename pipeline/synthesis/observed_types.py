"""Type hints inferred from the values a class was really called with and returned, for classes written
without them.

Composition joins two classes where what one produces means what the other consumes, and a class that
declares no ends gets them derived from its names and types (`links.derived_ends`), read from annotations.
A corpus written elsewhere (ClassEval's) has almost none, so its classes would get no end at all. The argument harvest (`tracing.harvest`) runs the
class's own tests in the sandbox and records each call's arguments and result as canonical literals; this
module reads the types off those literals (`[1, 2]` is `list[int]`, `{"a": (1, 2.5)}` is
`dict[str, tuple[int, float]]`) and writes them into the class where it has no annotation of its own.

Conservative on purpose, since a hint becomes part of the task's skeleton: a position is annotated only when
every observed value has a literal and the values agree on one type (an int among floats reads as float);
a `None` among them, a parameter defaulting to `None`, or a value without a literal (an object) leaves it
unannotated. Annotations already written are never changed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence

import libcst as cst

from core.analysis.class_model import MethodModel, analyse
from core.records import SeedClass
from pipeline.synthesis.tracing import ArgumentPools, ObservedCall


class _Clash(Exception):
    """Two observed values have no common type."""


# A type: ("int",), ("list", elem), ("dict", key, value), ("set", elem), ("frozenset", elem),
# ("tuple", (e1, e2, ...)) of a fixed length, ("tuple...", elem) of any length; None inside is "unknown"
# (an empty container's elements).
_Type = tuple
_SCALARS = {int: "int", float: "float", str: "str", bool: "bool", bytes: "bytes"}


def _type_of(node: ast.expr) -> _Type:
    if isinstance(node, ast.Constant):
        if node.value is None or type(node.value) not in _SCALARS:
            raise _Clash("None")
        return (_SCALARS[type(node.value)],)
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return _type_of(node.operand)  # -3, -2.5
    if isinstance(node, ast.List):
        return ("list", _unify_all(_type_of(e) for e in node.elts))
    if isinstance(node, ast.Tuple):
        return ("tuple", tuple(_type_of(e) for e in node.elts))
    if isinstance(node, ast.Set):
        return ("set", _unify_all(_type_of(e) for e in node.elts))
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise _Clash("dict unpacking")
        return ("dict", _unify_all(_type_of(k) for k in node.keys), _unify_all(_type_of(v) for v in node.values))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset"):
        elements = node.args[0].elts if node.args and isinstance(node.args[0], ast.Set) else []
        return (node.func.id, _unify_all(_type_of(e) for e in elements))
    raise _Clash(ast.dump(node))


def _unify(a: _Type | None, b: _Type | None) -> _Type | None:
    if a is None or a == b:
        return b
    if b is None:
        return a
    if {a[0], b[0]} == {"int", "float"} and len(a) == len(b) == 1:
        return ("float",)  # an int is accepted where a float is annotated
    if a[0] == "tuple" and b[0] == "tuple" and len(a[1]) == len(b[1]):
        return ("tuple", tuple(_unify(x, y) for x, y in zip(a[1], b[1])))
    if a[0].startswith("tuple") and b[0].startswith("tuple"):
        return ("tuple...", _unify_all([*_elements(a), *_elements(b)]))
    if a[0] == b[0] and a[0] in ("list", "set", "frozenset", "dict"):
        return (a[0], *(_unify(x, y) for x, y in zip(a[1:], b[1:])))
    raise _Clash(f"{a} and {b}")


def _elements(t: _Type) -> list[_Type | None]:
    return list(t[1]) if t[0] == "tuple" else [t[1]]


def _unify_all(types: Iterable[_Type | None]) -> _Type | None:
    result: _Type | None = None
    for t in types:
        result = _unify(result, t)
    return result


def _render(t: _Type | None) -> str | None:
    if t is None:
        return None
    if len(t) == 1:
        return t[0]
    if t[0] == "tuple":
        parts = [_render(e) for e in t[1]]
        return None if not parts or None in parts else f"tuple[{', '.join(parts)}]"  # type: ignore[arg-type]
    parts = [_render(e) for e in t[1:]]
    if None in parts:
        return t[0].rstrip(".")  # an empty container: its kind, not its elements
    if t[0] == "tuple...":
        return f"tuple[{parts[0]}, ...]"
    return f"{t[0]}[{', '.join(parts)}]"  # type: ignore[arg-type]


def observed_type(literals: Sequence[str | None]) -> str | None:
    """The one type every observed literal has (as annotation text), or None when there is no observation,
    a value had no literal (None in `literals`), a value is None, or the values disagree."""
    if not literals or any(text is None for text in literals):
        return None
    try:
        return _render(_unify_all(_type_of(ast.parse(text, mode="eval").body) for text in literals))  # type: ignore[arg-type]
    except (_Clash, SyntaxError):
        return None


def _argument_literals(method: MethodModel, calls: Iterable[ObservedCall]) -> dict[str, list[str]]:
    """Each named parameter's observed literals, positional arguments matched to parameters in order."""
    positional = [p.name for p in method.params if p.kind == "positional"]
    seen: dict[str, list[str]] = {}
    for call in calls:
        for name, text in [*zip(positional, call.args), *call.kwargs]:
            seen.setdefault(name, []).append(text)
    return seen


def _none_defaults(source: str, class_name: str) -> set[tuple[str, str]]:
    """(method, parameter) of the class's parameters written `name=None`: their type is optional, which an
    observed value cannot show."""
    out: set[tuple[str, str]] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    args = item.args
                    positional = args.posonlyargs + args.args
                    pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
                             *zip(args.kwonlyargs, args.kw_defaults)]
                    out.update((item.name, a.arg) for a, d in pairs
                               if isinstance(d, ast.Constant) and d.value is None)
    return out


def inferred_hints(source: str, class_name: str, pools: ArgumentPools) -> dict[str, tuple[dict[str, str], str | None]]:
    """Per method of the class, the hints observation supports where the source has none: {parameter: type}
    and the return type. Methods with nothing to add are left out."""
    model = analyse(source, class_name)
    optional = _none_defaults(source, class_name)
    out: dict[str, tuple[dict[str, str], str | None]] = {}
    for method in model.methods.values():
        calls = pools.ctors if method.name == "__init__" else pools.calls.get(method.name, [])
        observed = _argument_literals(method, calls)
        params = {p.name: hint for p in method.params
                  if p.annotation is None and p.kind in ("positional", "keyword") and (method.name, p.name) not in optional
                  and (hint := observed_type(observed.get(p.name, [])))}
        returns = None
        if method.returns is None and method.returns_value and method.name != "__init__":
            returns = observed_type(pools.results.get(method.name, []))
        if params or returns:
            out[method.name] = (params, returns)
    return out


class _Annotator(cst.CSTTransformer):
    """Writes the hints into the methods of the one top-level class named (never into other functions)."""

    def __init__(self, class_name: str, hints: dict[str, tuple[dict[str, str], str | None]]) -> None:
        self.class_name, self.hints = class_name, hints
        self.classes, self.functions = 0, 0

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.classes += 1
        return self.classes == 1 and self.functions == 0 and node.name.value == self.class_name

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.classes -= 1
        return updated

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.functions += 1
        return self.functions == 1  # nested functions keep their own signatures

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.functions -= 1
        if self.classes != 1 or self.functions != 0 or updated.name.value not in self.hints:
            return updated
        params, returns = self.hints[updated.name.value]

        def hinted(param: cst.Param) -> cst.Param:
            hint = params.get(param.name.value) if param.annotation is None else None
            return param.with_changes(annotation=cst.Annotation(cst.parse_expression(hint))) if hint else param

        signature = updated.params.with_changes(params=[hinted(p) for p in updated.params.params],
                                                kwonly_params=[hinted(p) for p in updated.params.kwonly_params])
        if returns and updated.returns is None:
            updated = updated.with_changes(returns=cst.Annotation(cst.parse_expression(returns)))
        return updated.with_changes(params=signature)


def with_observed_types(seed: SeedClass, pools: ArgumentPools) -> SeedClass:
    """`seed` with the type hints its observed calls support written into its class (the same seed when
    there is nothing to add, so fully annotated seeds compose exactly as before)."""
    hints = inferred_hints(seed.source, seed.class_name, pools)
    if not hints:
        return seed
    source = cst.parse_module(seed.source).visit(_Annotator(seed.class_name, hints)).code
    return seed.model_copy(update={"source": source})
