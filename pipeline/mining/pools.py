"""Argument pools for a mined class without usable tests of its own, read from its source alone.

The oracle synthesis (pipeline/synthesis) needs values to call methods with. For seeds they are harvested
by running the seed's tests; a mined class may have none, so the values come from what its source says:
docstring examples (`>>> obj.add("x", 3)`), default values, type hints (`int` -> 0, 1, 3, ...) or, without
one, how the method uses the parameter (`pipeline/mining/usage_types.py`: `for row in X` -> rows), the
constants a method compares a parameter with (`0 <= row <= 2` wants 0, 1, 2 and the 3 beyond), and the
literals of the module (a class that compares against "open"/"closed" wants those strings). Every value is
a literal's source text; nothing is evaluated except by `ast.literal_eval`, which runs no code.
"""

from __future__ import annotations

import ast
import itertools
import re

from pipeline.mining.usage_types import usage_kind
from pipeline.synthesis.tracing import ArgumentPools, ObservedCall

CALLS_PER_METHOD = 4
MAX_COMBINED_CALLS = 12  # calls of one method whose parameters have compared values: their combinations
SPAN = 8  # integer bounds at most this far apart are enumerated (a board's 0..2, a week's 1..7)
_BY_TYPE: dict[str, tuple[str, ...]] = {
    "int": ("1", "3", "0", "10"),
    "float": ("1.5", "0.0", "2.0", "10.0"),
    "str": ("'alpha'", "'beta'", "''", "'gamma delta'"),
    "bool": ("True", "False"),
    "bytes": ("b'ab'", "b''"),
    "list": ("[1, 2, 3]", "[]"),
    "tuple": ("(1, 2)", "()"),
    "dict": ("{'a': 1}", "{}"),
    "set": ("{1, 2}", "set()"),
    "matrix": ("[[1, 2], [3, 4], [5, 6]]", "[[0, 1], [1, 0], [1, 1]]"),  # three rows, as many as a list's items
}
_FALLBACK = ("1", "'alpha'", "2", "'beta'")
_EXAMPLE = re.compile(r"^\s*>>>\s*(?:\w+\s*=\s*)?\w+\.(\w+)\((.*)\)\s*$")


def _literal(text: str) -> bool:
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def _type_values(annotation: ast.expr | None, literals: dict[str, list[str]], used_as: str | None = None,
                 objects: dict[str, tuple[str, ...]] | None = None) -> tuple[str, ...]:
    """Values of the annotation's type, or of `used_as` (`usage_types.usage_kind`) when there is none;
    a class of the slice named by the annotation gives its `objects` (`object_values`), a list of it a
    list of two of them."""
    objects = objects or {}
    if annotation is None:
        head = used_as or ""
    else:
        text = ast.unparse(annotation).replace("typing.", "")
        named = [n.id for n in ast.walk(annotation) if isinstance(n, ast.Name) and n.id in objects]
        if named:
            made = objects[named[0]]
            outer = re.split(r"[\[|]", text)[0].strip().lower()
            if outer in ("list", "sequence", "iterable", "tuple", "set") and len(made) > 1:
                return (f"[{made[0]}, {made[1]}]", "[]", *made[:1])
            return made
        head = re.split(r"[\[|]", text)[0].strip().lower()
        head = {"sequence": "list", "iterable": "list", "mapping": "dict", "optional": ""}.get(head, head)
        if not head and "[" in text:  # Optional[int] -> int
            head = text.split("[", 1)[1].split("]")[0].split(",")[0].strip().lower()
    values = _BY_TYPE.get(head, ())
    if head == "str" and literals.get("str"):
        values = tuple(literals["str"][:3]) + values
    if head in ("int", "float") and literals.get(head):
        values = tuple(literals[head][:2]) + values
    return values


def module_literals(tree: ast.Module) -> dict[str, list[str]]:
    """String and number literals of the module (short ones, first-seen order), by type name."""
    found: dict[str, list[str]] = {"str": [], "int": [], "float": []}
    # docstrings are prose, not values the code compares or stores
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if id(node) in docstrings:
            continue
        if isinstance(node, ast.Constant) and type(node.value).__name__ in found and not isinstance(node.value, bool):
            if isinstance(node.value, str) and not (0 < len(node.value) <= 20 and node.value.isprintable()):
                continue
            text = repr(node.value)
            bucket = found[type(node.value).__name__]
            if text not in bucket:
                bucket.append(text)
    return found


