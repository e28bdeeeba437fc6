"""Shape filters on a mined class: is it the kind of class a task can be made of?

All of them read only the syntax tree, so they run first and cost little. The limits are named in
`ShapeLimits` (configurable through the `[mine]` section).
"""

from __future__ import annotations

import re

import libcst as cst
from pydantic import BaseModel, ConfigDict, Field

from core.analysis.class_model import ClassModel, analyse
from core.records import RejectReason
from pipeline.mining.extract import ClassUnit, dotted_name
from pipeline.mining.filters import Drop, Filter


class ShapeLimits(BaseModel):
    """How big a mined class must and may be.

    A class needs `min_methods` methods and `min_lines` lines, and besides either `enough_methods` methods
    or `enough_lines` lines: four interacting methods in 70 lines (an edit-distance table, a coordinate
    compressor) are a task as much as six short ones in 30 lines (a union-find), while four methods in 25
    lines are not. Setting the floors to the `enough_` values asks for both, as the limits did before."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min_methods: int = Field(default=3, ge=1, description="Fewest distinct methods (including __init__).")
    min_lines: int = Field(default=20, ge=1, description="Fewest lines of the class itself.")
    enough_methods: int = Field(default=5, ge=1, description="Methods that make a class big enough at min_lines.")
    enough_lines: int = Field(default=40, ge=1, description="Lines that make a class big enough at min_methods.")
    max_lines: int = Field(default=800, ge=1, description="Most lines of the class itself.")
    min_dependent_methods: int = Field(default=2, ge=0, description="Fewest public methods, accessors left out, "
                                       "that read state another public method writes (0: no such floor).")


_TEST_PATH = re.compile(r"(^|/)(tests?|testing)/|(^|/)test_[^/]*\.py$|_test\.py$|(^|/)conftest\.py$")
_TEST_NAME = re.compile(r"^Test([A-Z_]|$)|Tests?$")
_PYTEST_HOOKS = {"setup_method", "teardown_method", "setup_class", "teardown_class"}
_TEST_BASES = {"TestCase", "IsolatedAsyncioTestCase", "unittest.TestCase", "unittest.IsolatedAsyncioTestCase"}
_ENUM_BASES = {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"}
_EXCEPTION_BASE = re.compile(r"(Exception|Error|Warning)$")
_PROTOCOL_BASES = {"Protocol", "typing.Protocol", "typing_extensions.Protocol"}
_ABSTRACT_BASES = {"ABC", "abc.ABC"}
_ABSTRACT_DECORATORS = {"abstractmethod", "abc.abstractmethod", "abstractproperty", "abc.abstractproperty"}
_DATA_DECORATORS = {"dataclass", "dataclasses.dataclass", "attr.s", "attrs.define", "attr.define", "define",
                    "attrs.frozen", "frozen"}
_VALIDATOR = re.compile(r"(validator|serializer)$")
_DATA_BASES = {"NamedTuple", "typing.NamedTuple", "TypedDict", "typing.TypedDict", "BaseModel",
               "pydantic.BaseModel"}


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def is_test_path(path: str) -> bool:
    """A file of a test suite: under tests/ or testing/, or named test_*.py, *_test.py, conftest.py."""
    return bool(_TEST_PATH.search(path))


def class_kind(unit: ClassUnit, path: str = "") -> str | None:
    """Why this class is not a task class ('test', 'enum', 'exception', 'protocol', 'abstract interface',
    'data holder'), or None when it may be one."""
    bases = set(unit.bases)
    short_bases = {_short(b) for b in bases}
    if _TEST_NAME.search(unit.name) or short_bases & {_short(b) for b in _TEST_BASES} or (
            is_test_path(path) and _has_test_methods(unit)):
        return "test"
    if short_bases & _ENUM_BASES:
        return "enum"
    if any(_EXCEPTION_BASE.search(b) for b in bases):
        return "exception"
    if bases & _PROTOCOL_BASES or "Protocol" in short_bases:
        return "protocol"
    if bases & _ABSTRACT_BASES or _short(unit.keywords.get("metaclass", "")) == "ABCMeta" or any(
            _short(dotted) in {_short(d) for d in _ABSTRACT_DECORATORS}
            for function in unit.functions for dotted in _decorator_names(function)):
        return "abstract interface"
    if (set(unit.decorators) & _DATA_DECORATORS or short_bases & {_short(b) for b in _DATA_BASES}) and not _has_behaviour(unit):
        return "data holder"
    return None


def _decorator_names(function: cst.FunctionDef) -> list[str]:
    return [dotted_name(d.decorator) for d in function.decorators]


def _has_test_methods(unit: ClassUnit) -> bool:
    """A class of a test file is a test when pytest would collect methods of it; the file's other classes
    (a fake clock, an in-memory store) are components the tests use, judged by the other filters like any
    class (most import the code under test and fail the slice; a self-contained one is a task)."""
    return any(name.startswith("test") or name in _PYTEST_HOOKS for name in unit.method_names)


def _has_behaviour(unit: ClassUnit) -> bool:
    """A data-holder-like class still counts when methods other than __init__/__post_init__ change state,
    or when one of them calls another (a frozen interval whose `union` asks its own `overlaps`), or when
    two of them compute in more than one statement (a dataclass holding an integrator's settings whose
    `step_2` .. `step_4` run it): it computes with its fields instead of only carrying them. Validators
    and serializers of a model describe its fields, not behaviour."""
    if any(m.writes or m.calls for m in unit.facts.methods if m.name not in ("__init__", "__post_init__")):
        return True
    computing = [f for f in unit.functions if f.name.value not in ("__init__", "__post_init__")
                 and not any(_VALIDATOR.search(name) for name in _decorator_names(f)) and _statements(f) > 1]
    return len({f.name.value for f in computing}) >= 2


def _statements(function: cst.FunctionDef) -> int:
    """Statements of a method's body (an indented block or one line's), its docstring left out."""
    return len(function.body.body) - (function.get_docstring() is not None)


def kind_filter(path: str) -> Filter[ClassUnit]:
    def check(unit: ClassUnit) -> Drop | None:
        kind = class_kind(unit, path)
        return None if kind is None else Drop(RejectReason.NOT_A_TASK_CLASS, f"{unit.name} is {_article(kind)} {kind}",
                                              {"kind": kind})
    return check


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def size_filter(limits: ShapeLimits) -> Filter[ClassUnit]:
    def check(unit: ClassUnit) -> Drop | None:
        methods, lines = len(unit.method_names), unit.line_count
        evidence = {"methods": methods, "lines": lines}
        if methods < limits.min_methods:
            return Drop(RejectReason.TOO_SMALL, f"{methods} method(s), fewer than {limits.min_methods}", evidence)
        if lines < limits.min_lines:
            return Drop(RejectReason.TOO_SMALL, f"{lines} lines, fewer than {limits.min_lines}", evidence)
        if methods < limits.enough_methods and lines < limits.enough_lines:
            return Drop(RejectReason.TOO_SMALL, f"{methods} methods in {lines} lines: fewer than "
                        f"{limits.enough_methods} methods and fewer than {limits.enough_lines} lines", evidence)
        if lines > limits.max_lines:
            return Drop(RejectReason.TOO_LARGE, f"{lines} lines, more than {limits.max_lines}", evidence)
        return None
    return check


def interaction_filter(unit: ClassUnit) -> Drop | None:
    """At least one call or state edge between two methods (core.analysis's definitions)."""
    try:
        edges = unit.edges
    except Exception as exc:  # noqa: BLE001 - an analysis failure on odd code drops one class, not the run
        return Drop(RejectReason.MALFORMED, f"could not analyse {unit.name}: {type(exc).__name__}: {exc}")
    if not edges:
        return Drop(RejectReason.NO_INTERACTION, f"{unit.name} has no call or state edge between its methods")
    return None


_STATEFUL_KINDS = ("instance", "property", "other")  # "other": async methods and other decorated ones


def accessors(unit: ClassUnit) -> set[str]:
    """Methods whose whole body (docstring aside) is `return self.x` (a getter) or `self.x = <a parameter>`
    (a setter): they hand a field out or in, and compute nothing."""
    found = set()
    for function in unit.functions:
        body = [s for s in function.body.body if not (isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
                and isinstance(s.body[0], cst.Expr) and isinstance(s.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))]
        if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 \
                and _accessor_statement(body[0].body[0], function):
            found.add(function.name.value)
    return found


def _self_field(node: cst.BaseExpression | None) -> bool:
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self"


def _accessor_statement(statement: cst.BaseSmallStatement, function: cst.FunctionDef) -> bool:
    if isinstance(statement, cst.Return):
        return _self_field(statement.value)
    if isinstance(statement, (cst.Assign, cst.AnnAssign)):
        targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) else [statement.target]
        params = {p.name.value for p in function.params.params}
        return (len(targets) == 1 and _self_field(targets[0]) and isinstance(statement.value, cst.Name)
                and statement.value.value in params)
    return False


