"""Mutants of a reference solution, made with libcst, for the gate's mutation score.

Why our own operators rather than a library: mutmut 3 (the maintained Python mutation tool that installs
beside this stack) is driven by its command line and a project configuration (``setup.cfg`` /
``pyproject.toml``), rewrites files in place under ``mutants/`` and has no documented Python API to ask
"give me the mutants of this one class" per task; driving it per task would mean a project directory and a
process per task, and its operators cannot be limited to one class's methods. Cosmic Ray and MutPy are
unmaintained or tied to old Pythons. The operators below are the classic ones (mutmut's family) written on
libcst, which keeps formatting and comments, so a mutant differs from the solution in exactly one place and
its line numbers match the coverage data the gate uses to pick the tests that cover it.

Operators (the ``operator`` field), applied only inside the methods of the named class (default values
of parameters included: they are behaviour), never to docstrings, annotations or decorators:

- ``arithmetic``: ``+``/``-`` swapped, ``*``/``/`` swapped, ``//`` -> ``*``, ``%`` -> ``//``, ``**`` -> ``*``
  (also in augmented assignments: ``+=`` -> ``-=`` ...).
- ``comparison``: boundary and negation flips: ``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``in``/``not in``,
  ``is``/``is not``.
- ``boolean``: ``and``/``or`` swapped; ``not x`` -> ``x``.
- ``constant``: a number ``n`` -> ``n + 1``; a non-empty string (or f-string) -> empty; ``True``/``False``
  flipped. Constants inside a ``raise`` statement are left alone: exception messages are rarely specified,
  and mutating them floods the report with survivors that say nothing about the tests.
- ``return_value``: ``return x`` -> ``return None``.
- ``remove_statement``: a simple statement -> ``pass`` (not returns: that is ``return_value``'s mutant).
- ``remove_self_write``: a statement that only assigns to ``self`` attributes (``self.x = ...``,
  ``self.x += ...``) -> ``pass``. (In-place mutations such as ``self.x.append(v)`` are
  ``remove_statement`` mutants.)

Mutants whose source does not compile, or is identical to the solution or to an earlier mutant, are
dropped. Equivalent mutants (same behaviour, different code) cannot be detected in general and are kept:
they show up as survivors. Order is deterministic (source order, then operator); `max_mutants` picks a
subset with ``random.Random(seed)`` and returns it in source order, so the same arguments always give the
same mutants.
"""

from __future__ import annotations

import ast
import hashlib
import random
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import libcst as cst
from libcst._nodes.internal import CodegenState  # the renderer libcst itself uses; see _SiteRenderer
from libcst.metadata import MetadataWrapper, PositionProvider

from core.analysis.class_text import docstring_statement, find_class
from core.analysis.parsed import parsed

OPERATORS = (
    "arithmetic",
    "comparison",
    "boolean",
    "constant",
    "return_value",
    "remove_statement",
    "remove_self_write",
)

_BINARY: dict[type, type] = {
    cst.Add: cst.Subtract,
    cst.Subtract: cst.Add,
    cst.Multiply: cst.Divide,
    cst.Divide: cst.Multiply,
    cst.FloorDivide: cst.Multiply,
    cst.Modulo: cst.FloorDivide,
    cst.Power: cst.Multiply,
}
_AUGMENTED: dict[type, type] = {
    cst.AddAssign: cst.SubtractAssign,
    cst.SubtractAssign: cst.AddAssign,
    cst.MultiplyAssign: cst.DivideAssign,
    cst.DivideAssign: cst.MultiplyAssign,
    cst.FloorDivideAssign: cst.MultiplyAssign,
    cst.ModuloAssign: cst.FloorDivideAssign,
    cst.PowerAssign: cst.MultiplyAssign,
}
_COMPARISON: dict[type, type] = {
    cst.LessThan: cst.LessThanEqual,
    cst.LessThanEqual: cst.LessThan,
    cst.GreaterThan: cst.GreaterThanEqual,
    cst.GreaterThanEqual: cst.GreaterThan,
    cst.Equal: cst.NotEqual,
    cst.NotEqual: cst.Equal,
    cst.In: cst.NotIn,
    cst.NotIn: cst.In,
    cst.Is: cst.IsNot,
    cst.IsNot: cst.Is,
}


