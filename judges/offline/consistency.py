"""The consistency judge: do the tests check only what the skeleton states? (static: `ast`, nothing runs)

The gate proves the reference passes the tests; it cannot see a test that a correct implementation of the
skeleton would fail, which is the commonest complaint against class-level benchmarks. This judge reads the
test module next to the skeleton's interface and reports, under `tests_match_spec`:

- an attribute of the class used by a test that the skeleton never states (not a method, not a class
  attribute, not named in any docstring), and any private attribute (`obj._x`);
- a field of any class of the module (a name a method assigns on `self`, in the reference) that a test
  reads or assigns through an instance (`tree.root.height`, `node.key` for `node = Node(...)`) while the
  skeleton states it nowhere (`core.analysis.slice_fields`): its bodies are gone, so a solver never learnt
  the name, nor what it holds (a leaf's height);
- an exception a test expects from a method whose docstring (or the class docstring, or the docstring of a
  method it names) does not document it or a subclass of it;
- an exact exception message (`match=`, `str(excinfo.value) == ...`) or `repr`/`str` text that does not
  appear in the skeleton;
- an ordered comparison (`obj.m() == [a, b]`) with a method whose order the skeleton does not state, in
  words ("alphabetically", "oldest first", "sorted by", in the method's docstring or a sentence of the
  class docstring naming it) or by documented indices.

What counts as stated (an order, a message, a text) is `core.analysis.statements`'s rule, the one the gate's
faithful variants and the mined tests use too: were the rules two, the gate could reject for an unstated
order a test this judge accepts as stated, or the other way round.

Which expressions are instances of the class is found the way a reader would: names assigned from
`ClassName(...)`, fixtures and helpers that return one, `self.x = ClassName(...)` in unittest set-ups, and
names assigned from those. A test that reaches the class by a way not listed here is not checked (a
missed finding, never a false one).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from enum import StrEnum

from core.analysis.interface import Interface, read_interface
from core.analysis.slice_fields import instance_fields, module_classes, stated_names
from core.analysis.statements import (
    documented_exceptions,
    expected_text_stated,
    interface_statements,
    order_stated,
)
from core.records import Candidate, Finding, GateReport, JudgeSpec, Verdict
from core.suite_runs import SuiteRunner
from judges.config import JudgesConfig
from judges.protocol import abstention, decision_from_findings

VERSION = "5"  # bump when a rule changes: it is part of the judge spec, hence of the verdict cache key
MAX_NOTES = 6
_RAISES = {"raises", "assertRaises", "assertRaisesRegex"}
_ANY_EXCEPTION = frozenset({"Exception", "BaseException"})
# A docstring that says a call can fail, in words: `pytest.raises(Exception)` then checks only that it does
# (the weakening writes it where the exact class is open), which no correct implementation fails.
_STATES_A_RAISE = re.compile(r"\braise[sd]?\b|\berrors?\b|\bfails?\b|\brefuse[sd]?\b|\breject(?:s|ed)?\b", re.I)


class CheckKind(StrEnum):
    """What a test checks that the skeleton does not state."""

    PRIVATE_ATTRIBUTE = "private_attribute"
    UNDECLARED_ATTRIBUTE = "undeclared_attribute"
    UNSTATED_FIELD = "unstated_field"
    UNSTATED_EXCEPTION = "unstated_exception"
    UNSTATED_MESSAGE = "unstated_message"
    UNSTATED_TEXT = "unstated_text"
    UNSTATED_ORDER = "unstated_order"


@dataclass(frozen=True)
class UnstatedCheck:
    """One check of a test module that the skeleton does not state: where it is (the test function holding
    it, None for module code such as a fixture or a helper; its line), its kind and what it checks. The judge
    writes it as `<test>:<line>: <what>` ("module" for module code); mining drops the tests it names."""

    test: str | None
    line: int
    kind: CheckKind
    what: str

    def __str__(self) -> str:
        return f"{self.test or 'module'}:{self.line}: {self.what}"


@dataclass
class _Instances:
    """Source texts of the expressions that hold an instance of the class under test."""

    class_name: str
    exprs: set[str] = field(default_factory=set)
    factories: set[str] = field(default_factory=set)  # functions (and fixtures) returning an instance

    def holds(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Call):
            func = node.func
            return (isinstance(func, ast.Name) and func.id in {self.class_name} | self.factories)
        return ast.unparse(node) in self.exprs


def _find_instances(tree: ast.Module, class_name: str) -> _Instances:
    found = _Instances(class_name, exprs={class_name})  # `ClassName.X` reads the class's interface too
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for _ in range(4):  # names assigned from names assigned from ...: a few rounds reach a fixpoint
        before = (len(found.exprs), len(found.factories))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and found.holds(node.value):
                found.exprs |= {ast.unparse(t) for t in node.targets if isinstance(t, (ast.Name, ast.Attribute))}
            elif isinstance(node, ast.AnnAssign) and node.value is not None and found.holds(node.value):
                found.exprs.add(ast.unparse(node.target))
            elif isinstance(node, ast.withitem) and node.optional_vars is not None and found.holds(node.context_expr):
                found.exprs.add(ast.unparse(node.optional_vars))
        for fn in functions:
            returned = [s.value for s in ast.walk(fn) if isinstance(s, (ast.Return, ast.Yield)) and s.value is not None]
            if any(found.holds(v) for v in returned):
                found.factories.add(fn.name)
                found.exprs.add(fn.name)  # as a fixture parameter of a test
        if (len(found.exprs), len(found.factories)) == before:
            break
    return found


def _exception_names(node: ast.AST) -> list[str]:
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    return [i.id if isinstance(i, ast.Name) else i.attr for i in items if isinstance(i, (ast.Name, ast.Attribute))]


def _called_methods(nodes: list[ast.AST], found: _Instances) -> set[str]:
    """Methods of the class called (or referenced as callables) in these statements/expressions."""
    out = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and found.holds(sub.value):
                out.add(sub.attr)
            elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == found.class_name:
                out.add("__init__")
            elif isinstance(sub, ast.Name) and sub.id == found.class_name:
                out.add("__init__")
    return out


class _TestReader:
    """Walks one test module and collects its unstated checks (`UnstatedCheck`)."""

    def __init__(self, tree: ast.Module, interface: Interface, solution: str = "") -> None:
        self.tree = tree
        self.interface = interface
        self.statements = interface_statements(interface)
        self.found = _find_instances(tree, interface.class_name)
        self.declared = interface.declared_names()
        self.others = [_find_instances(tree, name) for name in module_classes(interface.text)
                       if name != interface.class_name]
        stated = stated_names(interface.text)
        self.hidden: dict[str, list[str]] = {}  # an unstated field -> the classes that assign it
        for owner, names in (instance_fields(solution) if solution else {}).items():
            for name in names - stated:
                self.hidden.setdefault(name, []).append(owner)
        self.problems: list[UnstatedCheck] = []
        self.raises_names: set[str] = set()  # `as` names of pytest.raises / assertRaises contexts

    def _owner(self, node: ast.AST) -> str | None:
        return next((f.name for f in ast.walk(self.tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and f.lineno <= getattr(node, "lineno", 0) <= (f.end_lineno or 0)
                     and f.name.startswith("test")), None)

    def add(self, node: ast.AST, kind: CheckKind, what: str) -> None:
        check = UnstatedCheck(self._owner(node), getattr(node, "lineno", 0), kind, what)
        if check not in self.problems:
            self.problems.append(check)

    def read(self) -> list[UnstatedCheck]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Attribute) and self.found.holds(node.value):
                self._attribute(node)
            elif isinstance(node, ast.Attribute) and node.attr in self.hidden and self._reached(node.value):
                owners = ", ".join(sorted(self.hidden[node.attr]))
                self.add(node, CheckKind.UNSTATED_FIELD,
                         f"uses {node.attr} of {owners}, a field the skeleton does not state")
            elif isinstance(node, ast.With):
                self._with(node)
            elif isinstance(node, ast.Call) and self._raises_kind(node) and len(node.args) >= 2:
                self._expected(node, _exception_names(node.args[0]), _called_methods([node.args[1]], self.found))
            elif isinstance(node, ast.Assert):
                self._assert(node)
        return sorted(self.problems, key=lambda p: p.line)

    def _attribute(self, node: ast.Attribute) -> None:
        name = node.attr
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            self.add(node, CheckKind.PRIVATE_ATTRIBUTE, f"uses the private attribute {name}")
        elif name not in self.declared and not (name.startswith("__") and name.endswith("__")):
            self.add(node, CheckKind.UNDECLARED_ATTRIBUTE, f"uses {name}, which the skeleton does not declare")

    def _reached(self, node: ast.AST) -> bool:
        """Whether `node` is an instance of a class of the module or reached from one (`tree.root.left`,
        `tree.find(3)`, `nodes[0]`): an expression not traced to one is left alone (a missed finding, never
        a false one: `excinfo.value` is pytest's)."""
        while True:
            if self.found.holds(node) or any(other.holds(node) for other in self.others):
                return True
            if isinstance(node, (ast.Attribute, ast.Subscript)):
                node = node.value
            elif isinstance(node, ast.Call):
                node = node.func
            else:
                return False

    @staticmethod
    def _raises_kind(call: ast.Call) -> str | None:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        return name if name in _RAISES else None

    def _with(self, node: ast.With) -> None:
        for item in node.items:
            call = item.context_expr
            if not isinstance(call, ast.Call) or not (kind := self._raises_kind(call)) or not call.args:
                continue
            if item.optional_vars is not None:
                self.raises_names.add(ast.unparse(item.optional_vars))
            self._expected(node, _exception_names(call.args[0]), _called_methods(node.body, self.found))
            pattern = next((k.value for k in call.keywords if k.arg in ("match", "expected_regex")), None)
            if pattern is None and kind == "assertRaisesRegex" and len(call.args) > 1:
                pattern = call.args[1]
            if isinstance(pattern, ast.Constant) and isinstance(pattern.value, str) and not expected_text_stated(pattern.value, self.interface.text):
                self.add(node, CheckKind.UNSTATED_MESSAGE,
                         f"expects the exact message {pattern.value!r}, which the skeleton does not state")

    def _expected(self, node: ast.AST, expected: list[str], methods: set[str]) -> None:
        """An expectation of `expected` (one exception, or any of a tuple) from a call of `methods` is unstated
        when none of them is documented (a documented subclass of it counts) by the docstrings of the methods
        called, the class's, or of a method they name. `Exception` (or `BaseException`) is stated as soon as
        those docstrings say the call can fail: it then checks only that it does."""
        methods = {m for m in methods if m in self.interface.methods or m == "__init__"}
        if not expected or not methods:
            return  # the raising call is not on the class: nothing to hold it against
        documented = set().union(*(documented_exceptions(self.interface, m) for m in methods))
        docs = "\n".join([self.interface.class_doc, *(self.statements.of(m) for m in methods)])

        def stated(exc: str) -> bool:
            if exc in _ANY_EXCEPTION and (documented or _STATES_A_RAISE.search(docs)):
                return True
            return any(self.interface.is_subclass(d, exc) for d in documented)

        if not any(stated(exc) for exc in expected):
            self.add(node, CheckKind.UNSTATED_EXCEPTION,
                     f"expects {', '.join(expected)} from {', '.join(sorted(methods))}, which do(es) not document it")

    def _assert(self, node: ast.Assert) -> None:
        test = node.test
        strings = [c.value for c in ast.walk(test) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        text = ast.unparse(test)
        if any(re.search(rf"\b{re.escape(n)}\.(value|exception)\b", text) for n in self.raises_names):
            unstated = [s for s in strings if len(s.strip()) >= 3 and not expected_text_stated(re.escape(s), self.interface.text)]
            if unstated:
                self.add(node, CheckKind.UNSTATED_MESSAGE,
                         f"asserts the exception message {unstated[0]!r}, which the skeleton does not state")
        for call in ast.walk(test):
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in ("repr", "str")
                    and call.args and self.found.holds(call.args[0]) and strings):
                dunder = f"__{call.func.id}__"
                if not (dunder in self.interface.methods and self.interface.methods[dunder].docstring):
                    self.add(node, CheckKind.UNSTATED_TEXT,
                             f"asserts the exact {call.func.id}() text of the object, which the skeleton does not state")
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
            self._ordering(node, test.left, test.comparators[0])

    def _ordering(self, node: ast.AST, left: ast.AST, right: ast.AST) -> None:
        for call, literal in ((left, right), (right, left)):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in ("list", "tuple") and call.args:
                call = call.args[0]
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and self.found.holds(call.func.value)):
                continue
            if not isinstance(literal, (ast.List, ast.Tuple)) or len(literal.elts) < 2:
                continue
            if len({ast.unparse(e) for e in literal.elts}) < 2:
                continue  # all elements equal: order cannot matter
            method = self.interface.methods.get(call.func.attr)
            if method is None:
                continue  # reported as undeclared already
            if not order_stated(self.statements, method.name):
                self.add(node, CheckKind.UNSTATED_ORDER,
                         f"compares {method.name}() with an ordered sequence, but its docstring states no order")


