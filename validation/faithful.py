"""Faithful variants: the dual of mutants. Mutants must fail the tests; faithful variants must pass them.

A faithful variant is the reference changed only where its skeleton is silent: it keeps everything the
skeleton states and differs in what a correct implementation written from the skeleton alone may do
otherwise. A test that fails one checks something the skeleton never states (it is over-specified), so
every solver that reads the skeleton correctly but decides that detail differently is marked wrong. Each
kind below is applied to every place of its kind at once (one variant per kind keeps the gate's cost at a
few forked runs per candidate), and skipped where the skeleton states the detail:

- ``message``: exception messages reworded (values formatted into them are kept), unless the skeleton's
  docstrings quote the message's fixed text;
- ``float_ulp``: float results of public methods moved by one ulp when they carry more digits than a short
  decimal (a computed value, not 2.5 or 0.1), unless the skeleton writes that value;
- ``guard_order``: independent guard checks at the top of a method (``if ...: raise``, a loop of such
  checks over items, or a call of a private method that can raise; past leading calls such as a call
  recorder, and inside a leading ``try``) in another order, unless the method's docstring states a
  precedence ("checked before ...");
- ``internal_route``: where a method records its own calls (``self._record_call("name")``), calls that other
  methods make to it routed around the recording. Never skipped: a docstring that mentions another method
  ("like ``record``, for each pair") does not state that the method calls it, and whether a count includes
  calls from inside stays open unless the skeleton says they do not count (then routing changes nothing);
- ``unordered``: dicts returned by public methods in reversed key order, and lists or tuples built from sets
  reversed, unless the method's docstring states an order;
- ``text_format``: text a public method returns (or stores and another returns: a log, a list of rejected
  lines) built by an f-string, ``str.format``, ``%`` or concatenation, with the words of its fixed parts
  reworded; the values formatted into it, its punctuation and every word the skeleton states (quoted, in an
  example, or a run of the format written out in a docstring) are kept. Skipped where the text is used
  inside the class (compared, parsed, a dict key) or a word of it appears in another literal of the class;
- ``state_after_error``: where a public method checks its arguments (``if ...: raise``) before it changes the
  object, the change made first when a check fails (a copy of the method without those checks runs, its
  own errors swallowed, then the check's exception is raised), unless a docstring says what a failed call
  leaves ("unchanged", "nothing is recorded", "the values before it stay").

The variants are generated from the reference's text with libcst (never imported here); they run in the
sandbox like mutants (`validation.gate`). Written here rather than taken from a library because no
mutation tool generates behaviour-preserving changes: they all aim for the opposite.
"""

from __future__ import annotations

import ast
import difflib
import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

import libcst as cst

from core.analysis.parsed import parsed


class VariantKind(str, Enum):
    """What a faithful variant changes (see the module docstring)."""

    MESSAGE = "message"
    FLOAT_ULP = "float_ulp"
    GUARD_ORDER = "guard_order"
    INTERNAL_ROUTE = "internal_route"
    UNORDERED = "unordered"
    TEXT_FORMAT = "text_format"
    STATE_AFTER_ERROR = "state_after_error"


SHORT_FLOAT_DIGITS = 12
"""A float whose shortest repr has more significant digits than this is a computed value whose last digit
depends on how it was computed (0.025400000000000002, 8.711754349385727); one with at most this many is a
short decimal that any sensible computation lands on exactly (2.5, 0.1, 33.25). Tests compare the former
with `pytest.approx` (pipeline/synthesis/testgen.py) and the float_ulp variant moves only those."""


def significant_digits(value: float) -> int:
    """Significant digits of the shortest repr of a finite float (3.0 -> 1, 0.0254 -> 3)."""
    mantissa = repr(abs(value)).split("e")[0].replace(".", "").strip("0")
    return len(mantissa)


def is_computed_float(value: object) -> bool:
    """A finite float with more digits than a short decimal (see SHORT_FLOAT_DIGITS)."""
    return (type(value) is float and value == value and value not in (float("inf"), float("-inf"))
            and significant_digits(value) > SHORT_FLOAT_DIGITS)


@dataclass(frozen=True)
class FaithfulVariant:
    """The reference with every place of one kind changed; `sites` names each place ("method:line")."""

    kind: VariantKind
    source: str
    sites: tuple[str, ...]
    description: str
    open_words: tuple[str, ...] = ()  # text_format: the words reworded (what a weakened check no longer asks for)

    @property
    def id(self) -> str:
        return f"faithful:{self.kind.value}"

    def diff(self, reference: str, limit: int = 4000) -> str:
        """Unified diff of the reference against this variant, cut at `limit` characters."""
        text = "".join(difflib.unified_diff(reference.splitlines(keepends=True), self.source.splitlines(keepends=True),
                                            "reference", f"variant ({self.kind.value})", n=1))
        return text if len(text) <= limit else text[:limit] + "\n... (diff cut)\n"


@dataclass
class Statements:
    """What the skeleton states, per method: its docstring, and the class docstring."""

    class_doc: str = ""
    methods: dict[str, str] = field(default_factory=dict)
    text: str = ""

    def of(self, method: str) -> str:
        return self.methods.get(method, "")


def skeleton_statements(skeleton: str, class_name: str) -> Statements:
    """The docstrings a solver reads, from the skeleton (an unparseable skeleton states nothing)."""
    out = Statements(text=skeleton)
    try:
        tree = ast.parse(skeleton)
    except SyntaxError:
        return out
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            out.class_doc = ast.get_docstring(node) or ""
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.methods[item.name] = ast.get_docstring(item) or ""
    return out


# The words with which a docstring states a precedence between checks, or an order of a result.
_PRECEDENCE = re.compile(r"\bbefore\b|\bprecedence\b|\bpriority\b|\bchecked first\b|\bfirst checks?\b", re.I)
_CLASS_PRECEDENCE = re.compile(r"before (?:its |their |the |any )?(?:other )?(?:argument|input|validation)", re.I)
_ORDER = re.compile(r"\b(sort\w*|order\w*|alphabetic\w*|ascending|descending|insertion|oldest|newest|earliest|"
                    r"latest|first|last|chronolog\w*|rank\w*|increasing|decreasing|sequence|ind(?:ex|ices)|"
                    r"position\w*|reverse\w*)\b", re.I)
_FLOAT_LITERAL = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?")

