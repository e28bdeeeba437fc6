"""The specification of a composed class: both parts' whole docstrings, rewritten for the hybrid.

A fused class is a task only if a solver can implement it from its skeleton, so every paragraph of every
part's docstrings (the rules in a class docstring, parameters, returns, raises, examples) is kept; cutting
the class docstrings to their first paragraph dropped rules the tests then checked (how `attack` computes
its damage). What changes is only what must change for the text to describe the hybrid:

- an example that builds a part (``CombatTracker(seed=7)``) builds the hybrid with that part's arguments
  passed by keyword (the hybrid's constructor takes both parts' parameters, required ones first, so a
  positional argument would land on another parameter) and the other part's required arguments added,
  with values taken from the other part's own examples or, failing that, from its tests' calls; without
  them the example raises `TypeError` and no longer states anything;
- names the fusion renamed in the second part (a method, a field, a constructor parameter or a module-level
  class that collided with the first part's) are renamed in its docstrings too: in examples as code; a
  method where prose quotes it as code (````name````, ``:meth:`name```); a constructor parameter likewise
  and in its ``:param name:`` (or ``Args:``) entry, in the class's and the constructor's docstrings only (a method's own
  parameter may share the name); module-level names (exception classes) wherever they appear as words.

Examples are rewritten as code (libcst, formatting kept); in an example that does not parse only the class's
name is replaced, and the specification judge, which runs every example against the reference in the sandbox, says so.
"""

from __future__ import annotations

import ast
import doctest
import inspect
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import libcst as cst

_PROMPT = re.compile(r"^(\s*)>>> ?(.*)$")
_LITERAL_NAMES = {"True", "False", "None"}


@dataclass(frozen=True)
class PartDocs:
    """How one part's docstrings are rewritten for the hybrid."""

    original: str  # the part's class name
    hybrid: str  # the hybrid class's name
    init_params: tuple[str, ...]  # the part's constructor parameters in order (original names), without self
    params: Mapping[str, str] = field(default_factory=dict)  # constructor parameter -> its hybrid name, renamed only
    members: Mapping[str, str] = field(default_factory=dict)  # method/field/class attribute -> hybrid name
    methods: frozenset[str] = frozenset()  # the members that are methods: only these are renamed in prose
    names: Mapping[str, str] = field(default_factory=dict)  # module-level name -> hybrid name (not the class)
    others: tuple[tuple[str, str], ...] = ()  # the other part's required constructor arguments: (name, source)

    def rewrite(self, text: str, *, constructor: bool = False) -> str:
        """One docstring of this part, rewritten for the hybrid (see the module docstring). Renamed
        constructor parameters are renamed in the prose of the class's and the constructor's docstrings
        only (`constructor`): a method's own parameter may share the name."""
        instances = _instance_names(text, self.original)
        out: list[str] = []
        lines = text.split("\n")
        i = 0
        while i < len(lines):
            match = _PROMPT.match(lines[i])
            if match is None:
                out.append(self._prose(lines[i], constructor))
                i += 1
                continue
            indent = match.group(1)
            block = [match.group(2)]
            i += 1
            while i < len(lines) and (lines[i].strip() == "..." or lines[i].startswith(indent + "... ")) \
                    and lines[i].startswith(indent):
                block.append(lines[i][len(indent) + 4:] if lines[i].strip() != "..." else "")
                i += 1
            code = self._example(block, instances)
            out += [indent + (">>> " if n == 0 else "... ") + line if line or n == 0 else indent + "..."
                    for n, line in enumerate(code)]
            while i < len(lines) and lines[i].strip() and not _PROMPT.match(lines[i]):
                out.append(self._words(lines[i]))  # expected output: renamed exception classes only
                i += 1
        return "\n".join(out)

    def _words(self, line: str) -> str:
        for old, new in self.names.items():
            line = re.sub(rf"\b{re.escape(old)}\b", new, line)
        return line

    def _prose(self, line: str, constructor: bool) -> str:
        line = self._words(line)
        params = self.params if constructor else {}
        methods = {old: new for old, new in self.members.items() if old in self.methods}
        for old, new in {**methods, **params}.items():
            line = line.replace(f"``{old}``", f"``{new}``").replace(f"``{old}()``", f"``{new}()``")
            line = re.sub(rf"(:meth:`~?(?:\w+\.)?){re.escape(old)}`", rf"\g<1>{new}`", line)
        for old, new in params.items():
            line = line.replace(f":param {old}:", f":param {new}:")
            line = re.sub(rf"^(\s+){re.escape(old)}(\s*(\([^)]*\))?:)", rf"\g<1>{new}\2", line)  # Google style
        return line

    def _example(self, block: list[str], instances: set[str]) -> list[str]:
        source = "\n".join(block)
        try:
            module = cst.parse_module(source + "\n")
        except cst.ParserSyntaxError:  # it cannot run either way; at least it names the task's class
            return [re.sub(rf"\b{re.escape(self.original)}\b", self.hybrid, line) for line in block]
        rewritten = module.visit(_ExampleRewriter(self, instances)).code
        return rewritten[:-1].split("\n") if rewritten.endswith("\n") else rewritten.split("\n")