def unstated_checks(test_code: str, skeleton: str, class_name: str, solution: str = "") -> list[UnstatedCheck]:
    """This judge's problems with `test_code`, in line order; `SyntaxError`/`LookupError` when the tests or the
    skeleton cannot be read. The one rule for "a test checks what the skeleton does not state": mining drops a
    repository's tests named here before the gate (`pipeline/mining/stated_tests.py`), and the model path
    drops the tests expecting an unstated exception (`pipeline/synthesis/stated_raises.py`)."""
    return _TestReader(ast.parse(test_code), read_interface(skeleton, class_name), solution).read()


class ConsistencyJudge:
    """Offline judge of whether the tests stay within what the skeleton states."""

    @property
    def spec(self) -> JudgeSpec:
        return JudgeSpec(backend="offline", name="consistency", prompt_version=VERSION)

    def review(self, candidate: Candidate, report: GateReport | None) -> Verdict:
        try:
            interface = read_interface(candidate.skeleton or candidate.solution_code, candidate.class_name)
            tree = ast.parse(candidate.test_code)
        except (SyntaxError, LookupError, ValueError) as exc:
            return abstention(candidate.candidate_id, self.spec, f"the skeleton or the tests could not be read: {exc}")
        problems = _TestReader(tree, interface, candidate.solution_code).read()
        more = f" (and {len(problems) - MAX_NOTES} more)" if len(problems) > MAX_NOTES else ""
        finding = Finding(criterion="tests_match_spec", ok=not problems,
                          note="; ".join(map(str, problems[:MAX_NOTES])) + more if problems
                          else "the tests use the declared interface and only stated messages, exceptions and orders")
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec,
                       decision=decision_from_findings([finding]), findings=(finding,))


def make_judge(config: JudgesConfig, runner: SuiteRunner | None) -> ConsistencyJudge:
    """The checks registry's factory (judges/offline/__init__.py). Static (it reads the tests beside the
    skeleton), so it needs neither the runner nor a setting."""
    return ConsistencyJudge()