HELPERS = '''

def _faithful_ulp(value, _stated=frozenset()):
    """A faithful variant's helper: move computed floats (nested in lists, tuples, dicts) by one ulp."""
    import math
    if type(value) is float:
        if math.isfinite(value) and value not in _stated and len(repr(abs(value)).split("e")[0].replace(".", "").strip("0")) > %(digits)d:
            return math.nextafter(value, math.inf)
        return value
    if type(value) is list:
        return [_faithful_ulp(v, _stated) for v in value]
    if type(value) is tuple:
        return tuple(_faithful_ulp(v, _stated) for v in value)
    if type(value) is dict:
        return {k: _faithful_ulp(v, _stated) for k, v in value.items()}
    return value


def _faithful_reorder(value, reverse_sequences=False):
    """A faithful variant's helper: a returned dict in reversed key order, a set-derived sequence reversed."""
    if type(value) is dict:
        return dict(reversed(list(value.items())))
    if reverse_sequences and type(value) in (list, tuple):
        return type(value)(reversed(value))
    return value
''' % {"digits": SHORT_FLOAT_DIGITS}


def _is_public(name: str) -> bool:
    return not name.startswith("_")


def _docstring_statement(body: Sequence[cst.BaseStatement]) -> bool:
    first = body[0] if body else None
    return (isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1 and isinstance(first.body[0], cst.Expr)
            and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def _self_call(node: cst.BaseExpression) -> str | None:
    """`m` for an expression `self.m(...)`, else None."""
    if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name)
            and node.func.value.value == "self"):
        return node.func.attr.value
    return None


class _Methods:
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
        return _raised_names(node) | set(self.documented_raises(name)) if node is not None else set()

    def documented_raises(self, name: str) -> dict[str, str]:
        """Exception name -> its `:raises X: when` clause in the method's docstring."""
        node = self.nodes.get(name)
        doc = (ast.get_docstring(node) or "") if node is not None else ""
        return {m.group(1).rsplit(".", 1)[-1]: m.group(2) for m in _RAISES_CLAUSE.finditer(doc)}

    def checked_arguments(self, call: ast.Call) -> list[ast.expr]:
        """The arguments of `self.m(...)` that `m`'s documented raises depend on: those passed for the
        parameters its `:raises` clauses name (``recipe`` in "if the recipe is unknown"). Every argument when
        the clauses name none of them, or `m` documents no raise: without the words, any argument may be
        what it checks."""
        callee = _self_method(call)
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
            if any(_on_self(t) for t in targets):
                return True
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
                if n.func.attr in _MUTATORS and _on_self(n.func.value):
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
                if value is not None and _set_valued(value, set()):
                    out.update(t.attr for t in targets if isinstance(t, ast.Attribute)
                               and isinstance(t.value, ast.Name) and t.value.id == "self")
        return out


_RAISES_CLAUSE = re.compile(r":raises\s+([A-Za-z_][\w.]*)\s*:\s*((?:.|\n(?!\s*:|\s*\n|\s*>>>))*)")

_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard",
                       "setdefault", "popitem", "sort", "reverse"})


def _on_self(node: ast.AST) -> bool:
    """`self.x`, `self.x[k]`, `self.x.y`: a place inside the instance."""
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            return True
        node = node.value
    return False


def _raised_names(node: ast.AST) -> set[str]:
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Raise) and n.exc is not None:
            exc = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
            if isinstance(exc, ast.Name):
                out.add(exc.id)
            elif isinstance(exc, ast.Attribute):
                out.add(exc.attr)
    return out


def _set_valued(node: ast.expr, set_names: set[str], set_attributes: Iterable[str] = ()) -> bool:
    """Whether an expression is a set: a set display or comprehension, set()/frozenset(), set operators of
    sets, a local name or `self` attribute known to hold one."""
    if isinstance(node, (ast.Set, ast.SetComp)):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset"):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.BitAnd, ast.Sub, ast.BitXor)):
        return _set_valued(node.left, set_names, set_attributes) and _set_valued(node.right, set_names, set_attributes)
    if isinstance(node, ast.Name):
        return node.id in set_names
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr in set(set_attributes)
    return False