def _docstring_examples(function: ast.FunctionDef, name: str) -> list[tuple[str, ...]]:
    out = []
    for line in (ast.get_docstring(function) or "").splitlines():
        match = _EXAMPLE.match(line)
        if match and match.group(1) == name:
            try:
                call = ast.parse(f"f({match.group(2)})", mode="eval").body
            except SyntaxError:
                continue
            if isinstance(call, ast.Call) and not call.keywords:
                args = tuple(ast.unparse(a) for a in call.args)
                if all(_literal(a) for a in args):
                    out.append(args)
    return out


def compared_constants(function: ast.FunctionDef, name: str) -> list[object]:
    """The constants `function` compares its parameter `name` with, in source order: both sides of
    `name < 3`, each bound of `0 <= name <= 2`, each member of `name in ("a", "b")`. These are the values
    at which the method's branches turn, which type hints alone never reach (a board indexed 0..2 called
    with 10 takes the out-of-range branch every time)."""
    found: list[object] = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        if not any(isinstance(o, ast.Name) and o.id == name for o in operands):
            continue
        for operand in operands:
            members = operand.elts if isinstance(operand, (ast.Tuple, ast.List, ast.Set)) else [operand]
            for member in members:
                if isinstance(member, ast.UnaryOp) and isinstance(member.op, ast.USub) and isinstance(member.operand, ast.Constant):
                    member = ast.Constant(-member.operand.value) if isinstance(member.operand.value, (int, float)) else member
                if (isinstance(member, ast.Constant) and not isinstance(member.value, bool)
                        and isinstance(member.value, (int, float, str)) and member.value not in found):
                    found.append(member.value)
    return found


def _boundary_values(constants: list[object]) -> tuple[list[str], list[str]]:
    """(values inside the compared range, values just outside it), as source text. Integers whose bounds
    lie at most SPAN apart are enumerated; wider ones give their bounds and midpoint. Strings and floats
    are their own values (a string compared for equality has no outside but "anything else")."""
    ints = sorted(c for c in constants if isinstance(c, int))
    inside = [repr(c) for c in constants if not isinstance(c, int)]
    outside: list[str] = []
    if ints:
        low, high = ints[0], ints[-1]
        span = range(low, high + 1) if high - low <= SPAN else sorted({low, (low + high) // 2, high, *ints})
        inside = [repr(v) for v in span] + inside
        outside = [repr(low - 1), repr(high + 1)]
    return inside, outside


def _calls_for(function: ast.FunctionDef, literals: dict[str, list[str]], drop_first: bool,
               objects: dict[str, tuple[str, ...]] | None = None) -> list[ObservedCall]:
    args = function.args
    positional = list(args.posonlyargs) + list(args.args)
    if drop_first:
        positional = positional[1:]
    if args.vararg or args.kwonlyargs and any(d is None for d in args.kw_defaults):
        return []
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)[-len(positional):] if positional else []
    calls = [ObservedCall(function.name, example) for example in _docstring_examples(function, function.name)]
    choices: list[tuple[str, ...]] = []
    bounded: list[tuple[list[str], list[str]]] = []
    for arg, default in zip(positional, defaults):
        values = list(_type_values(arg.annotation, literals,
                                   usage_kind(function, arg.arg) if arg.annotation is None else None, objects))
        if default is not None and _literal(ast.unparse(default)):
            values.insert(0, ast.unparse(default))
        if not values and default is not None:
            break  # an optional argument we know nothing about: leave it and the rest to their defaults
        choices.append(tuple(dict.fromkeys(values or _FALLBACK)))
        bounded.append(_boundary_values(compared_constants(function, arg.arg)))
    rotated = [ObservedCall(function.name, tuple(values[(index + position) % len(values)]
                                                 for position, values in enumerate(choices)))
               for index in range(CALLS_PER_METHOD)]
    if any(inside for inside, _ in bounded):  # the compared values first, the hinted ones still tried
        return list(dict.fromkeys(calls + _combined_calls(function.name, choices, bounded) + rotated))
    return list(dict.fromkeys(calls + rotated))[:CALLS_PER_METHOD + 2]


def _combined_calls(method: str, choices: list[tuple[str, ...]],
                    bounded: list[tuple[list[str], list[str]]]) -> list[ObservedCall]:
    """Calls of a method some of whose parameters are compared with constants: every combination of the
    in-range values (up to MAX_COMBINED_CALLS, so that a walk can fill a 3x3 board), then one call per
    parameter with a value just outside its range; a parameter without compared constants takes its
    hinted values in turn."""
    axes = [inside or list(values[:2]) for (inside, _), values in zip(bounded, choices)]
    calls = [ObservedCall(method, tuple(combo)) for combo in itertools.islice(itertools.product(*axes), MAX_COMBINED_CALLS)]
    for position, (_, outside) in enumerate(bounded):
        for value in outside:
            calls.append(ObservedCall(method, tuple(value if i == position else axis[0] for i, axis in enumerate(axes))))
    return calls


_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})
OBJECTS_PER_CLASS = 3


