"""``guard_order``: independent guard checks at the top of a method (``if ...: raise``, a loop of such
checks over items, or a call of a private method that can raise; past leading calls such as a call recorder,
and inside a leading ``try``) in another order, unless the method's docstring states a precedence
("checked before ...", `core.analysis.statements.pinned_exceptions`).

Which of two failed checks raises first is a detail a solver decides freely where the skeleton is silent."""

from __future__ import annotations

import libcst as cst

from core.analysis.statements import Statements, pinned_exceptions
from validation.faithful.facts import MethodFacts
from validation.faithful.guards import call_statement, read_guard
from validation.faithful.rewriter import ClassRewriter, docstring_statement, methods_changed, rewrite
from validation.faithful.variant import Rewrite, Subject


class _ReorderGuards(ClassRewriter):
    def __init__(self, class_name: str, statements: Statements, methods: MethodFacts) -> None:
        super().__init__(class_name)
        self.statements = statements
        self.methods = methods

    def finish_method(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        name = original.name.value
        pinned = pinned_exceptions(self.statements.of(name), self.statements.class_doc)
        if pinned is None:
            return updated
        body = list(original.body.body)  # this rewriter changes nothing else: the original is the updated
        reordered = self._reorder_block(body, 1 if docstring_statement(body) else 0, pinned)
        if reordered is None:
            return updated
        return original.with_changes(body=original.body.with_changes(body=reordered))

    def _reorder_block(self, body: list[cst.BaseStatement], start: int,
                       pinned: set[str]) -> list[cst.BaseStatement] | None:
        """The block with its first run of guards in another order, or None. Leading calls that are no guards
        (a call recorder, an undo snapshot) stay where they are; a leading `try` is looked into (the undo
        feature wraps a method's body in one)."""
        module = cst.Module(body=[])
        while (start < len(body) and read_guard(body[start], module, self.methods) is None
               and call_statement(body[start])):
            start += 1  # a call recorder, an undo snapshot, a call-depth guard: they stay first
        if start < len(body) and isinstance(body[start], cst.Try):
            inner = self._reorder_block(list(body[start].body.body), 0, pinned)
            if inner is None:
                return None
            try_node = body[start]
            return body[:start] + [try_node.with_changes(body=try_node.body.with_changes(body=inner))] + body[start + 1:]
        guards: list[tuple[cst.BaseStatement, set[str], set[str]]] = []
        for statement in body[start:]:
            guard = read_guard(statement, module, self.methods)
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


def variant(subject: Subject) -> Rewrite | None:
    source, class_name = subject.source, subject.class_name
    code, sites = rewrite(source, _ReorderGuards(class_name, subject.statements, subject.methods))
    if not sites:
        return None
    methods = methods_changed(sites)
    return Rewrite(code, tuple(sites),
                   f"independent guard checks of {methods} method(s) in the other order")