def _set_derived_sequence(node: ast.expr, set_names: set[str], set_attributes: set[str]) -> bool:
    """A list or tuple whose order is a set's iteration order: list(S), tuple(S), [.. for x in S]."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple")
            and len(node.args) == 1):
        return _set_valued(node.args[0], set_names, set_attributes)
    if isinstance(node, ast.ListComp) and len(node.generators) == 1:
        return _set_valued(node.generators[0].iter, set_names, set_attributes)
    return False


def _local_sets(function: ast.FunctionDef | ast.AsyncFunctionDef, set_attributes: set[str]) -> set[str]:
    names: set[str] = set()
    for n in ast.walk(function):
        if isinstance(n, ast.Assign) and _set_valued(n.value, names, set_attributes):
            names.update(t.id for t in n.targets if isinstance(t, ast.Name))
    return names


# --- the transformers: each rewrites the class's methods and records the places it changed -------------


class _ClassRewriter(cst.CSTTransformer):
    """Base: visits the target class's methods (not nested functions), tracks the current method."""

    METADATA_DEPENDENCIES = (cst.metadata.PositionProvider,)

    def __init__(self, class_name: str) -> None:
        super().__init__()
        self.class_name = class_name
        self.in_class = 0
        self.method: str | None = None
        self.depth = 0  # function nesting inside the class: 1 = a method's own body
        self.sites: list[str] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        if node.name.value == self.class_name and self.in_class == 0:
            self.in_class += 1
            return True
        return self.in_class > 0

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        if original.name.value == self.class_name and self.in_class == 1 and self.depth == 0:
            self.in_class -= 1
            return self.finish_class(updated)
        return updated

    def finish_class(self, node: cst.ClassDef) -> cst.ClassDef:
        return node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.in_class:
            self.depth += 1
            if self.depth == 1:
                self.method = node.name.value
        return True

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if self.in_class:
            result = self.finish_method(original, updated) if self.depth == 1 else updated
            self.depth -= 1
            if self.depth == 0:
                self.method = None
            return result
        return updated

    def finish_method(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        return updated

    def in_method_body(self) -> bool:
        return self.in_class == 1 and self.depth == 1 and self.method is not None

    def site(self, node: cst.CSTNode) -> None:
        line = self.get_metadata(cst.metadata.PositionProvider, node).start.line
        self.sites.append(f"{self.method}:{line}")


def _static_text(node: cst.BaseExpression) -> str | None:
    """The fixed text of a string message (the literal parts of an f-string), None when not a string."""
    if isinstance(node, cst.SimpleString):
        return str(node.evaluated_value)
    if isinstance(node, cst.ConcatenatedString):
        left, right = _static_text(node.left), _static_text(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, cst.FormattedString):
        return "".join(p.value for p in node.parts if isinstance(p, cst.FormattedStringText))
    return None


def message_stated(message: str, statements: str) -> bool:
    """A message counts as stated when a fixed run of its text (eight characters or more, or the whole
    message if shorter) appears in the skeleton's docstrings."""
    chunks = [c.strip() for c in re.split(r"[{}]", message) if len(c.strip()) >= min(8, len(message.strip()))]
    return any(chunk and chunk in statements for chunk in chunks)


class _RewordMessages(_ClassRewriter):
    def __init__(self, class_name: str, statements: Statements) -> None:
        super().__init__(class_name)
        self.statements = statements

    def leave_Raise(self, original: cst.Raise, updated: cst.Raise) -> cst.Raise:
        if not self.in_class or self.method is None or not isinstance(updated.exc, cst.Call):
            return updated
        args = list(updated.exc.args)
        if not args or args[0].keyword is not None or args[0].star:
            return updated
        message = _static_text(args[0].value)
        if message is None:
            return updated
        stated = self.statements.class_doc + "\n" + self.statements.of(self.method)
        if message_stated(message, stated):
            return updated
        # Values formatted into the message stay (a solver may well name the offending value); the words go.
        values = [p for p in args[0].value.parts if isinstance(p, cst.FormattedStringExpression)] \
            if isinstance(args[0].value, cst.FormattedString) else []
        if values:
            parts: list[cst.BaseFormattedStringContent] = [cst.FormattedStringText("reworded:")]
            for value in values:
                parts += [cst.FormattedStringText(" "), value]
            replacement: cst.BaseExpression = cst.FormattedString(parts=parts, start='f"', end='"')
        else:
            replacement = cst.SimpleString('"reworded message"')
        self.site(original)
        args[0] = args[0].with_changes(value=replacement)
        return updated.with_changes(exc=updated.exc.with_changes(args=args))


class _WrapReturns(_ClassRewriter):
    """Wraps `return X` of public methods as `return helper(X, extra)`, where `wanted` says so."""

    def __init__(self, class_name: str, helper: str, wanted) -> None:  # wanted(method, value node) -> extra args or None
        super().__init__(class_name)
        self.helper = helper
        self.wanted = wanted

    def leave_Return(self, original: cst.Return, updated: cst.Return) -> cst.Return:
        if not self.in_method_body() or updated.value is None or not _is_public(self.method or "_"):
            return updated
        extra = self.wanted(self.method, original)
        if extra is None:
            return updated
        self.site(original)
        value = updated.value
        if isinstance(value, cst.Tuple) and not value.lpar:
            # `return a, b` is one tuple: unparenthesised as an argument it would be two arguments
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        call_args = [cst.Arg(value)] + [cst.Arg(cst.parse_expression(e)) for e in extra]
        return updated.with_changes(value=cst.Call(func=cst.Name(self.helper), args=call_args))


class _ReorderGuards(_ClassRewriter):
    def __init__(self, class_name: str, statements: Statements, methods: _Methods) -> None:
        super().__init__(class_name)
        self.statements = statements
        self.methods = methods

    def _guard(self, statement: cst.BaseStatement, module: cst.Module) -> tuple[set[str], set[str]] | None:
        """A guard's names and `self` attributes it depends on, and the exceptions it raises; None when the
        statement is no guard. Guards: `if ...: raise`, a loop of such checks over items, a call of a private
        method that can raise, and a name bound to what a method that can raise and changes nothing returns
        (`col = self.column_index(column)`: its name joins the guard's, so a check that uses it stays after)."""
        code = module.code_for_node(statement)
        try:
            node = ast.parse(code.strip()).body[0]
        except (SyntaxError, IndexError):
            return None
        local: set[str] = set()
        bound: set[str] = set()
        if _raising_if(node):
            uses: ast.AST = node.test
            raised = _raised_names(node)
        elif isinstance(node, ast.For) and not node.orelse and len(node.body) == 1 and _raising_if(node.body[0]):
            uses = node  # a check of every item: `for x in xs: if bad(x): raise ...`
            local = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
            raised = _raised_names(node)
        elif isinstance(node, ast.Expr) and (callee := _self_method(node.value)) and callee.startswith("_") \
                and self.methods.raises(callee):
            uses, raised = node.value, self.methods.raised(callee)
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
              and (callee := _self_method(node.value)) and self.methods.raises(callee)
              and not self.methods.writes(callee)):
            # What the lookup's raise depends on: the arguments its raise clauses name, and the state it
            # reads (`missing_for(recipe, times)` raises on the recipe: a check of `times` is independent).
            assert isinstance(node.value, ast.Call)
            uses = ast.Tuple(elts=[*self.methods.checked_arguments(node.value), node.value.func], ctx=ast.Load())
            raised, bound = self.methods.raised(callee), {node.targets[0].id}
        else:
            return None
        names = {n.id for n in ast.walk(uses) if isinstance(n, ast.Name) and n.id != "self"}
        names |= {f"self.{n.attr}" for n in ast.walk(uses) if isinstance(n, ast.Attribute)
                  and isinstance(n.value, ast.Name) and n.value.id == "self"}
        for attr in [a for a in names if a.startswith("self.")]:
            names |= self.methods.touched(attr[len("self."):])
        builtins = {"isinstance", "len", "type", "int", "float", "str", "bool", "list", "dict", "tuple", "set",
                    "callable", "any", "all", "hasattr", "min", "max", "abs", "round", "None", "True", "False",
                    "sorted"}
        return (names - builtins - local) | bound, raised

    def finish_method(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        name = original.name.value
        pinned = _pinned_exceptions(self.statements.of(name), self.statements.class_doc)
        if pinned is None:
            return updated
        body = list(original.body.body)  # this rewriter changes nothing else: the original is the updated
        reordered = self._reorder_block(body, 1 if _docstring_statement(body) else 0, pinned)
        if reordered is None:
            return updated
        return original.with_changes(body=original.body.with_changes(body=reordered))

    def _reorder_block(self, body: list[cst.BaseStatement], start: int,
                       pinned: set[str]) -> list[cst.BaseStatement] | None:
        """The block with its first run of guards in another order, or None. Leading calls that are no guards
        (a call recorder, an undo snapshot) stay where they are; a leading `try` is looked into (the undo
        feature wraps a method's body in one)."""
        module = cst.Module(body=[])
        while start < len(body) and self._guard(body[start], module) is None and _call_statement(body[start]):
            start += 1  # a call recorder, an undo snapshot, a call-depth guard: they stay first
        if start < len(body) and isinstance(body[start], cst.Try):
            inner = self._reorder_block(list(body[start].body.body), 0, pinned)
            if inner is None:
                return None
            try_node = body[start]
            return body[:start] + [try_node.with_changes(body=try_node.body.with_changes(body=inner))] + body[start + 1:]
        guards: list[tuple[cst.BaseStatement, set[str], set[str]]] = []
        for statement in body[start:]:
            guard = self._guard(statement, module)
            if guard is None:
                break
            guards.append((statement, *guard))
        # A guard raising an exception whose precedence the docstring states keeps its place; the others move.
        free_places = [i for i, g in enumerate(guards) if not (g[2] & pinned)]
        order = _another_order([(guards[i][0], guards[i][1]) for i in free_places])
        if order is None:
            return None
        placed = [g[0] for g in guards]
        for place, (statement, _) in zip(free_places, order):
            placed[place] = statement
        for place in free_places:
            self.site(guards[place][0])
        return body[:start] + placed + body[start + len(guards):]


def _self_method(node: ast.AST) -> str | None:
    """`m` for `self.m(...)`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == "self":
        return node.func.attr
    return None


_EXCEPTION_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Warning))\b")


def _pinned_exceptions(method_doc: str, class_doc: str) -> set[str] | None:
    """Exceptions whose precedence the docstrings state ("FrozenStateError ... checked before the arguments"):
    the guards raising them keep their places. None when a precedence is stated without naming an exception
    (then no guard of the method moves)."""
    pinned: set[str] = set()
    parts = [p for p in re.split(r"(?<=\.)\s+|\n\s*\n|\n(?=\s*:raises)", method_doc) if _PRECEDENCE.search(p)]
    parts += [p for p in re.split(r"(?<=\.)\s+|\n\s*\n", class_doc) if _CLASS_PRECEDENCE.search(p)]
    for part in parts:
        named = set(_EXCEPTION_NAME.findall(part))
        if not named:
            return None
        pinned |= named
    return pinned


def _raising_if(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and not node.orelse and len(node.body) == 1 and isinstance(node.body[0], ast.Raise)


def _call_statement(statement: cst.BaseStatement) -> bool:
    """A call, or a name bound to what a call returns (`_depth = self._enter_call("m")`)."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return False
    small = statement.body[0]
    if isinstance(small, cst.Expr):
        return isinstance(small.value, cst.Call)
    return (isinstance(small, cst.Assign) and isinstance(small.value, cst.Call)
            and all(isinstance(t.target, cst.Name) for t in small.targets))


def _another_order(guards: list[tuple[cst.BaseStatement, set[str]]]) -> list[tuple[cst.BaseStatement, set[str]]] | None:
    """Guards in an order that changes which fires first where two could, keeping dependent guards in their
    order (a type check stays before the check that needs the type). A guard that shares no name with any
    other is free: the dependent ones keep their order, the free ones go after them in reversed order (or
    before them, when that is where they already were). Without a free guard, the first adjacent pair that
    shares no name is swapped. None when no other order exists."""
    if len(guards) < 2:
        return None
    free = [g for g in guards if all(not (g[1] & o[1]) for o in guards if o is not g)]
    bound = [g for g in guards if g not in free]
    for order in (bound + free[::-1], free[::-1] + bound):
        if free and [id(g) for g, _ in order] != [id(g) for g, _ in guards]:
            return order
    pair = next((i for i in range(len(guards) - 1) if not (guards[i][1] & guards[i + 1][1])), None)
    if pair is None:
        return None
    return guards[:pair] + [guards[pair + 1], guards[pair]] + guards[pair + 2:]


def _recorder_prologue(node: cst.FunctionDef) -> int | None:
    """Index of a statement `self._x("<this method's name>")` among the first statements of a method: the
    method records its own calls there (a call counter, a log of calls)."""
    body = list(node.body.body)
    start = 1 if _docstring_statement(body) else 0
    for index in range(start, min(start + 3, len(body))):
        statement = body[index]
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
                and isinstance(statement.body[0], cst.Expr)):
            return None
        call = statement.body[0].value
        name = _self_call(call)
        if (name and name.startswith("_") and isinstance(call, cst.Call) and len(call.args) == 1
                and isinstance(call.args[0].value, cst.SimpleString)
                and call.args[0].value.evaluated_value == node.name.value):
            return index
    return None