class _ExampleRewriter(cst.CSTTransformer):
    def __init__(self, part: PartDocs, instances: set[str]) -> None:
        self.part = part
        self.instances = instances

    def _is_instance(self, node: cst.BaseExpression) -> bool:
        return (isinstance(node, cst.Name) and node.value in self.instances) or (
            isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == self.part.original)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        # only on an instance of the part: `d.items()` on some dict keeps its name
        if self._is_instance(original.value) and original.attr.value in self.part.members:
            return updated.with_changes(attr=cst.Name(self.part.members[original.attr.value]))
        return updated.with_changes(attr=original.attr)  # `leave_Name` renames variables, not attributes

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        if updated.value == self.part.original:
            return updated.with_changes(value=self.part.hybrid)
        if updated.value in self.part.names:
            return updated.with_changes(value=self.part.names[updated.value])
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not (isinstance(original.func, cst.Name) and original.func.value == self.part.original):
            return updated
        positional = [a for a in updated.args if a.keyword is None and not a.star]
        if any(a.star for a in updated.args) or len(positional) > len(self.part.init_params):
            return updated  # *args, or a call that is meant to fail: left as written
        args: list[cst.Arg] = []
        given: set[str] = set()
        for index, arg in enumerate(updated.args):
            name = self.part.init_params[index] if arg.keyword is None else arg.keyword.value
            name = self.part.params.get(name, name)
            given.add(name)
            args.append(_keyword(name, arg.value))
        args += [_keyword(name, cst.parse_expression(value)) for name, value in self.part.others if name not in given]
        return updated.with_changes(args=[a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in args])


def _keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(value=value, keyword=cst.Name(name),
                   equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                         whitespace_after=cst.SimpleWhitespace("")))


def _instance_names(text: str, class_name: str) -> set[str]:
    """Names the docstring's examples bind to an instance of the class (``fight = CombatTracker(...)``)."""
    names: set[str] = set()
    for _, example in _examples(text):
        for node in ast.walk(example):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Name) and node.value.func.id == class_name:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _examples(text: str) -> Iterable[tuple[str, ast.Module]]:
    """Each example's source and syntax tree (examples that do not parse are skipped)."""
    try:
        examples = doctest.DocTestParser().get_examples(text)
    except ValueError:  # malformed doctest syntax: nothing to learn from it
        return
    for example in examples:
        try:
            yield example.source, ast.parse(example.source)
        except SyntaxError:
            continue


def class_docstrings(source: str, class_name: str) -> list[str]:
    """The class's docstring and its methods' (cleaned, as `ast.get_docstring` reads them), class first."""
    tree = ast.parse(source)
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    if node is None:
        return []
    docs = [ast.get_docstring(node)] + [ast.get_docstring(f) for f in node.body
                                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return [d for d in docs if d]


def _literal_source(node: ast.expr, source: str) -> str | None:
    """The source of an argument that stands on its own (no variable of the example), else None."""
    if any(isinstance(n, ast.Name) and n.id not in _LITERAL_NAMES for n in ast.walk(node)):
        return None
    return ast.get_source_segment(source, node)


def constructor_values(source: str, class_name: str, params: Sequence[str], required: Sequence[str],
                       observed: Iterable[tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = ()) -> dict[str, str]:
    """Values for a class's required constructor parameters, as source text: from a call in its own
    docstring examples that gives them all (its author's choice, and values that fit together), else from
    a call of its tests (`observed`: positional and keyword argument sources), else parameter by parameter
    from any of those calls. Parameters no call gives are missing from the answer."""
    calls: list[dict[str, str]] = []
    for doc in class_docstrings(source, class_name):
        for text, tree in _examples(doc):
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == class_name:
                    given = {params[i]: _literal_source(a, text) for i, a in enumerate(node.args)
                             if i < len(params) and not isinstance(a, ast.Starred)}
                    given |= {k.arg: _literal_source(k.value, text) for k in node.keywords if k.arg}
                    calls.append({k: v for k, v in given.items() if v is not None})
    for args, kwargs in observed:
        calls.append({params[i]: v for i, v in enumerate(args) if i < len(params)} | dict(kwargs))
    whole = next((call for call in calls if all(p in call for p in required)), None)
    if whole is not None:
        return {p: whole[p] for p in required}
    return {p: next(call[p] for call in calls if p in call) for p in required if any(p in call for call in calls)}


def docstring_literal(text: str, indent: str) -> str:
    """`text` (a cleaned docstring) as a triple-quoted literal whose lines after the first are indented by
    `indent`, and whose value cleans back to `text` (raw when it holds a backslash, so that ``\\d`` in a
    regular expression reads as written)."""
    lines = text.split("\n")
    body = lines[0] + "".join("\n" + (indent + line if line.strip() else "") for line in lines[1:])
    if len(lines) > 1:
        body += "\n" + indent
    quote = "'''" if '"""' in text else '"""'
    if "\\" in text and not body.endswith("\\") and quote not in body:
        return f"r{quote}{body}{quote}"
    return quote + body.replace("\\", "\\\\").replace(quote, "\\" + quote) + quote


def evaluated_docstring(node: cst.SimpleString | cst.ConcatenatedString) -> str | None:
    """The cleaned text of a docstring node, as `ast.get_docstring` would give it."""
    value = node.evaluated_value
    if isinstance(value, bytes) or value is None:
        return None
    return inspect.cleandoc(value)
