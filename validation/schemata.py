"""Mutant schemata: every mutant of a task in one module, each mutated place switching on the active mutant.

Why: running a mutant used to mean executing its whole module again in a forked process (a compile and a
class creation per mutant) and building pytest's full failure report (source lines, traceback) just to
learn that a test failed. With a schema the sandbox executes one module once per session, and a mutant's
forked process only sets the global `SWITCH` to the mutant's number before it runs the tests covering it.

How a place switches, for a mutant numbered ``k`` (numbers start at 1; 0 is the original):

- a site inside a simple statement line (``x = a + b``, ``return x``, a removed statement) becomes
  ``if SWITCH == k: <the line with the mutation> ... else: <the original line>``, one branch per mutant on
  that line;
- a site inside the test of an ``if``/``elif``/``while``, the iterable of a ``for`` or a ``with`` item becomes
  ``(<mutated expression> if SWITCH == k else <original expression>)``.

A mutant whose place cannot switch without changing what the original means stays out of the schema and
runs the old way, from its own source (`MutantSchema.switch` has no number for it): sites evaluated when
the function is defined (parameter defaults), one-line suites (``if x: return y``), lines with ``global``,
``nonlocal``, ``yield`` or ``await`` (removing them changes the function's kind or scopes), and removals of
a statement that is the only binding of a local name (in the mutant the name would become a global; in
a schema it stays local). Checked by running both ways on the seeds (`tests/validation/test_schemata.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import libcst as cst

from validation.mutation import Mutant, Site, Splicer, choose_mutants, collect_sites

SWITCH = "__classeval_mutant__"


@dataclass(frozen=True)
class MutantSchema:
    """The schema module's source and, per mutant id, its switch number (absent: run from its own source)."""

    source: str | None
    switch: dict[str, int] = field(default_factory=dict)