class _RouteInternalCalls(_ClassRewriter):
    """Calls `self.m(...)` from other methods go to a copy of `m` without its recording statement."""

    PREFIX = "_faithful_direct_"

    def __init__(self, class_name: str, recorded: dict[str, cst.FunctionDef]) -> None:
        super().__init__(class_name)
        self.recorded = recorded
        self.routed: set[str] = set()

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        callee = _self_call(updated)
        if (callee is None or not self.in_class or self.method is None or callee == self.method
                or callee not in self.recorded or self.method.startswith(self.PREFIX)):
            return updated
        self.site(original)
        self.routed.add(callee)
        return updated.with_changes(func=updated.func.with_changes(attr=cst.Name(self.PREFIX + callee)))

    def finish_class(self, node: cst.ClassDef) -> cst.ClassDef:
        copies = []
        current = {item.name.value: item for item in node.body.body if isinstance(item, cst.FunctionDef)}
        for name in sorted(self.routed):
            method = current[name]  # as rewritten: its own calls of other recording methods are routed too
            body = list(method.body.body)
            del body[_recorder_prologue(method)]
            copies.append(method.with_changes(name=cst.Name(self.PREFIX + name), decorators=(),
                                              body=method.body.with_changes(body=body or [cst.SimpleStatementLine(
                                                  [cst.Pass()])])))
        if not copies:
            return node
        return node.with_changes(body=node.body.with_changes(body=list(node.body.body) + copies))


# --- formatted text: what a returned text says beyond its values ------------------------------------------

_TEXT_METHODS = ("__str__", "__repr__")  # dunder methods whose text a test reads (str(obj), repr(obj))
_SINK_MUTATORS = frozenset({"append", "extend", "insert", "appendleft"})
_TEXT_CALLS = frozenset({"list", "tuple", "str", "reversed", "dict"})  # calls that pass a text (or texts) on unchanged
_CONTAINER_READS = frozenset({"copy", "values", "items"})
_WORD = re.compile(r"[A-Za-z]+")
_QUOTED = re.compile(r"``(.+?)``|`([^`\n]+)`|\"([^\"\n]+)\"|'([^'\n]+)'")
_PERCENT_SPEC = r"%%|%(?:\([^)]*\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[a-zA-Z]"


