"""Weakening over-specified tests: what the test writer does with a test that fails a faithful variant.

The gate names, for each faithful variant that failed (validation/faithful/), every failing test and the
line of the test where it failed. A test fails a faithful variant only by checking something the skeleton
leaves open, so that check is weakened to what the skeleton states, or dropped:

- a reworded message: the `match=` of the `pytest.raises` on that line goes (the exception type stays);
- a computed float: the floats of that assertion (short decimals too) are compared with `pytest.approx`;
- a reworded text: each expected text of that assertion that holds a reworded word is compared as
  `TextWith(...)`, equal to any text containing its other parts (the values formatted into it, the words the
  skeleton states): `assert r.rejected() == ["line 1: expected 0 characters, got 17"]` becomes
  `assert r.rejected() == [TextWith("line", "1", "0", "17")]` (the class is added to the test module);
  a check of the text in another way (`in`, `startswith`) goes;
- the state after a failed call: the check that saw it and everything after it in the test go (what
  follows ran on a state the skeleton leaves open), and the test goes when nothing it checks is left;
- any other kind (an order, a guard's precedence, call counts that depend on internal calls): the check
  goes and its calls stay (`assert obj.reset() == 4` becomes `obj.reset()`, since later checks see what the
  call changed); a `pytest.raises(X)` becomes `pytest.raises(Exception)` (the call must still fail).

A test stops at its first failure, so the variant never reached its later checks: those about the same
method are weakened alike. A failure on a line that is no check (a call that now raises, a helper's line,
a line of a fixture the test takes) drops the whole test, and so does a test left with nothing it checks;
a fixture no test takes any more goes with the last test that took it. The weakened candidate then goes
through the whole gate again, which measures coverage and interaction anew and runs the variants again:
one that still fails rejects it.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from core.records import Candidate, GateReport
from validation.faithful import VariantKind


@dataclass
class Weakening:
    """What was done to which test (for the candidate's generator parameters and the evidence)."""

    weakened: list[str] = field(default_factory=list)  # "test: what"
    dropped: list[str] = field(default_factory=list)  # test names

    @property
    def changed(self) -> bool:
        return bool(self.weakened or self.dropped)


Failure = tuple[str, "int | None", frozenset[str]]  # variant kind, failing test line, words it reworded


def _failures(report: GateReport) -> dict[str, list[Failure]]:
    """Test function name -> (variant kind, failing line, reworded words) for every test that failed a
    faithful variant."""
    evidence = report.evidence.get("faithful_variants") if isinstance(report.evidence, dict) else None
    out: dict[str, list[Failure]] = defaultdict(list)
    for variant in (evidence or {}).get("failed", []) if isinstance(evidence, dict) else []:
        words = frozenset(str(w) for w in variant.get("open_words") or ())
        for test_id, detail in (variant.get("failing_tests") or {}).items():
            name = test_id.split("::")[-1].split("[")[0]
            line = detail.get("line") if isinstance(detail, dict) else None
            out[name].append((str(variant.get("kind")), line if isinstance(line, int) else None, words))
    return dict(out)


TEXT_WITH = '''

class TextWith:
    """Equal to any text that contains each of these parts (the values it reports, the words its
    specification states), however the rest of it is worded."""

    def __init__(self, *parts):
        self.parts = parts

    def __eq__(self, other):
        return isinstance(other, str) and all(part in other for part in self.parts)

    def __repr__(self):
        return f"TextWith{self.parts!r}"
'''

_TEXT_PART = re.compile(r"[A-Za-z]+|\d+(?:\.\d+)?|[^\W\d_A-Za-z]+")


def text_parts(text: str, open_words: Collection[str]) -> list[str]:
    """The parts of an expected text a reworded one still holds: its words and numbers, without the words
    the variant reworded."""
    return list(dict.fromkeys(p for p in _TEXT_PART.findall(text) if p not in open_words))


class _ExpectedValues(cst.CSTTransformer):
    """Rewrites the values a comparison expects, one leaf at a time (`_leaf`), looking into list, tuple and
    dict displays (dict keys stay: they name, they are not compared loosely)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.Comparison:
        targets = [t.with_changes(comparator=self._deep(t.comparator)) for t in updated.comparisons]
        return updated.with_changes(left=self._deep(updated.left), comparisons=targets)

    def _deep(self, node: cst.BaseExpression) -> cst.BaseExpression:
        if isinstance(node, (cst.List, cst.Tuple)):
            return node.with_changes(elements=[e.with_changes(value=self._deep(e.value)) for e in node.elements])
        if isinstance(node, cst.Dict):
            return node.with_changes(elements=[e.with_changes(value=self._deep(e.value))
                                               if isinstance(e, cst.DictElement) else e for e in node.elements])
        return self._leaf(node)

    def _leaf(self, node: cst.BaseExpression) -> cst.BaseExpression:
        raise NotImplementedError


class _TextWith(_ExpectedValues):
    """In `==`/`!=` comparisons, expected texts (alone or inside list, tuple and dict displays) that hold a
    reworded word become `TextWith(<their other parts>)`; `found` counts texts with a reworded word anywhere
    else in the statement (looked into another way: `in`, `startswith`), which this cannot weaken."""

    def __init__(self, open_words: frozenset[str]) -> None:
        super().__init__()
        self.open_words = open_words
        self.replaced: set[int] = set()

    def _worded(self, node: cst.CSTNode) -> str | None:
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            value = node.evaluated_value
            if isinstance(value, str) and set(re.findall(r"[A-Za-z]+", value)) & self.open_words:
                return value
        return None

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.Comparison:
        if not all(isinstance(t.operator, (cst.Equal, cst.NotEqual)) for t in updated.comparisons):
            return updated
        return super().leave_Comparison(original, updated)

    def _leaf(self, node: cst.BaseExpression) -> cst.BaseExpression:
        text = self._worded(node)
        if text is None:
            return node
        self.count += 1
        args = [cst.Arg(cst.SimpleString(json.dumps(part, ensure_ascii=False)))
                for part in text_parts(text, self.open_words)]
        return cst.Call(func=cst.Name("TextWith"), args=args)

    def left_over(self, statement: cst.CSTNode) -> bool:
        """Whether the weakened statement still holds a text with a reworded word."""
        found: list[cst.CSTNode] = []

        class Find(cst.CSTVisitor):
            def visit_SimpleString(inner, node: cst.SimpleString) -> None:  # noqa: N805
                if self._worded(node) is not None:
                    found.append(node)

        statement.visit(Find())
        return bool(found)


def _raises_call(item: cst.WithItem) -> cst.Call | None:
    call = item.item
    if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)
            and call.func.value.value == "pytest" and call.func.attr.value == "raises"):
        return call
    return None


def _checks(statement: cst.CSTNode) -> bool:
    """Whether a statement checks something: an assert, or a `with pytest.raises(...)` block."""
    if isinstance(statement, cst.SimpleStatementLine):
        return any(isinstance(s, cst.Assert) for s in statement.body)
    if isinstance(statement, cst.With):
        return any(_raises_call(i) for i in statement.items)
    return False


class _Approximate(_ExpectedValues):
    """In comparisons, float literals (and their negations), alone or inside list, tuple and dict displays,
    become `pytest.approx(...)`; floats passed as arguments stay as they are."""

    def _leaf(self, node: cst.BaseExpression) -> cst.BaseExpression:
        negated = isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
        number = node.expression if negated else node
        # Every float of a check that failed the float variant: a computed 2.0 may be 1.9999999999999998 in
        # a correct implementation that computes it another way.
        if isinstance(number, cst.Float):
            self.count += 1
            return cst.Call(func=cst.parse_expression("pytest.approx"), args=[cst.Arg(node)])
        return node


def _called_method(statement: cst.BaseStatement) -> str | None:
    """The method a check is about: the outermost `x.m(...)` call it makes (the asserted value's, or the call
    inside a `pytest.raises` block)."""
    nodes: list[cst.CSTNode] = []
    if isinstance(statement, cst.SimpleStatementLine) and statement.body and isinstance(statement.body[0], cst.Assert):
        test = statement.body[0].test
        # the left side first; a check written the other way round (`"x" in obj.m()`) names it on the right
        nodes = [test.left, *(t.comparator for t in test.comparisons)] if isinstance(test, cst.Comparison) else [test]
    elif isinstance(statement, cst.With):
        nodes = list(statement.body.body)
    for node in nodes:
        for call in _calls(node):
            if isinstance(call.func, cst.Attribute):
                return call.func.attr.value
    return None


def _calls(node: cst.CSTNode) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Collect(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> bool:
            found.append(call)
            return False  # the outermost call only

    node.visit(Collect())
    return found


def _without_match(statement: cst.With) -> cst.With:
    items = []
    for item in statement.items:
        call = _raises_call(item)
        if call is not None:
            args = [a for a in call.args if not (a.keyword and a.keyword.value == "match")]
            if args:  # no dangling comma where `match=` was last
                args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            item = item.with_changes(item=call.with_changes(args=args))
        items.append(item)
    return statement.with_changes(items=items)


def _any_exception(statement: cst.With) -> cst.With:
    """`pytest.raises(X)` -> `pytest.raises(Exception)`: the call must still fail, in whatever way."""
    items = []
    for item in statement.items:
        call = _raises_call(item)
        if call is not None:
            item = item.with_changes(item=call.with_changes(args=[cst.Arg(cst.Name("Exception"))]))
        items.append(item)
    return statement.with_changes(items=items)


def _unchecked(statement: cst.BaseStatement) -> cst.BaseStatement | None:
    """The statement without its check, keeping the calls it makes (an assertion's calls change state that
    later checks see: `assert obj.reset() == 4` becomes `obj.reset()`); None when nothing would be left."""
    if isinstance(statement, cst.With):
        return _any_exception(statement)
    test = statement.body[0].test  # an assert (see _checks)
    sides = [test.left, *(t.comparator for t in test.comparisons)] if isinstance(test, cst.Comparison) else [test]
    kept = next((side for side in sides if _calls(side)), None)
    if kept is None:
        return None
    return statement.with_changes(body=[cst.Expr(kept)])


class _Weaken(cst.CSTTransformer):
    """For each failing (test, kind, line): the check on that line, and the later checks of the same test
    about the same method (a test stops at its first failure, so the variant never reached them), are
    weakened for that kind."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, failures: dict[str, list[Failure]]) -> None:
        super().__init__()
        self.failures = failures
        self.done = Weakening()
        self.uses_text_with = False

    def _span(self, node: cst.CSTNode) -> tuple[int, int]:
        position = self.get_metadata(PositionProvider, node)
        return position.start.line, position.end.line

    def _weaken(self, kind: str, statement: cst.BaseStatement, words: frozenset[str],
                failed: bool) -> tuple[cst.BaseStatement | None, str | None]:
        """The statement weakened for a variant of `kind`; `failed`: the variant failed on it (a later check
        about the same method is weakened only where it holds what the variant changed)."""
        if kind == VariantKind.TEXT_FORMAT.value:
            texts = _TextWith(words)
            changed = statement.visit(texts)
            if texts.count and not texts.left_over(changed):
                self.uses_text_with = True
                return changed, f"{texts.count} text(s) compared by their values and stated words"
            if not failed and not texts.left_over(statement):
                return statement, None  # it checks nothing the variant reworded
        if kind == VariantKind.MESSAGE.value and isinstance(statement, cst.With):
            return _without_match(statement), "pytest.raises without match"
        if kind == VariantKind.FLOAT_ULP.value:
            approximate = _Approximate()
            changed = statement.visit(approximate)
            if approximate.count:
                return changed, f"{approximate.count} float(s) compared approximately"
        return _unchecked(statement), "check of what the skeleton leaves open dropped (its calls kept)"

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef | cst.RemovalSentinel:
        name = original.name.value
        if name not in self.failures:
            return updated  # a fixture is never named: a failure inside it is the failure of a test
        statements: list[cst.BaseStatement | None] = list(updated.body.body)
        spans = [self._span(s) for s in original.body.body]
        for kind, line, words in self.failures[name]:
            index = next((i for i, (lo, hi) in enumerate(spans) if line is not None and lo <= line <= hi), None)
            if kind == VariantKind.STATE_AFTER_ERROR.value and index is not None:
                # What follows the check ran on a state the skeleton leaves open: it goes with the check.
                gone = sum(1 for s in statements[index:] if s is not None and _checks(s))
                statements[index:] = [None] * (len(statements) - index)
                self.done.weakened.append(f"{name}: {gone} check(s) of the state after a failed call dropped")
                continue
            if index is None or statements[index] is None or not _checks(statements[index]):
                self.done.dropped.append(name)  # it failed outside a check (a call raised, a helper's line)
                return cst.RemovalSentinel.REMOVE
            method = _called_method(statements[index])
            for at in range(index, len(statements)):
                statement = statements[at]
                if statement is None or not _checks(statement) or (at > index and (
                        method is None or _called_method(statement) != method)):
                    continue
                statements[at], what = self._weaken(kind, statement, words, at == index)
                if what is not None:
                    self.done.weakened.append(f"{name}: {what}")
        kept = [s for s in statements if s is not None]
        if not any(_checks(s) for s in kept):
            self.done.dropped.append(name)
            return cst.RemovalSentinel.REMOVE
        return updated.with_changes(body=updated.body.with_changes(body=kept))

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        if not self.done.dropped:
            return updated
        body = list(updated.body)
        while True:  # a fixture taken only by another orphaned fixture goes too
            orphans = {i for i, s in enumerate(body) if _plain_fixture(s) and not _taken(s.name.value, body, i)}
            if not orphans:
                return updated.with_changes(body=body)
            body = [s for i, s in enumerate(body) if i not in orphans]


def _plain_fixture(statement: cst.CSTNode) -> bool:
    """A function under `@pytest.fixture` (no arguments: not autouse, which no test names)."""
    if not isinstance(statement, cst.FunctionDef) or len(statement.decorators) != 1:
        return False
    decorator = statement.decorators[0].decorator
    if isinstance(decorator, cst.Call):
        if decorator.args:
            return False
        decorator = decorator.func
    return (isinstance(decorator, cst.Attribute) and isinstance(decorator.value, cst.Name)
            and decorator.value.value == "pytest" and decorator.attr.value == "fixture")


def _taken(name: str, body: list[cst.CSTNode], at: int) -> bool:
    """Whether a statement other than the fixture itself asks for it: as a parameter, or in a string
    (`usefixtures("name")`). A local variable of the same name (`graph = TaskGraph()` in a test that builds
    its own) does not."""
    class Find(cst.CSTVisitor):
        found = False

        def visit_Param(self, node: cst.Param) -> None:
            self.found |= node.name.value == name

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            self.found |= node.evaluated_value == name

    for index, statement in enumerate(body):
        if index != at:
            finder = Find()
            statement.visit(finder)
            if finder.found:
                return True
    return False


def weaken_overspecified(candidate: Candidate, report: GateReport) -> tuple[Candidate, Weakening]:
    """The candidate with the checks that failed a faithful variant weakened or dropped (unchanged when the
    report names none)."""
    failures = _failures(report)
    if not failures:
        return candidate, Weakening()
    weaken = _Weaken(failures)
    test_code = MetadataWrapper(cst.parse_module(candidate.test_code)).visit(weaken).code
    if not weaken.done.changed:
        return candidate, weaken.done
    if weaken.uses_text_with and "class TextWith" not in test_code:
        test_code = _with_text_with(test_code)
    if "pytest.approx" in test_code and "import pytest" not in test_code:
        test_code = "import pytest\n" + test_code
    parameters = {**candidate.generator.parameters, "weakened_checks": len(weaken.done.weakened),
                  "dropped_tests": len(weaken.done.dropped)}
    return candidate.model_copy(update={
        "test_code": test_code,
        "candidate_id": Candidate.make_id(candidate.class_name, candidate.solution_code, test_code),
        "generator": candidate.generator.model_copy(update={"parameters": parameters}),
    }), weaken.done


def _with_text_with(test_code: str) -> str:
    """The test module with the `TextWith` class after its imports."""
    module = cst.parse_module(test_code)
    body = list(module.body)
    at = 0
    for index, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and \
                any(isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body):
            at = index + 1
        elif at or not (isinstance(statement, cst.SimpleStatementLine) and statement.body
                        and isinstance(statement.body[0], cst.Expr)):
            break  # past the imports (a module docstring before them is skipped)
    helper = list(cst.parse_module(TEXT_WITH.lstrip("\n")).body)
    helper[0] = helper[0].with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
    return module.with_changes(body=body[:at] + helper + body[at:]).code
