"""Whether a feature fits a class: facts read from the class's source that the transforms' preconditions
and contracts need (nothing runs).

A transform woven into a class it does not fit is locked in by its oracle tests: `to_dict` deep-copying a
sqlite3 connection raises on every call, and a test then expects that `TypeError`; an `overview()` that
calls `winner()` raises mid-game, and a test expects that too. These checks refuse such classes up front,
with a reason code that the enhance stage records for the skipped transform.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from core.analysis.class_model import ClassModel, with_callers
from core.analysis.parsed import find_class_node, parsed
from pipeline.synthesis.transforms.base import FEATURE_METHODS, TransformError

PLAIN_TYPES = frozenset(
    {"int", "float", "str", "bool", "bytes", "None", "list", "dict", "tuple", "set", "frozenset",
     "List", "Dict", "Tuple", "Set", "FrozenSet", "Optional", "Union", "Any", "deque", "OrderedDict",
     "defaultdict", "Counter", "Sequence", "Mapping", "Iterable", "MutableMapping", "MutableSequence",
     "Literal", "typing", "collections", "Decimal", "Fraction", "date", "datetime", "timedelta"}
)
"""Names an annotation may use for a field (or the constructor parameter it is set from) to hold plain
data: values that deep-copy, compare by value and print as literals (or close to it)."""

PLAIN_CALLS = frozenset(
    {"list", "dict", "tuple", "set", "frozenset", "str", "int", "float", "bool", "bytes", "sorted", "len",
     "sum", "min", "max", "abs", "round", "range", "deque", "OrderedDict", "defaultdict", "Counter", "Decimal",
     "Fraction", "copy", "deepcopy", "fromkeys", "date", "datetime", "timedelta", "enumerate", "zip", "map",
     "reversed", "filter"}
)
"""Calls whose result, in a field initialiser, is plain data when their arguments are."""


@dataclass(frozen=True)
class FieldFacts:
    """What `__init__` does with one field."""

    name: str
    annotation: str | None  # the field's own annotation, else the annotation of the parameter it copies
    value: ast.expr | None  # the first expression assigned to it in __init__
    from_param: str | None  # the constructor parameter it is set from verbatim (`self.x = x`)


def _class(model: ClassModel) -> ast.ClassDef:
    return find_class_node(parsed(model.source).tree, model.name)


def _method_node(model: ClassModel, name: str) -> ast.FunctionDef | None:
    for node in _class(model).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    return None


def field_facts(model: ClassModel) -> dict[str, FieldFacts]:
    """Per field `__init__` assigns: its annotation, first value and the parameter it copies."""
    init = _method_node(model, "__init__")
    if init is None:
        return {}
    params = {a.arg: a.annotation for a in init.args.args[1:] + init.args.kwonlyargs}
    out: dict[str, FieldFacts] = {}
    for node in ast.walk(init):
        pairs: list[tuple[ast.expr, ast.expr | None, ast.expr | None]] = []
        if isinstance(node, ast.Assign):
            pairs = [(t, None, node.value) for t in node.targets]
        elif isinstance(node, ast.AnnAssign):
            pairs = [(node.target, node.annotation, node.value)]
        for target, annotation, value in pairs:
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self") or target.attr in out:
                continue
            from_param = value.id if isinstance(value, ast.Name) and value.id in params else None
            if annotation is None and from_param is not None:
                annotation = params[from_param]
            out[target.attr] = FieldFacts(target.attr, ast.unparse(annotation) if annotation is not None else None,
                                          value, from_param)
    return out


def _helper_kinds(model: ClassModel) -> dict[str, str]:
    """Module-level classes other than `model.name`: "plain" (dataclass, enum, named tuple, exception)
    or "object" (instances compare by identity and have no literal)."""
    kinds: dict[str, str] = {}
    for node in parsed(model.source).tree.body:
        if isinstance(node, ast.ClassDef) and node.name != model.name:
            decorators = " ".join(ast.unparse(d) for d in node.decorator_list)
            bases = " ".join(ast.unparse(b) for b in node.bases)
            plain = "dataclass" in decorators and "eq=False" not in decorators or any(
                word in bases for word in ("Enum", "NamedTuple", "Exception", "Error", "TypedDict"))
            kinds[node.name] = "plain" if plain else "object"
    return kinds


def _annotation_is_plain(annotation: str, helpers: dict[str, str]) -> bool:
    try:
        tree = ast.parse(annotation, mode="eval")
    except SyntaxError:
        return False
    names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
    names += [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    return all(n in PLAIN_TYPES or helpers.get(n) == "plain" for n in names if n not in ("typing", "collections"))


def _not_plain_value(value: ast.expr, helpers: dict[str, str], modules: set[str]) -> str | None:
    """What in a field initialiser is not plain data (a connection, lock, handle, callable, object)."""
    for node in ast.walk(value):
        if isinstance(node, ast.Lambda):
            return "a lambda"
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if name is None or name in PLAIN_CALLS or helpers.get(name) == "plain":
            continue
        receiver = func.value if isinstance(func, ast.Attribute) else None
        if receiver is not None and not (isinstance(receiver, ast.Name) and receiver.id in modules | _MODULE_FACTORIES):
            continue  # a method of a value (`name.strip()`, `text.split()`)
        return ast.unparse(func) + "(...)"
    return None


_MODULE_FACTORIES = frozenset({"sqlite3", "threading", "io", "socket", "random", "logging", "queue",
                               "multiprocessing", "tempfile", "os", "re", "weakref", "itertools", "functools"})
"""Modules whose calls make resources or stateful objects (`sqlite3.connect`, `threading.Lock`,
`random.Random`, `re.compile`, `itertools.count`), never plain data."""


def memo_fields(model: ClassModel) -> list[str]:
    """Fields used as caches: `__init__` sets them to None, and a method tests them against None (or for
    truth) and assigns them (`if self._script is not None: return ...; ...; self._script = script`); and
    fields named as caches."""
    facts = field_facts(model)
    unset = {f for f, fact in facts.items() if isinstance(fact.value, ast.Constant) and fact.value.value is None}
    found: list[str] = []
    for method in _class(model).body:
        if not isinstance(method, ast.FunctionDef) or method.name == "__init__":
            continue
        assigned = {t.attr for n in ast.walk(method) if isinstance(n, ast.Assign) for t in n.targets
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
        for node in ast.walk(method):
            if not isinstance(node, ast.If):
                continue
            test = node.test
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)) \
                    and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
                test = test.left
            elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
                test = test.operand
            if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name) and test.value.id == "self" \
                    and test.attr in unset and test.attr in assigned and test.attr not in found:
                found.append(test.attr)
    found += [f for f in model.fields if "cache" in f.lower() and f not in found]
    return found


def state_writers(model: ClassModel) -> set[str]:
    """Methods that change more than a cache, directly or through a method they call on self: a query that
    fills a cache (`stats()` computing and keeping an edit script) is no state change to a reader, so it
    is neither locked by a freeze nor an undoable operation."""
    caches = set(memo_fields(model))
    return set(with_callers(model.methods, {name for name, m in model.methods.items() if m.writes - caches}))


def require_plain_state(model: ClassModel, fields: tuple[str, ...], *, allow_caches: bool = True) -> None:
    """Refuse a class whose domain fields are not all plain data: states are deep-copied and compared.

    A connection, lock, file handle or random generator cannot be deep-copied (or copies into another,
    unequal resource); an object without value equality makes two equal states compare unequal; a cache
    (`allow_caches=False`) exposes when the reference chose to compute something.
    """
    facts = field_facts(model)
    helpers = _helper_kinds(model)
    for name in fields:
        fact = facts.get(name)
        if fact is None:
            continue
        if fact.annotation is not None and not _annotation_is_plain(fact.annotation, helpers):
            raise TransformError(f"field {name} is annotated {fact.annotation}, not plain data", "not_plain_data")
        if fact.value is not None:
            what = _not_plain_value(fact.value, helpers, set(model.module_names))
            if what is not None:
                raise TransformError(f"field {name} is set from {what}, not plain data", "not_plain_data")
    objects = sorted(n for n, k in helpers.items() if k == "object")
    built = {n.func.id for n in ast.walk(_class(model)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    if objects and built & set(objects):
        raise TransformError(f"the state holds {', '.join(sorted(built & set(objects)))} objects, "
                             "which compare by identity", "not_plain_data")
    if not allow_caches:
        cached = [f for f in memo_fields(model) if f in fields]
        if cached:
            raise TransformError(f"field {', '.join(cached)} is a cache filled on demand", "cache_field")


def may_raise(model: ClassModel) -> set[str]:
    """Methods that raise on some state: a `raise` or `assert` in them or in a method they call on self
    (transitively), or a `:raises` line in their docstring."""
    direct: set[str] = set()
    for node in _class(model).body:
        if isinstance(node, ast.FunctionDef) and any(isinstance(n, (ast.Raise, ast.Assert)) for n in ast.walk(node)):
            direct.add(node.name)
    direct |= {m.name for m in model.methods.values() if m.docstring and ":raises" in m.docstring}
    result = set(direct)
    changed = True
    while changed:
        changed = False
        for method in model.methods.values():
            if method.name not in result and method.calls & result:
                result.add(method.name)
                changed = True
    return result


def generators(model: ClassModel) -> set[str]:
    """Methods whose body yields: their body runs after the call returns, so a call guard cannot wrap it."""
    out = set()
    for node in _class(model).body:
        if isinstance(node, ast.FunctionDef):
            own = [n for n in ast.walk(node) if isinstance(n, (ast.Yield, ast.YieldFrom))]
            if own:
                out.add(node.name)
    return out


def exposing_query(model: ClassModel, field: str) -> str | None:
    """A public argument-free method whose only statement returns the field itself or an equal copy of it
    (`self.f`, `self.f.copy()`, `copy.deepcopy(self.f)`, `list(self.f)` of a list, `dict(self.f)` of a
    dict), if any: what that method returns is then what the field holds."""
    fact = field_facts(model).get(field)
    kind = _kind(fact) if fact is not None else None
    for method in model.public_methods():
        if method.required_params:
            continue
        node = _method_node(model, method.name)
        if node is None:
            continue
        body = _own_statements(node.body)
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            continue
        value = body[0].value
        if isinstance(value, ast.Call) and not value.keywords:
            func = ast.unparse(value.func)
            if isinstance(value.func, ast.Attribute) and value.func.attr == "copy" and not value.args:
                value = value.func.value
            elif len(value.args) == 1 and (func in ("copy.copy", "copy.deepcopy", "deepcopy")
                                           or func in ("list", "dict") and kind == func):
                value = value.args[0]
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self" \
                and value.attr == field:
            return method.name
    return None


FEATURE_GUARDS = frozenset({"_check_argument", "_ensure_writable"})


def _own_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """A method body without its docstring and without what other features wove in (their guard calls,
    and the statistics' call guard around the body), so that facts read from it are the class's own."""
    out: list[ast.stmt] = []
    for statement in body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) \
                and isinstance(statement.value.func, ast.Attribute) and statement.value.func.attr in FEATURE_GUARDS:
            continue
        if isinstance(statement, ast.Assign) and "self._enter_call(" in ast.unparse(statement.value):
            continue
        if isinstance(statement, ast.Try) and not statement.handlers \
                and "self._leave_call(" in ast.unparse(statement.finalbody):
            out += _own_statements(statement.body)
            continue
        out.append(statement)
    return out


def _kind(fact: FieldFacts) -> str | None:
    """The builtin type a field holds, from its annotation or its initial value, if one is clear."""
    if fact.annotation is not None:
        base = fact.annotation.replace(" ", "").split("[", 1)[0].lower()
        return base if base in ("list", "dict", "set", "tuple", "int", "float", "str", "bool") else None
    value = fact.value
    displays = {ast.List: "list", ast.ListComp: "list", ast.Dict: "dict", ast.DictComp: "dict", ast.Set: "set",
                ast.SetComp: "set", ast.Tuple: "tuple"}
    for node_type, name in displays.items():
        if isinstance(value, node_type):
            return name
    if isinstance(value, ast.Constant) and value.value is not None:
        return type(value.value).__name__
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
            and value.func.id in ("list", "dict", "set", "tuple"):
        return value.func.id
    return None


def field_meaning(model: ClassModel, field: str) -> str:
    """What a snapshot's value for `field` is, in terms a reader of the skeleton can check: the result of a
    public query that returns it, or the constructor argument it keeps. Raises TransformError when the field
    is internal (nothing public shows it): a test comparing a whole snapshot would then pin down how the
    reference chose to store its state."""
    fact = field_facts(model).get(field)
    query = exposing_query(model, field)
    kind = _kind(fact) if fact is not None else None
    type_text = fact.annotation if fact is not None and fact.annotation else kind
    shape = f"{'an' if type_text[0] in 'aeiou' else 'a'} ``{type_text}``" if type_text else "the value"
    if query is not None:
        return f"{shape} equal to what ``{query}()`` returns"
    if fact is not None and fact.from_param is not None \
            and not any(field in m.writes for m in model.methods.values()
                        if m.name != "__init__" and m.name not in FEATURE_METHODS):
        return f"{shape}, the ``{fact.from_param}`` argument given to the constructor"
    raise TransformError(f"field {field} is internal: no public method returns it and no constructor argument "
                         "sets it", "unstated_field")


# --- what the class's operations are --------------------------------------------------------------------------
#
# A feature is a natural requirement of some classes and nonsense in others: undo on a ticket queue's clock
# reverts time, call counters on a histogram count the same samples it counts itself, a freeze on a rate
# limiter stops the requests it exists to meter. What each public operation is comes from its name's words
# (the class's own vocabulary: `advance_clock`, `assign_next`, `record_many`); a name with none of these words
# is an edit a user makes to what the class holds.

CLOCK, ARRIVAL, OBSERVATION, EDIT = "clock", "arrival", "observation", "edit"

CLOCK_WORDS = frozenset({"tick", "clock", "elapse", "elapsed", "until", "sleep", "wait"})
"""An operation that moves the class's time forward: what it changed is the time, which nobody takes back."""
ARRIVAL_WORDS = frozenset({"next", "pop", "dequeue", "drain", "poll", "take", "serve", "allow", "consume"})
"""An operation that serves or meters what arrived, in arrival order: a served ticket or an admitted request
happened, and reverting it would reorder the queue behind it."""
OBSERVATION_WORDS = frozenset({"record", "observe", "sample", "samples", "measure", "feed"})
OBSERVATION_NAMES = frozenset({"add_many", "add_all", "add_sample", "add_samples", "add_value", "add_values"})
"""An operation that records a measurement (a latency, a price, a lap time, a pair of labels)."""


def operation_kind(name: str) -> str:
    """`CLOCK`, `ARRIVAL`, `OBSERVATION` or `EDIT`, from the words of an operation's name."""
    words = set(name.lower().split("_"))
    if words & CLOCK_WORDS:
        return CLOCK
    if words & ARRIVAL_WORDS:
        return ARRIVAL
    if words & OBSERVATION_WORDS or name in OBSERVATION_NAMES:
        return OBSERVATION
    return EDIT


def operation_kinds(model: ClassModel) -> dict[str, str]:
    """Each public operation a user starts (an entry mutator) -> its kind, in source order."""
    called: set[str] = set()
    for method in model.methods.values():
        if method.name not in FEATURE_METHODS:
            called |= method.calls
    return {m.name: operation_kind(m.name) for m in model.public_methods()
            if m.name in model.mutators and m.name not in FEATURE_METHODS and m.name not in called}


def measuring(model: ClassModel) -> list[str]:
    """The operations that record measurements, when they are at least half of the class's operations (a
    monitor, a tracker, a histogram: what it does is take measurements and report on them); else none."""
    kinds = operation_kinds(model)
    observed = [n for n, k in kinds.items() if k == OBSERVATION]
    return observed if observed and 2 * len(observed) >= len(kinds) else []


def require_edits(model: ClassModel, feature: str) -> None:
    """Refuse a class whose operations advance a clock, serve arrivals in order, or mostly take measurements:
    `feature` (reverting, locking) belongs to state a user edits."""
    kinds = operation_kinds(model)
    for kind, reason, why in ((CLOCK, "clock_operation", "moves its clock forward"),
                              (ARRIVAL, "arrival_order", "serves what arrived, in arrival order")):
        names = [n for n, k in kinds.items() if k == kind]
        if names:
            raise TransformError(f"{feature} does not fit {model.name}: {', '.join(names)} {why}", reason)
    observed = measuring(model)
    if observed:
        raise TransformError(f"{feature} does not fit {model.name}: it is a measuring class "
                             f"({', '.join(observed)} record measurements)", "measuring_class")
    if EDIT not in kinds.values():
        raise TransformError(f"{feature} does not fit {model.name}: no operation edits what it holds", "no_state_change")


def requests(model: ClassModel) -> list[str]:
    """Public methods that answer a caller's request: they take arguments and return a value (a lookup, a
    check, a conversion, a route), as a service does."""
    return [m.name for m in model.public_methods() if m.name not in FEATURE_METHODS and m.required_params
            and m.returns_value and (m.returns or "") != "None" and operation_kind(m.name) == EDIT]