@dataclass
class _TextStatements:
    """What the docstrings state about texts: their whole wording (whitespace collapsed), and the words that
    appear quoted or in an example (a template such as "line N: reason" states the word "line")."""

    prose: str
    quoted_words: set[str]

    @classmethod
    def of(cls, statements: Statements) -> _TextStatements:
        docs = [statements.class_doc, *statements.methods.values()]
        fragments: list[str] = []
        for doc in docs:
            fragments += ["".join(g for g in m.groups() if g) for m in _QUOTED.finditer(doc)]
            example = False
            for line in doc.splitlines():  # an example's calls and the output lines after them
                example = line.strip().startswith(">>>") or (example and bool(line.strip()))
                if example:
                    fragments.append(line)
        return cls(" ".join(" ".join(docs).split()),
                   {w for f in fragments for w in _WORD.findall(f)})

    def chunk_stated(self, chunk: str) -> bool:
        """A fixed part of a format written out in a docstring: more than one bare word ("expected 0" is not
        stated by prose that uses "expected"), found verbatim (whitespace collapsed)."""
        text = " ".join(chunk.split())
        bare_word = _WORD.fullmatch(text) is not None
        return bool(text) and not bare_word and bool(_WORD.search(text)) and text in self.prose


def _format_chunks(node: ast.expr) -> list[str] | None:
    """The fixed parts of a text-building expression, or None when it builds no text from values: an
    f-string with a value in it, ``"...".format(...)``, ``"..." % x``, or a concatenation of literal text
    and values."""
    if isinstance(node, ast.JoinedStr):
        if not any(isinstance(v, ast.FormattedValue) for v in node.values):
            return None
        return [v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)):
        try:
            return [literal for literal, *_ in string.Formatter().parse(node.func.value.value)]
        except ValueError:
            return None
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str) and re.search(_PERCENT_SPEC, node.left.value)):
        return re.split(_PERCENT_SPEC, node.left.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        pieces = _added(node)
        texts = [p.value for p in pieces if isinstance(p, ast.Constant) and isinstance(p.value, str)]
        if texts and len(texts) < len(pieces):
            return texts
    return None


def _added(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _added(node.left) + _added(node.right)
    return [node]


def _literals(node: ast.expr) -> list[ast.Constant | ast.JoinedStr]:
    """The string literals a format's words live in (the ones the variant rewrites)."""
    if isinstance(node, ast.JoinedStr):
        return [node]
    if isinstance(node, ast.Call):
        return [node.func.value]  # type: ignore[attr-defined, list-item]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return [node.left]  # type: ignore[list-item]
    return [p for p in _added(node) if isinstance(p, ast.Constant) and isinstance(p.value, str)]


class _TextFlow:
    """Where the texts built in the class's methods go. A text may be varied only where nothing in the class
    looks at its wording: it is returned by a public method (or ``__str__``/``__repr__``), possibly inside a
    list, tuple, join or another format, or stored in a place (``self.log``, a local list) that is only ever
    added to, measured with ``len``, and returned the same way."""

    def __init__(self, methods: _Methods) -> None:
        self.methods = methods
        self.parents: dict[ast.AST, ast.AST] = {}
        self.owner: dict[ast.AST, str] = {}  # node -> the method it is in (not in a nested function)
        for name, function in methods.nodes.items():
            for node in ast.walk(function):
                for child in ast.iter_child_nodes(node):
                    self.parents[child] = node
            self._own(function, name)

    def _own(self, node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                self.owner[child] = name
                self._own(child, name)

    def _outputs(self, method: str) -> bool:
        return _is_public(method) or method in _TEXT_METHODS

    def destination(self, node: ast.AST, container: bool = False) -> tuple[str, ...] | None:
        """("return",) when the value of `node` leaves through a return untouched, ("store", key) when it
        is put into a place, else None. `container`: `node` holds texts (a subscript of it is a text)."""
        method = self.owner.get(node)
        if method is None:
            return None
        child, parent = node, self.parents.get(node)
        while parent is not None:
            if isinstance(parent, ast.Return):
                return ("return",) if self._outputs(method) else None
            if isinstance(parent, (ast.JoinedStr, ast.FormattedValue, ast.List, ast.Tuple)) or \
                    (isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add)) or \
                    (isinstance(parent, (ast.ListComp, ast.GeneratorExp)) and child is parent.elt) or \
                    (isinstance(parent, ast.IfExp) and child is not parent.test) or \
                    (isinstance(parent, ast.Dict) and any(child is v for v in parent.values)):
                container = isinstance(parent, (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp, ast.Dict))
            elif container and isinstance(parent, ast.Subscript) and child is parent.value and \
                    isinstance(parent.ctx, ast.Load):
                pass
            elif container and isinstance(parent, ast.Attribute) and parent.attr in _CONTAINER_READS and \
                    isinstance(self.parents.get(parent), ast.Call):
                parent = self.parents[parent]
            elif isinstance(parent, ast.Call) and any(child is a for a in parent.args):
                func = parent.func
                if isinstance(func, ast.Name) and func.id in _TEXT_CALLS:
                    pass
                elif (isinstance(func, ast.Attribute) and func.attr == "join" and isinstance(func.value, ast.Constant)
                      and isinstance(func.value.value, str)):
                    container = False
                elif (isinstance(func, ast.Attribute) and func.attr in _SINK_MUTATORS
                      and isinstance(self.parents.get(parent), ast.Expr)):
                    key = self._place(func.value)
                    return ("store", *key) if key else None
                else:
                    return None
            elif isinstance(parent, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and child is parent.value:
                targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
                if len(targets) != 1:
                    return None
                target = targets[0]
                key = self._place(target.value if isinstance(target, ast.Subscript) else target)
                return ("store", *key) if key else None
            else:
                return None
            child, parent = parent, self.parents.get(parent)
        return None

    def _place(self, node: ast.AST) -> tuple[str, str] | None:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            return ("self", node.attr)
        if isinstance(node, ast.Name) and node.id != "self":
            return (self.owner.get(node, ""), node.id)
        return None

    def place_is_output_only(self, scope: str, name: str) -> bool:
        """Every read of the place adds to it, measures it, or returns what it holds."""
        functions = self.methods.nodes.values() if scope == "self" else [self.methods.nodes[scope]]
        for function in functions:
            for node in ast.walk(function):
                if scope == "self":
                    use = isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name) \
                        and node.value.id == "self" and isinstance(node.ctx, ast.Load)
                else:
                    use = isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)
                if use and not self._fine_read(node):
                    return False
        return True

    def _fine_read(self, node: ast.AST) -> bool:
        parent = self.parents.get(node)
        if isinstance(parent, ast.Attribute) and parent.attr in _SINK_MUTATORS | {"clear"} and \
                isinstance(self.parents.get(parent), ast.Call) and \
                isinstance(self.parents.get(self.parents[parent]), ast.Expr):
            return True
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len":
            return True
        if isinstance(parent, ast.Subscript) and parent.value is node and not isinstance(parent.ctx, ast.Load):
            return True  # `self.notes[k] = ...`: a store into the place
        return self.destination(node, container=True) == ("return",)

    def goes_out(self, node: ast.AST) -> bool:
        where = self.destination(node)
        if where is None:
            return False
        return where == ("return",) or self.place_is_output_only(where[1], where[2])


def _text_plan(source: str, class_name: str, statements: Statements,
               methods: _Methods) -> tuple[dict[tuple[int, int], tuple[str, set[str]]], dict[tuple[int, int], str]]:
    """The literals to reword: (line, column) -> (how its text is read: "f", "format", "percent", "plain",
    the open words in it), and the site of each ("method:line")."""
    stated = _TextStatements.of(statements)
    flow = _TextFlow(methods)
    lines = source.splitlines()
    formats: list[tuple[ast.expr, set[str], str]] = []
    for node in list(flow.owner):
        parent = flow.parents.get(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(parent, ast.BinOp) \
                and isinstance(parent.op, ast.Add):
            continue  # the inner part of a longer concatenation
        # (an exception's message never goes out here: the `message` kind rewords those)
        chunks = _format_chunks(node) if isinstance(node, ast.expr) else None
        if chunks is None:
            continue
        open_words = {w for chunk in chunks if not stated.chunk_stated(chunk)
                      for w in _WORD.findall(chunk) if len(w) > 1 and w not in stated.quoted_words}
        if open_words and flow.goes_out(node):
            formats.append((node, open_words, flow.owner[node]))
    # A text another method of the class reads back (`if self.describe() == ...`) is not only output.
    returned = {method for node, _, method in formats if flow.destination(node) == ("return",)}
    for function in methods.nodes.values():
        for node in ast.walk(function):
            if (callee := _self_method(node)) in returned and node in flow.owner and not flow.goes_out(node):
                returned.discard(callee)
    formats = [f for f in formats if flow.destination(f[0]) != ("return",) or f[2] in returned]
    # A word of the text that another literal of the class holds may be looked for there (`startswith`).
    # Exception messages are only shown, never looked into.
    own = {id(n) for node, _, _ in formats for n in ast.walk(node)}
    own |= {id(n) for f in methods.nodes.values() for r in ast.walk(f) if isinstance(r, ast.Raise) for n in ast.walk(r)}
    others = [n.value for f in methods.nodes.values() for n in ast.walk(f) if isinstance(n, ast.Constant)
              and isinstance(n.value, str) and id(n) not in own and not _is_docstring(n, flow.parents)]
    plan: dict[tuple[int, int], tuple[str, set[str]]] = {}
    sites: dict[tuple[int, int], str] = {}
    for node, open_words, method in formats:
        if any(word in other for other in others for word in open_words):
            continue
        mode = "f" if isinstance(node, ast.JoinedStr) else "format" if isinstance(node, ast.Call) else \
            "percent" if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) else "plain"
        for literal in _literals(node):
            line = lines[literal.lineno - 1]
            key = (literal.lineno, len(line.encode()[:literal.col_offset].decode(errors="ignore")))
            plan[key] = (mode, open_words)
            sites[key] = f"{method}:{literal.lineno}"
    return plan, sites


def _is_docstring(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents.get(node)
    holder = parents.get(parent) if parent is not None else None
    return isinstance(parent, ast.Expr) and isinstance(holder, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
        holder.body and holder.body[0] is parent


def reword(word: str) -> str:
    """Another wording of a word, the same letters backwards (upper case for a palindrome): no
    normalisation a test could apply (lower case, stripping) brings it back."""
    backwards = word[::-1]
    if backwards != word:
        return backwards
    return word.upper() if word.upper() != word else word.lower()


def _reword_raw(raw: str, mode: str, open_words: set[str]) -> str:
    """The literal's source text with its open words reworded; escapes, format fields and ``%`` specs stay."""
    skip = {"format": r"\{\{|\}\}|\{[^{}]*\}|", "percent": _PERCENT_SPEC + "|", "f": r"\{\{|\}\}|"}.get(mode, "")
    pattern = re.compile(skip + r"\\N\{[^}]*\}|\\.|[A-Za-z]+|.", re.S)
    return "".join(reword(t) if t in open_words and _WORD.fullmatch(t) else t for t in
                   (m.group(0) for m in pattern.finditer(raw)))


class _RewordTexts(_ClassRewriter):
    def __init__(self, class_name: str, plan: dict[tuple[int, int], tuple[str, set[str]]],
                 sites: dict[tuple[int, int], str]) -> None:
        super().__init__(class_name)
        self.plan, self.places = plan, sites
        self.reworded: set[str] = set()

    def _planned(self, node: cst.CSTNode) -> tuple[str, set[str]] | None:
        if not self.in_class:
            return None
        start = self.get_metadata(cst.metadata.PositionProvider, node).start
        key = (start.line, start.column)
        if key in self.plan:
            self.sites.append(self.places[key])
        return self.plan.get(key)

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.SimpleString:
        planned = self._planned(original)
        if planned is None:
            return updated
        mode, words = planned
        head = len(updated.prefix) + len(updated.quote)
        inner = _reword_raw(updated.value[head:-len(updated.quote)], mode, words)
        self.reworded |= {w for w in words if w in _WORD.findall(updated.value[head:-len(updated.quote)])}
        return updated.with_changes(value=updated.value[:head] + inner + updated.quote)

    def leave_FormattedString(self, original: cst.FormattedString, updated: cst.FormattedString) -> cst.FormattedString:
        planned = self._planned(original)
        if planned is None:
            return updated
        _, words = planned
        parts = []
        for part in updated.parts:
            if isinstance(part, cst.FormattedStringText):
                self.reworded |= {w for w in words if w in _WORD.findall(part.value)}
                part = part.with_changes(value=_reword_raw(part.value, "f", words))
            parts.append(part)
        return updated.with_changes(parts=parts)


# --- state after a failed call: what a raising call leaves behind -------------------------------------------

_LEAVES_STATED = re.compile(
    r"unchanged|untouched|intact|as it was|as before|no effect|all[- ]or[- ]nothing|atomic\w*|"
    r"roll(?:s|ed)? back|rolled|partial\w*|\bstays?\b|\bremains?\b|\bkept\b|\bleav(?:e|es|ing)\b|"
    r"without (?:any )?(?:effect|chang\w*|record\w*|add\w*|count\w*|stor\w*|modif\w*|touch\w*)|"
    # "a call that changes nothing" names a no-op call (the undo feature's "a call that raises, or that changes
    # nothing, is not recorded"); it says nothing of what a failed call leaves
    r"(?<!that )(?:changes|records|adds|counts|stores|keeps|modifies|does|applies|writes) nothing|"
    r"(?:changing|recording|counting|adding|storing|applying|doing|modifying|writing) nothing|"
    r"nothing (?:is |was |gets |has been )?(?:recorded|changed|added|counted|stored|kept|modified|applied|written|done)|"
    r"before (?:changing|recording|touching|modifying|storing|adding|any change)", re.I)


def leaves_stated(doc: str) -> bool:
    """Whether a docstring says what a failed call leaves behind ("unchanged", "nothing is recorded", "the
    values before it stay added", "checks its arguments before changing anything")."""
    return _LEAVES_STATED.search(doc) is not None


class _ChangeBeforeChecks(_ClassRewriter):
    """Where a public method checks its arguments before changing the object, and no docstring says what a
    failed call leaves: when a check fails, a copy of the method without its argument checks runs first (its
    own errors swallowed: the change an implementation that checks late would have made), then the check's
    exception is raised as before. Checks of the object's own state (a frozen lock) stay in the copy, so a
    refused call on a locked object still changes nothing."""

    PREFIX = "_faithful_unchecked_"

    def __init__(self, class_name: str, statements: Statements, methods: _Methods) -> None:
        super().__init__(class_name)
        self.statements, self.methods = statements, methods
        self.guards = _ReorderGuards(class_name, statements, methods)  # its guard recogniser
        self.copies: list[cst.FunctionDef] = []

    def _argument_guards(self, body: list[cst.BaseStatement], params: set[str]) -> list[cst.BaseStatement]:
        module = cst.Module(body=[])
        start = 1 if _docstring_statement(body) else 0
        while start < len(body) and self.guards._guard(body[start], module) is None and _call_statement(body[start]):
            start += 1
        if start < len(body) and isinstance(body[start], cst.Try) and start == len(body) - 1:
            return self._argument_guards(list(body[start].body.body), params)
        found = []
        for statement in body[start:]:
            if self.guards._guard(statement, module) is None:
                break
            node = ast.parse(module.code_for_node(statement).strip()).body[0]
            if (_raising_if(node) or isinstance(node, ast.For)) and \
                    {n.id for n in ast.walk(node.test if isinstance(node, ast.If) else node.iter)
                     if isinstance(n, ast.Name)} & params:
                found.append(statement)
        return found

    def finish_method(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        name = original.name.value
        node = self.methods.nodes.get(name)
        if (not _is_public(name) or original.decorators or original.asynchronous or node is None
                or not self.methods.writes(name) or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node))
                or leaves_stated(self.statements.of(name)) or leaves_stated(self.statements.class_doc)):
            return updated
        params = {a.arg for a in [*node.args.posonlyargs, *node.args.args[1:], *node.args.kwonlyargs]}
        params |= {a.arg for a in (node.args.vararg, node.args.kwarg) if a is not None}
        guards = self._argument_guards(list(original.body.body), params)
        if not guards:
            return updated
        call = cst.SimpleStatementLine([cst.Expr(cst.Call(
            func=cst.Attribute(cst.Name("self"), cst.Name(self.PREFIX + name)), args=_forwarded(original.params)))])
        marked = {id(g) for g in guards}
        for guard in guards:
            check = guard if isinstance(guard, cst.If) else guard.body.body[0]  # type: ignore[attr-defined]
            self.site(check.body.body[0])  # the raise: its line runs only where the check fails
        self.copies.append(self._copy(original, marked))
        return original.with_changes(body=_GuardCalls(marked, call).visit_block(original.body))

    def _copy(self, method: cst.FunctionDef, marked: set[int]) -> cst.FunctionDef:
        body = list(method.body.body)
        start = 1 if _docstring_statement(body) else 0
        module = cst.Module(body=[])
        while start < len(body) and self.guards._guard(body[start], module) is None and _call_statement(body[start]):
            start += 1  # the call recorder and its kin: the refused call was counted once already
        kept = _without(body[start:], marked) or [cst.SimpleStatementLine([cst.Pass()])]
        swallowed = cst.Try(body=cst.IndentedBlock(kept), handlers=[cst.ExceptHandler(
            body=cst.IndentedBlock([cst.SimpleStatementLine([cst.Pass()])]), type=cst.Name("Exception"))])
        return method.with_changes(name=cst.Name(self.PREFIX + method.name.value), decorators=(),
                                   body=method.body.with_changes(body=[swallowed]))

    def finish_class(self, node: cst.ClassDef) -> cst.ClassDef:
        if not self.copies:
            return node
        return node.with_changes(body=node.body.with_changes(body=list(node.body.body) + self.copies))


def _forwarded(params: cst.Parameters) -> list[cst.Arg]:
    """The arguments that pass a method's own parameters on to a method of the same signature (self aside)."""
    positional = [*params.posonly_params, *params.params][1:]
    args = [cst.Arg(cst.Name(p.name.value)) for p in positional]
    if isinstance(params.star_arg, cst.Param):
        args.append(cst.Arg(cst.Name(params.star_arg.name.value), star="*"))
    args += [cst.Arg(cst.Name(p.name.value), keyword=cst.Name(p.name.value)) for p in params.kwonly_params]
    if params.star_kwarg is not None:
        args.append(cst.Arg(cst.Name(params.star_kwarg.name.value), star="**"))
    return args


def _without(statements: Sequence[cst.BaseStatement], marked: set[int]) -> list[cst.BaseStatement]:
    """The statements without the marked ones, looked for inside a leading `try` too."""
    out: list[cst.BaseStatement] = []
    for statement in statements:
        if id(statement) in marked:
            continue
        if isinstance(statement, cst.Try):
            inner = _without(list(statement.body.body), marked) or [cst.SimpleStatementLine([cst.Pass()])]
            statement = statement.with_changes(body=statement.body.with_changes(body=inner))
        out.append(statement)
    return out


class _GuardCalls:
    """Puts the call of the unchecked copy before the `raise` of each marked guard (an `if`, or the `if`
    inside a loop over items)."""

    def __init__(self, marked: set[int], call: cst.SimpleStatementLine) -> None:
        self.marked, self.call = marked, call

    def visit_block(self, block: cst.BaseSuite) -> cst.BaseSuite:
        assert isinstance(block, cst.IndentedBlock)
        body = []
        for statement in block.body:
            if id(statement) in self.marked:
                statement = self._guard(statement)
            elif isinstance(statement, cst.Try):
                statement = statement.with_changes(body=self.visit_block(statement.body))
            body.append(statement)
        return block.with_changes(body=body)

    def _guard(self, statement: cst.BaseStatement) -> cst.BaseStatement:
        if isinstance(statement, cst.For):
            inner = statement.body.body[0]
            return statement.with_changes(body=statement.body.with_changes(body=[self._guard(inner)]))
        assert isinstance(statement, cst.If)
        suite = statement.body
        raises = list(suite.body) if isinstance(suite, cst.IndentedBlock) else [cst.SimpleStatementLine(list(suite.body))]
        return statement.with_changes(body=cst.IndentedBlock([self.call, *raises]))


# --- generation ----------------------------------------------------------------------------------------


def _rewrite(source: str, transformer: _ClassRewriter) -> tuple[str, list[str]]:
    wrapper = cst.metadata.MetadataWrapper(parsed(source).module, unsafe_skip_copy=True)
    code = wrapper.visit(transformer).code
    return code, transformer.sites


def _with_helpers(code: str) -> str:
    return code.rstrip("\n") + "\n" + HELPERS


def _message_variant(source: str, class_name: str, statements: Statements) -> FaithfulVariant | None:
    code, sites = _rewrite(source, _RewordMessages(class_name, statements))
    if not sites:
        return None
    return FaithfulVariant(VariantKind.MESSAGE, code, tuple(sites),
                           f"{len(sites)} exception message(s) the skeleton does not quote, reworded")


def _float_variant(source: str, class_name: str, statements: Statements) -> FaithfulVariant | None:
    stated = sorted({float(x) for x in _FLOAT_LITERAL.findall(statements.text)})
    extra = [f"frozenset({stated!r})"] if stated else []
    code, sites = _rewrite(source, _WrapReturns(class_name, "_faithful_ulp", lambda method, node: extra))
    if not sites:
        return None
    return FaithfulVariant(VariantKind.FLOAT_ULP, _with_helpers(code), tuple(sites),
                           f"computed float results of {len(sites)} return(s) moved by one ulp")


def _guard_variant(source: str, class_name: str, statements: Statements, methods: _Methods) -> FaithfulVariant | None:
    code, sites = _rewrite(source, _ReorderGuards(class_name, statements, methods))
    if not sites:
        return None
    methods = len({site.split(":")[0] for site in sites})
    return FaithfulVariant(VariantKind.GUARD_ORDER, code, tuple(sites),
                           f"independent guard checks of {methods} method(s) in the other order")


def _route_variant(source: str, class_name: str) -> FaithfulVariant | None:
    recorded: dict[str, cst.FunctionDef] = {}
    for node in parsed(source).module.body:
        if isinstance(node, cst.ClassDef) and node.name.value == class_name:
            for item in node.body.body:
                if isinstance(item, cst.FunctionDef) and _is_public(item.name.value) and not item.decorators \
                        and _recorder_prologue(item) is not None:
                    recorded[item.name.value] = item
    if not recorded:
        return None
    code, sites = _rewrite(source, _RouteInternalCalls(class_name, recorded))
    if not sites:
        return None
    return FaithfulVariant(VariantKind.INTERNAL_ROUTE, code, tuple(sites),
                           f"{len(sites)} internal call(s) of self-recording methods routed around the recording")


def _unordered_variant(source: str, class_name: str, statements: Statements, methods: _Methods) -> FaithfulVariant | None:
    def wanted(method: str, node: cst.Return) -> list[str] | None:
        if _ORDER.search(statements.of(method)) or method not in methods.nodes:
            return None
        function = methods.nodes[method]
        value = next((n.value for n in ast.walk(function) if isinstance(n, ast.Return) and n.value is not None
                      and n.lineno == position(node)), None)
        if value is None:
            return []
        local = _local_sets(function, methods.set_attributes)
        return ["True"] if _set_derived_sequence(value, local, methods.set_attributes) else []

    rewriter = _WrapReturns(class_name, "_faithful_reorder", wanted)

    def position(node: cst.Return) -> int:
        return rewriter.get_metadata(cst.metadata.PositionProvider, node).start.line

    code, sites = _rewrite(source, rewriter)
    if not sites:
        return None
    return FaithfulVariant(VariantKind.UNORDERED, _with_helpers(code), tuple(sites),
                           f"results of {len(sites)} return(s) whose order is not stated, reordered")


def _text_variant(source: str, class_name: str, statements: Statements, methods: _Methods) -> FaithfulVariant | None:
    plan, sites = _text_plan(source, class_name, statements, methods)
    if not plan:
        return None
    rewriter = _RewordTexts(class_name, plan, sites)
    code, changed = _rewrite(source, rewriter)
    if not changed:
        return None
    return FaithfulVariant(VariantKind.TEXT_FORMAT, code, tuple(dict.fromkeys(changed)),
                           f"the fixed words of {len(set(changed))} returned text format(s) the skeleton does not "
                           f"state, reworded", open_words=tuple(sorted(rewriter.reworded)))


def _state_variant(source: str, class_name: str, statements: Statements, methods: _Methods) -> FaithfulVariant | None:
    code, sites = _rewrite(source, _ChangeBeforeChecks(class_name, statements, methods))
    if not sites:
        return None
    count = len({site.split(":")[0] for site in sites})
    return FaithfulVariant(VariantKind.STATE_AFTER_ERROR, code, tuple(sites),
                           f"{count} method(s) change the object before a failed argument check raises")


def faithful_variants(source: str, class_name: str, skeleton: str) -> list[FaithfulVariant]:
    """One variant per kind that has a place in this class, in `VariantKind` order."""
    statements = skeleton_statements(skeleton, class_name)
    methods = _Methods(source, class_name)
    made = [_message_variant(source, class_name, statements),
            _float_variant(source, class_name, statements),
            _guard_variant(source, class_name, statements, methods),
            _route_variant(source, class_name),
            _unordered_variant(source, class_name, statements, methods),
            _text_variant(source, class_name, statements, methods),
            _state_variant(source, class_name, statements, methods)]
    return [v for v in made if v is not None and v.source != source]