class _Bindings(cst.CSTVisitor):
    """Names a function body binds in its own scope (nested functions, classes, lambdas and comprehensions
    have their own scopes and are not entered), counted per name."""

    def __init__(self) -> None:
        super().__init__()
        self.count: dict[str, int] = {}
        self.depth = 0

    def _bind(self, target: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            self.count[target.value] = self.count.get(target.value, 0) + 1
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.depth += 1
        return self.depth == 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.depth -= 1

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return False

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return False

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        return False

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return False

    def visit_Param(self, node: cst.Param) -> None:
        self._bind(node.name)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._bind(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._bind(node.name)

    def visit_Del(self, node: cst.Del) -> None:
        self._bind(node.target)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        if node.asname is None:
            name = node.name
            while isinstance(name, cst.Attribute):
                name = name.value
            self._bind(name)

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self._bind(item.name)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for item in node.names:
            self._bind(item.name)


def _bindings(node: cst.CSTNode) -> dict[str, int]:
    visitor = _Bindings()
    node.visit(visitor)
    return visitor.count


class _Forbidden(cst.CSTVisitor):
    """Does a line hold something whose removal or duplication changes the function's kind or scopes?"""

    def __init__(self) -> None:
        super().__init__()
        self.found = False

    def visit_Global(self, node: cst.Global) -> None:
        self.found = True

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.found = True

    def visit_Yield(self, node: cst.Yield) -> None:
        self.found = True

    def visit_Await(self, node: cst.Await) -> None:
        self.found = True


def _forbidden(node: cst.CSTNode) -> bool:
    visitor = _Forbidden()
    node.visit(visitor)
    return visitor.found


def _header_anchor(parent: cst.CSTNode, child: cst.CSTNode) -> cst.BaseExpression | None:
    """The expression of compound statement `parent` that `child` is, when it is evaluated at run time."""
    if isinstance(parent, (cst.If, cst.While)) and parent.test is child:
        return parent.test
    if isinstance(parent, cst.For) and parent.iter is child:
        return parent.iter
    return None


class _Placer:
    """Finds where each site switches: its simple statement line, or a header expression; None: it cannot.

    Walks the ancestors the site collector recorded (no second pass over the module for parent links)."""

    def __init__(self) -> None:
        self._scopes: dict[int, dict[str, int]] = {}
        self._forbidden: dict[int, bool] = {}

    def place(self, site: Site) -> tuple[str, cst.CSTNode] | None:
        chain = [site.node, *reversed(site.ancestors)]  # the site, then its parent, ... up to the module
        for index, current in enumerate(chain):
            previous = chain[index - 1] if index else current
            if isinstance(current, cst.SimpleStatementLine):
                return self._line(site, current)
            if isinstance(current, cst.WithItem):
                parent = chain[index + 1] if index + 1 < len(chain) else None
                if previous is current.item and isinstance(parent, cst.With):
                    return "expression", current.item
                return None
            if isinstance(current, (cst.BaseCompoundStatement, cst.SimpleStatementSuite, cst.Param,
                                    cst.ExceptHandler, cst.Decorator)):
                if isinstance(current, cst.BaseCompoundStatement):
                    anchor = _header_anchor(current, previous)
                    if anchor is not None:
                        return "expression", anchor
                return None
        return None

    def _line(self, site: Site, line: cst.SimpleStatementLine) -> tuple[str, cst.CSTNode] | None:
        if id(line) not in self._forbidden:
            self._forbidden[id(line)] = _forbidden(line)
        if self._forbidden[id(line)]:
            return None
        if site.node is line:  # the line is removed: its names must stay bound elsewhere in the function
            function = next((n for n in reversed(site.ancestors) if isinstance(n, cst.FunctionDef)), None)
            if function is None:
                return None
            if id(function) not in self._scopes:
                self._scopes[id(function)] = _bindings(function)
            scope = self._scopes[id(function)]
            for name, count in _bindings(line).items():
                if scope.get(name, 0) <= count:
                    return None
        return "line", line


def place_sites(sites: Sequence[Site]) -> dict[int, tuple[str, cst.CSTNode]]:
    """Where each site switches in a schema, by id of the site's node (absent: it cannot switch)."""
    placer = _Placer()
    places = {}
    for site in sites:
        placed = placer.place(site)
        if placed is not None:
            places[id(site.node)] = placed
    return places


def _switch_test(number: int) -> cst.BaseExpression:
    """``SWITCH == number``, built directly (libcst's parser costs about 10 ms a call)."""
    return cst.Comparison(left=cst.Name(SWITCH),
                          comparisons=[cst.ComparisonTarget(operator=cst.Equal(), comparator=cst.Integer(str(number)))])


def _parenthesised(expression: cst.BaseExpression) -> cst.BaseExpression:
    return expression.with_changes(lpar=[cst.LeftParen(), *expression.lpar],
                                   rpar=[*expression.rpar, cst.RightParen()])


def _switched_line(line: cst.SimpleStatementLine, variants: Sequence[tuple[int, cst.SimpleStatementLine]]
                   ) -> cst.If:
    orelse: cst.If | cst.Else = cst.Else(body=cst.IndentedBlock(body=[line.with_changes(leading_lines=())]))
    for number, variant in reversed(variants):
        orelse = cst.If(test=_switch_test(number),
                        body=cst.IndentedBlock(body=[variant.with_changes(leading_lines=())]), orelse=orelse)
    assert isinstance(orelse, cst.If)
    return orelse.with_changes(leading_lines=line.leading_lines)


def _switched_expression(expression: cst.BaseExpression,
                         variants: Sequence[tuple[int, cst.BaseExpression]]) -> cst.BaseExpression:
    result: cst.BaseExpression = _parenthesised(expression)
    for number, variant in reversed(variants):
        result = _parenthesised(cst.IfExp(test=_switch_test(number), body=_parenthesised(variant), orelse=result))
    return result


def build_schema(splicer: Splicer, chosen: Sequence[tuple[Site, Mutant]],
                 places: dict[int, tuple[str, cst.CSTNode]]) -> MutantSchema:
    """The schema of the `chosen` mutants (see the module docstring), spliced into the module's text."""
    variants: dict[int, list[tuple[int, cst.CSTNode]]] = {}
    anchors: dict[int, cst.CSTNode] = {}
    switch: dict[str, int] = {}
    for number, (site, mutant) in enumerate(chosen, start=1):
        placed = places.get(id(site.node))
        if placed is None:
            continue
        _, anchor = placed
        variant = site.replacement if anchor is site.node else anchor.deep_replace(site.node, site.replacement)
        variants.setdefault(id(anchor), []).append((number, variant))
        anchors[id(anchor)] = anchor
        switch[mutant.id] = number
    if not switch:
        return MutantSchema(source=None)
    replacements: list[tuple[cst.CSTNode, cst.CSTNode]] = []
    for key, anchor in anchors.items():
        if isinstance(anchor, cst.SimpleStatementLine):
            replacements.append((anchor, _switched_line(anchor, variants[key])))  # type: ignore[arg-type]
        else:
            replacements.append((anchor, _switched_expression(anchor, variants[key])))  # type: ignore[arg-type]
    source = splicer.splice(replacements)
    try:
        compile(source, "<schema>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return MutantSchema(source=None)  # every mutant then runs from its own source
    return MutantSchema(source=source, switch=switch)


def generate_mutants_with_schema(source: str, class_name: str, *, max_mutants: int | None = None, seed: int = 0
                                 ) -> tuple[list[Mutant], MutantSchema]:
    """The mutants `validation.mutation.generate_mutants` gives for the same arguments, and one module
    holding all of them that switches on the active mutant."""
    module, sites = collect_sites(source, class_name)
    places = place_sites(sites)
    splicer, chosen = choose_mutants(module, sites, max_mutants=max_mutants, seed=seed,
                                     also_replaced=[anchor for _, anchor in places.values()])
    return [mutant for _, mutant in chosen], build_schema(splicer, chosen, places)
