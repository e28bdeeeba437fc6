"""A faithful-variant kind defined outside the package, for the registry's tests: returned string constants that
the method's docstring does not quote, in upper case. Registered by the tests only (`REGISTRY.registered`)."""

from __future__ import annotations

import libcst as cst

from core.analysis.statements import Statements
from validation.faithful.rewriter import ClassRewriter, is_public, rewrite
from validation.faithful.variant import Rewrite, Subject


class _ShoutConstants(ClassRewriter):
    def __init__(self, class_name: str, statements: Statements) -> None:
        super().__init__(class_name)
        self.statements = statements

    def leave_Return(self, original: cst.Return, updated: cst.Return) -> cst.Return:
        if not self.in_method_body() or not is_public(self.method or "_") or \
                not isinstance(updated.value, cst.SimpleString):
            return updated
        text = updated.value.evaluated_value
        if not isinstance(text, str) or text.upper() == text or text in self.statements.of(self.method or ""):
            return updated
        self.site(original)
        return updated.with_changes(value=cst.SimpleString(repr(text.upper())))


def variant(subject: Subject) -> Rewrite | None:
    code, sites = rewrite(subject.source, _ShoutConstants(subject.class_name, subject.statements))
    return Rewrite(code, tuple(sites), f"{len(sites)} returned constant(s) in upper case") if sites else None