def dependent_methods(model: ClassModel, skip: set[str]) -> dict[str, list[str]]:
    """Public methods (not in `skip`) that read state another public method writes, each with those writers:
    what a call of one returns or does depends on what calls of others did before. Reads and writes are
    each method's reach (`ClassModel.reach`: its own and its private helpers'); `__init__` is no writer
    (it always runs first, once)."""
    public = [m for m in model.methods.values() if m.public and m.kind in _STATEFUL_KINDS]
    writes = {m.name: model.reach(m.name)[1] for m in public}
    found: dict[str, list[str]] = {}
    for method in public:
        if method.name in skip:
            continue
        reads = model.reach(method.name)[0]
        writers = sorted(w for w, written in writes.items() if w != method.name and written & reads)
        if writers:
            found[method.name] = writers
    return found


def trivial_filter(limits: ShapeLimits) -> Filter[ClassUnit]:
    """`trivial` when fewer than `limits.min_dependent_methods` public methods, accessors left out, read
    state another public method writes: a holder of getters and setters, or a class whose every result
    depends only on its constructor's arguments, has no interplay a task can test."""
    def check(unit: ClassUnit) -> Drop | None:
        if limits.min_dependent_methods == 0:
            return None
        try:
            model = analyse(unit.code, unit.name)
        except (SyntaxError, LookupError) as exc:
            return Drop(RejectReason.MALFORMED, f"could not analyse {unit.name}: {type(exc).__name__}: {exc}")
        plain = accessors(unit)
        dependent = dependent_methods(model, plain)
        if len(dependent) >= limits.min_dependent_methods:
            return None
        evidence = {"dependent_methods": dependent, "accessors": sorted(plain),
                    "public_methods": [m.name for m in model.methods.values() if m.public]}
        return Drop(RejectReason.TRIVIAL, f"{unit.name}: {len(dependent)} public method(s) "
                    f"({', '.join(dependent) or 'none'}) read state another public method writes, fewer than "
                    f"{limits.min_dependent_methods}" + (f"; {len(plain)} accessor(s)" if plain else ""), evidence)
    return check


def shape_chain(path: str, limits: ShapeLimits) -> list[Filter[ClassUnit]]:
    """The shape filters, cheapest first."""
    return [kind_filter(path), size_filter(limits), interaction_filter, trivial_filter(limits)]
