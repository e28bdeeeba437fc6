"""``unordered``: dicts returned by public methods in reversed key order, and lists or tuples built from
sets reversed, unless the skeleton states the method's order (`core.analysis.statements.order_stated`, the
consistency judge's rule: a test the judge accepts as comparing a stated order is one this variant keeps).

A set's iteration order is the interpreter's, and a dict's the order its keys happened to be added in;
neither is a promise unless the skeleton makes it."""

from __future__ import annotations

import ast

import libcst as cst

from core.analysis.statements import order_stated
from validation.faithful.facts import local_sets, set_derived_sequence
from validation.faithful.helpers import with_helpers
from validation.faithful.rewriter import WrapReturns, rewrite
from validation.faithful.variant import Rewrite, Subject


def variant(subject: Subject) -> Rewrite | None:
    source, class_name = subject.source, subject.class_name

    def wanted(method: str, node: cst.Return) -> list[str] | None:
        if order_stated(subject.statements, method) or method not in subject.methods.nodes:
            return None
        function = subject.methods.nodes[method]
        value = next((n.value for n in ast.walk(function) if isinstance(n, ast.Return) and n.value is not None
                      and n.lineno == position(node)), None)
        if value is None:
            return []
        local = local_sets(function, subject.methods.set_attributes)
        return ["True"] if set_derived_sequence(value, local, subject.methods.set_attributes) else []

    rewriter = WrapReturns(class_name, "_faithful_reorder", wanted)

    def position(node: cst.Return) -> int:
        return rewriter.get_metadata(cst.metadata.PositionProvider, node).start.line

    code, sites = rewrite(source, rewriter)
    if not sites:
        return None
    return Rewrite(with_helpers(code), tuple(sites),
                   f"results of {len(sites)} return(s) whose order is not stated, reordered")