@dataclass(frozen=True)
class Mutant:
    """One mutant of the solution module.

    ``id`` is derived from the operator, position, description and mutated source: the same solution gives
    the same ids on every run and machine. ``line`` is the 1-based line of the mutated code in the original
    (and, since a mutant changes one place in one line range, in the mutant).
    """

    id: str
    operator: str
    line: int
    column: int
    method: str
    description: str
    source: str

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Site:
    """One place a mutant changes: `node` of the parsed module, and the `replacement` the mutant puts there."""

    node: cst.CSTNode
    replacement: cst.CSTNode
    operator: str
    line: int
    column: int
    method: str
    description: str
    ancestors: tuple[cst.CSTNode, ...] = ()  # outermost first: where a mutant schema can switch it


def _short(code: str, limit: int = 60) -> str:
    flat = " ".join(code.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _op_symbol(module: cst.Module, node: cst.CSTNode) -> str:
    return module.code_for_node(node).strip()


def _rebuild_operator(old: cst.CSTNode, new_type: type) -> cst.CSTNode:
    kwargs = {}
    for name in ("whitespace_before", "whitespace_after"):
        if hasattr(old, name):
            kwargs[name] = getattr(old, name)
    if new_type in (cst.NotIn, cst.IsNot):
        kwargs["whitespace_between"] = cst.SimpleWhitespace(" ")
    return new_type(**kwargs)


def _is_self_write(line: cst.SimpleStatementLine) -> bool:
    def is_self_attr(target: cst.BaseExpression) -> bool:
        return isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self"

    for small in line.body:
        if isinstance(small, cst.Assign):
            if not all(is_self_attr(t.target) for t in small.targets):
                return False
        elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
            if not is_self_attr(small.target) or (isinstance(small, cst.AnnAssign) and small.value is None):
                return False
        else:
            return False
    return True


class _SiteCollector(cst.CSTVisitor):
    """Finds every mutation site inside the methods of one class, in source order."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, module: cst.Module, class_node: cst.ClassDef) -> None:
        super().__init__()
        self.module = module
        self.class_node = class_node
        self.sites: list[Site] = []
        self._methods: list[str] = []
        self._in_class = 0
        self._in_raise = 0
        self._docstrings: set[int] = set()
        self._stack: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        result = super().on_visit(node)  # visit_X sees the stack of node's ancestors, without node
        self._stack.append(node)
        return result

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self._stack.pop()
        super().on_leave(original_node)

    # -- scope -----------------------------------------------------------------------------------------
    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        if node is self.class_node:
            self._in_class += 1
            return True
        return bool(self._methods)  # other top-level classes are not mutated; nested ones in methods are

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        if original_node is self.class_node:
            self._in_class -= 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if not self._in_class:
            return False
        doc = docstring_statement(node.body)
        if doc is not None:
            self._docstrings.add(id(doc))
        self._methods.append(self._methods[0] if self._methods else node.name.value)
        return True

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        if self._methods:
            self._methods.pop()

    def visit_Decorator(self, node: cst.Decorator) -> bool:
        return False

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False

    def visit_Raise(self, node: cst.Raise) -> None:
        self._in_raise += 1

    def leave_Raise(self, original_node: cst.Raise) -> None:
        self._in_raise -= 1

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        if id(node) in self._docstrings:
            return False
        if self._methods and not all(isinstance(s, (cst.Pass, cst.Return)) for s in node.body):
            operator = "remove_self_write" if _is_self_write(node) else "remove_statement"
            replacement = node.with_changes(body=[cst.Pass()])
            self._add(node, replacement, operator, f"{_short(self.module.code_for_node(node))} -> pass")
        return True

    # -- sites -----------------------------------------------------------------------------------------
    def _add(self, node: cst.CSTNode, replacement: cst.CSTNode, operator: str, description: str) -> None:
        if not self._methods:
            return
        start = self.get_metadata(PositionProvider, node).start
        self.sites.append(Site(node, replacement, operator, start.line, start.column, self._methods[-1], description,
                                tuple(self._stack)))

    def _swap_operator(self, node: cst.CSTNode, table: dict, operator: str) -> None:
        """A mutant replacing `node`'s operator by its partner in `table` (no mutant when it has none)."""
        new_type = table.get(type(node.operator))
        if new_type is not None:
            new_op = _rebuild_operator(node.operator, new_type)
            desc = f"{_op_symbol(self.module, node.operator)} -> {_op_symbol(self.module, new_op)}"
            self._add(node, node.with_changes(operator=new_op), operator, desc)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self._swap_operator(node, _BINARY, "arithmetic")

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._swap_operator(node, _AUGMENTED, "arithmetic")

    def visit_ComparisonTarget(self, node: cst.ComparisonTarget) -> None:
        self._swap_operator(node, _COMPARISON, "comparison")

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._swap_operator(node, {cst.And: cst.Or, cst.Or: cst.And}, "boolean")

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            inner = node.expression
            if not inner.lpar and isinstance(inner, (cst.BooleanOperation, cst.Comparison, cst.IfExp, cst.Lambda)):
                inner = inner.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            self._add(node, inner, "boolean", f"not {_short(self.module.code_for_node(node.expression), 30)} -> drop not")

    def visit_Integer(self, node: cst.Integer) -> None:
        if self._in_raise:
            return
        value = ast.literal_eval(node.value)
        self._add(node, node.with_changes(value=str(value + 1)), "constant", f"{node.value} -> {value + 1}")

    def visit_Float(self, node: cst.Float) -> None:
        if self._in_raise:
            return
        value = ast.literal_eval(node.value)
        self._add(node, node.with_changes(value=repr(value + 1)), "constant", f"{node.value} -> {value + 1!r}")

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if self._in_raise or not node.evaluated_value:
            return
        empty = node.with_changes(value=f"{node.prefix}{node.quote}{node.quote}")
        self._add(node, empty, "constant", f"{_short(node.value, 30)} -> {empty.value}")

    def visit_FormattedString(self, node: cst.FormattedString) -> bool:
        if self._in_raise or not node.parts:
            return False
        self._add(node, cst.SimpleString('""'), "constant", f"{_short(self.module.code_for_node(node), 30)} -> \"\"")
        return True

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in ("True", "False") and not self._in_raise:
            flipped = "False" if node.value == "True" else "True"
            self._add(node, node.with_changes(value=flipped), "constant", f"{node.value} -> {flipped}")

    def visit_Return(self, node: cst.Return) -> None:
        value = node.value
        if value is None or (isinstance(value, cst.Name) and value.value == "None"):
            return
        self._add(
            node,
            node.with_changes(value=cst.Name("None"), whitespace_after_return=cst.SimpleWhitespace(" ")),
            "return_value",
            f"return {_short(self.module.code_for_node(value), 30)} -> return None",
        )


def collect_sites(source: str, class_name: str) -> tuple[cst.Module, list[Site]]:
    """The parsed module and every mutation site inside `class_name`'s methods, in source order.

    Raises libcst.ParserSyntaxError on unparsable source and ClassNotFound when the class is absent."""
    wrapper = MetadataWrapper(parsed(source).module, unsafe_skip_copy=True)  # the shared parse: no copy
    collector = _SiteCollector(wrapper.module, find_class(wrapper.module, class_name))
    wrapper.visit(collector)
    return wrapper.module, collector.sites


def mutation_sites(source: str, class_name: str) -> int:
    """How many mutation sites the class has (before invalid and duplicate mutants are dropped)."""
    return len(collect_sites(source, class_name)[1])


def _mutant_id(site: Site, mutated: str) -> str:
    digest = hashlib.sha256(
        "\x1f".join([site.operator, str(site.line), str(site.column), site.description, mutated]).encode()
    ).hexdigest()
    return f"mut-{site.line:04d}-{digest[:10]}"


class _SiteRenderer(CodegenState):
    """Renders the module once and notes, for every mutation site, where its text lies and how its parent
    asked for it to be rendered (the indentation in force and the keyword arguments of ``_codegen``, such
    as a small statement's ``default_semicolon``).

    Why: ``module.deep_replace(site, replacement).code`` rebuilds and renders the whole tree for every
    mutant, which made mutant generation the gate's largest cost (about 0.15 s per mutant for a 250-line
    class). Rendering the replacement alone, in the state its original was rendered in, and splicing it
    into the module's text gives the same code (``tests/validation/test_mutation.py`` checks it against
    ``deep_replace`` site by site) at a fraction of the cost.
    """

    def __init__(self, module: cst.Module, nodes: Sequence[cst.CSTNode]) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self._wanted = {id(node) for node in nodes}
        self.spans: dict[int, tuple[int, int, list[str], dict[str, Any]]] = {}
        self._open: dict[int, tuple[int, list[str], dict[str, Any]]] = {}

    def before_codegen(self, node: cst.CSTNode) -> None:
        if id(node) in self._wanted:
            # The caller is CSTNode._codegen(self, state, **kwargs): its kwargs are what the parent passed.
            kwargs = dict(sys._getframe(1).f_locals.get("kwargs") or {})
            self._open[id(node)] = (len(self.tokens), list(self.indent_tokens), kwargs)

    def after_codegen(self, node: cst.CSTNode) -> None:
        opened = self._open.pop(id(node), None)
        if opened is not None:
            self.spans[id(node)] = (opened[0], len(self.tokens), opened[1], opened[2])


class Splicer:
    """The module's text with nodes replaced, without rebuilding the tree (see `_SiteRenderer`). Only the
    `nodes` it was made with can be replaced: their places are noted while the module is rendered once."""

    def __init__(self, module: cst.Module, nodes: Sequence[cst.CSTNode]) -> None:
        self.module = module
        self.renderer = _SiteRenderer(module, nodes)
        module._codegen(self.renderer)
        tokens = self.renderer.tokens
        self.offsets = [0]
        for token in tokens:
            self.offsets.append(self.offsets[-1] + len(token))
        self.code = "".join(tokens)
        if self.code != module.code:  # never seen; if libcst's rendering changes, fail loudly, not subtly
            raise RuntimeError("libcst rendered the module differently twice")

    def replacement_text(self, node: cst.CSTNode, replacement: cst.CSTNode) -> tuple[int, int, str]:
        """(start, end, text): the characters of `node` in the module, and what `replacement` renders there."""
        start, end, indent, kwargs = self.renderer.spans[id(node)]
        state = CodegenState(default_indent=self.module.default_indent,
                             default_newline=self.module.default_newline, indent_tokens=list(indent), tokens=[])
        replacement._codegen(state, **kwargs)
        rendered = state.tokens
        ntokens = len(self.offsets) - 1
        if end > ntokens:  # the module dropped its last token (the final newline): so does the replacement
            rendered = rendered[: len(rendered) - (end - ntokens)]
            end = ntokens
        return self.offsets[start], self.offsets[end], "".join(rendered)

    def splice(self, replacements: Sequence[tuple[cst.CSTNode, cst.CSTNode]]) -> str:
        """The module with each (node, replacement) applied; the nodes must not overlap."""
        pieces: list[str] = []
        at = 0
        for start, end, text in sorted(self.replacement_text(n, r) for n, r in replacements):
            if start < at:
                raise ValueError("overlapping replacements")
            pieces += [self.code[at:start], text]
            at = end
        return "".join(pieces) + self.code[at:]

    def render(self, site: Site) -> str:
        return self.splice([(site.node, site.replacement)])


def choose_mutants(module: cst.Module, sites: Sequence[Site], *, max_mutants: int | None = None, seed: int = 0,
                   also_replaced: Sequence[cst.CSTNode] = ()) -> tuple[Splicer, list[tuple[Site, Mutant]]]:
    """The module's splicer and the chosen (site, mutant) pairs in source order (see `generate_mutants`).

    The splicer can replace every site's node and the nodes of `also_replaced` (a mutant schema's switch
    places, `validation.schemata`)."""
    if max_mutants is not None and max_mutants < 0:
        raise ValueError(f"max_mutants must be >= 0, not {max_mutants}")
    order = list(range(len(sites)))
    if max_mutants is not None and max_mutants < len(sites):
        random.Random(seed).shuffle(order)
    splicer = Splicer(module, [*(site.node for site in sites), *also_replaced])
    seen = {splicer.code}
    chosen: list[tuple[int, Site, Mutant]] = []
    for index in order:
        if max_mutants is not None and len(chosen) >= max_mutants:
            break
        site = sites[index]
        code = splicer.render(site)
        if code in seen:
            continue
        try:
            compile(code, "<mutant>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            continue  # e.g. a constant change that makes an invalid literal; not a mutant worth running
        seen.add(code)
        mutant = Mutant(id=_mutant_id(site, code), operator=site.operator, line=site.line, column=site.column,
                        method=site.method, description=site.description, source=code)
        chosen.append((index, site, mutant))
    chosen.sort(key=lambda triple: triple[0])
    return splicer, [(site, mutant) for _, site, mutant in chosen]


def generate_mutants(
    source: str, class_name: str, *, max_mutants: int | None = None, seed: int = 0
) -> list[Mutant]:
    """Mutants of `class_name`'s methods in `source`, in source order (see the module docstring).

    With `max_mutants`, a reproducible random subset of that size (fewer when there are not enough valid
    mutants), still in source order. Raises libcst.ParserSyntaxError on unparsable source and
    ClassNotFound when the class is absent.
    """
    module, sites = collect_sites(source, class_name)
    return [mutant for _, mutant in choose_mutants(module, sites, max_mutants=max_mutants, seed=seed)[1]]
