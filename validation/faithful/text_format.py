"""``text_format``: text a public method returns (or stores and another returns: a log, a list of rejected
lines) built by an f-string, ``str.format``, ``%`` or concatenation, with the words of its fixed parts
reworded; the values formatted into it, its punctuation and every word the skeleton states (quoted, in an
example, or a run of the format written out in a docstring: `core.analysis.statements.StatedTexts`) are
kept. Skipped where the text is used inside the class (compared, parsed, a dict key) or a word of it appears
in another literal of the class."""

from __future__ import annotations

import ast
import re
import string

import libcst as cst

from core.analysis.statements import StatedTexts, Statements
from validation.faithful.facts import MethodFacts, self_method
from validation.faithful.rewriter import ClassRewriter, is_public, rewrite
from validation.faithful.variant import Rewrite, Subject

_TEXT_METHODS = ("__str__", "__repr__")  # dunder methods whose text a test reads (str(obj), repr(obj))
_SINK_MUTATORS = frozenset({"append", "extend", "insert", "appendleft"})
_TEXT_CALLS = frozenset({"list", "tuple", "str", "reversed", "dict"})  # calls that pass a text (or texts) on unchanged
_CONTAINER_READS = frozenset({"copy", "values", "items"})
_WORD = re.compile(r"[A-Za-z]+")
_PERCENT_SPEC = r"%%|%(?:\([^)]*\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[a-zA-Z]"


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

    def __init__(self, methods: MethodFacts) -> None:
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
        return is_public(method) or method in _TEXT_METHODS

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
               methods: MethodFacts) -> tuple[dict[tuple[int, int], tuple[str, set[str]]], dict[tuple[int, int], str]]:
    """The literals to reword: (line, column) -> (how its text is read: "f", "format", "percent", "plain",
    the open words in it), and the site of each ("method:line")."""
    stated = StatedTexts.of(statements)
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
            if (callee := self_method(node)) in returned and node in flow.owner and not flow.goes_out(node):
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


class _RewordTexts(ClassRewriter):
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


def variant(subject: Subject) -> Rewrite | None:
    source, class_name = subject.source, subject.class_name
    plan, sites = _text_plan(source, class_name, subject.statements, subject.methods)
    if not plan:
        return None
    rewriter = _RewordTexts(class_name, plan, sites)
    code, changed = rewrite(source, rewriter)
    if not changed:
        return None
    return Rewrite(code, tuple(dict.fromkeys(changed)),
                   f"the fixed words of {len(set(changed))} returned text format(s) the skeleton does not "
                   f"state, reworded", open_words=tuple(sorted(rewriter.reworded)))