def _constructor(node: ast.ClassDef) -> ast.FunctionDef | None:
    """The class's `__init__`, or for a dataclass or named tuple without one, the `__init__` its fields make
    (defaults last, as both require); None for a class with neither."""
    init = next((i for i in node.body if isinstance(i, ast.FunctionDef) and i.name == "__init__"), None)
    if init is not None:
        return init
    if not (any("dataclass" in ast.unparse(d) for d in node.decorator_list)
            or any(ast.unparse(b).split(".")[-1] == "NamedTuple" for b in node.bases)):
        return None
    fields = [i for i in node.body if isinstance(i, ast.AnnAssign) and isinstance(i.target, ast.Name)
              and not ast.unparse(i.annotation).startswith(("ClassVar", "typing.ClassVar"))]
    return ast.FunctionDef(name="__init__", args=ast.arguments(
        posonlyargs=[], args=[ast.arg("self"), *(ast.arg(f.target.id, f.annotation) for f in fields)],
        kwonlyargs=[], kw_defaults=[], defaults=[f.value for f in fields if f.value is not None]),
        body=[], decorator_list=[], lineno=node.lineno)


def object_values(tree: ast.Module, class_name: str, literals: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    """Expressions that make an instance of each other class the slice defines, for parameters annotated
    with one (`park(self, vehicle: Car)`, `move(self, direction: Direction)`): a member of an enum
    (`Direction.UP`), or a constructor call with values for its own parameters from their hints, uses and
    defaults (`Car('alpha', Size.SMALL)`; a dataclass's fields are its parameters; a parameter of a class
    defined above it takes that class's values). Exceptions, abstract bases and protocols get none. The oracle runs
    these expressions with the module's names (`literals.evaluate`), and a test imports the names it uses.

    Without them such a parameter got `1` or `'alpha'`, and every call raised: about one mined class in
    three takes an instance of another class of its module."""
    out: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name == class_name or node.name.startswith("_"):
            continue
        bases = {ast.unparse(b).split(".")[-1] for b in node.bases}
        if bases & _ENUM_BASES:
            members = [t.id for item in node.body if isinstance(item, ast.Assign) for t in item.targets
                       if isinstance(t, ast.Name) and not t.id.startswith("_")]
            if members:
                out[node.name] = tuple(f"{node.name}.{m}" for m in members[:OBJECTS_PER_CLASS])
            continue
        if bases & {"Exception", "BaseException", "ABC", "Protocol"} or any(b.endswith(("Error", "Exception")) for b in bases):
            continue
        init = _constructor(node)
        if init is None:
            if not node.bases:  # nothing to construct it with: a plain class is built bare (a base might need more)
                out[node.name] = (f"{node.name}()",)
            continue
        calls = _calls_for(init, literals, drop_first=True, objects=dict(out))  # classes defined above it
        made = [f"{node.name}({', '.join(call.args)})" for call in calls[:OBJECTS_PER_CLASS]]
        if made:
            out[node.name] = tuple(dict.fromkeys(made))
    return out


def static_pools(source: str, class_name: str) -> ArgumentPools:
    """Pools for `class_name` in `source` from docstring examples, defaults, hints and module literals, and
    instances of the other classes of the slice (`object_values`)."""
    tree = ast.parse(source)
    literals = module_literals(tree)
    objects = object_values(tree, class_name, literals)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    pools = ArgumentPools()
    init = _constructor(node)
    members = [item for item in node.body if isinstance(item, ast.FunctionDef) and item is not init]
    for item in ([init] if init is not None else []) + members:
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in item.decorator_list)
        calls = _calls_for(item, literals, drop_first=not static, objects=objects)
        if item.name == "__init__":
            # the compared constants of a constructor are mostly its argument checks (`if ttl <= 0: raise`):
            # their combinations alone may all raise, so the first hinted calls are tried too
            checked = any(compared_constants(item, a.arg) for a in [*item.args.posonlyargs, *item.args.args])
            pools.ctors.extend(dict.fromkeys(calls[:2] + calls[-CALLS_PER_METHOD:]) if checked else calls[:2])
        elif not item.name.startswith("_") and calls:
            pools.calls[item.name] = calls
    if not pools.ctors:
        pools.ctors.append(ObservedCall("__init__", ()))
    pools.replays.extend((pools.ctors[0], list(seq)) for seq in itertools.islice(_walks(pools), 3))
    return pools


def _walks(pools: ArgumentPools):  # noqa: ANN202 - a generator of call lists
    """A few replay sequences: every method once, in source order, with its n-th observed call."""
    for index in range(3):
        yield [calls[index % len(calls)] for calls in pools.calls.values()]
