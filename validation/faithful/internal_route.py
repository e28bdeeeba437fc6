"""``internal_route``: where a method records its own calls (``self._record_call("name")``), calls that
other methods make to it routed around the recording.

Never skipped: a docstring that mentions another method ("like ``record``, for each pair") does not state
that the method calls it, and whether a count includes calls from inside stays open unless the skeleton
says they do not count (then routing changes nothing)."""

from __future__ import annotations

import libcst as cst

from core.analysis.parsed import parsed
from validation.faithful.rewriter import ClassRewriter, docstring_statement, is_public, rewrite, self_call
from validation.faithful.variant import Rewrite, Subject


def _recorder_prologue(node: cst.FunctionDef) -> int | None:
    """Index of a statement `self._x("<this method's name>")` among the first statements of a method: the
    method records its own calls there (a call counter, a log of calls)."""
    body = list(node.body.body)
    start = 1 if docstring_statement(body) else 0
    for index in range(start, min(start + 3, len(body))):
        statement = body[index]
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
                and isinstance(statement.body[0], cst.Expr)):
            return None
        call = statement.body[0].value
        name = self_call(call)
        if (name and name.startswith("_") and isinstance(call, cst.Call) and len(call.args) == 1
                and isinstance(call.args[0].value, cst.SimpleString)
                and call.args[0].value.evaluated_value == node.name.value):
            return index
    return None


class _RouteInternalCalls(ClassRewriter):
    """Calls `self.m(...)` from other methods go to a copy of `m` without its recording statement."""

    PREFIX = "_faithful_direct_"

    def __init__(self, class_name: str, recorded: dict[str, cst.FunctionDef]) -> None:
        super().__init__(class_name)
        self.recorded = recorded
        self.routed: set[str] = set()

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        callee = self_call(updated)
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


def variant(subject: Subject) -> Rewrite | None:
    source, class_name = subject.source, subject.class_name
    recorded: dict[str, cst.FunctionDef] = {}
    for node in parsed(source).module.body:
        if isinstance(node, cst.ClassDef) and node.name.value == class_name:
            for item in node.body.body:
                if isinstance(item, cst.FunctionDef) and is_public(item.name.value) and not item.decorators \
                        and _recorder_prologue(item) is not None:
                    recorded[item.name.value] = item
    if not recorded:
        return None
    code, sites = rewrite(source, _RouteInternalCalls(class_name, recorded))
    if not sites:
        return None
    return Rewrite(code, tuple(sites),
                   f"{len(sites)} internal call(s) of self-recording methods routed around the recording")
