"""Faithful variants: the dual of mutants. Mutants must fail the tests; faithful variants must pass them.

A faithful variant is the reference changed only where its skeleton is silent: it keeps everything the
skeleton states and differs in what a correct implementation written from the skeleton alone may do
otherwise. A test that fails one checks something the skeleton never states (it is over-specified), so
every solver that reads the skeleton correctly but decides that detail differently is marked wrong. Each
kind is applied to every place of its kind at once (one variant per kind keeps the gate's cost at a few
forked runs per candidate), and skipped where the skeleton states the detail (`core.analysis.statements`
decides what it states, for the judges too). The kinds, one module each, in `REGISTRY` order:

- ``message``: exception messages reworded;
- ``float_ulp``: computed float results moved by one ulp;
- ``guard_order``: independent guard checks in another order;
- ``internal_route``: internal calls of self-recording methods routed around the recording;
- ``unordered``: results whose order is not stated, reordered;
- ``text_format``: the unstated words of returned texts reworded;
- ``state_after_error``: the change made before a failed argument check raises.

To add a kind: a module here with a function ``variant(subject: Subject) -> Rewrite | None`` (what
`variant.py` describes; `rewriter.py`, `facts.py` and `guards.py` hold what the kinds share), and one line
in `REGISTRY`. Nothing here imports a kind's module: the registry loads it when variants are made. Its
registry name is its variant's `kind`, its id (``faithful:<name>``) and the key of the
gate's evidence; the registry's order is the order the variants are made and reported in.

The variants are generated from the reference's text with libcst (never imported here); they run in the
sandbox like mutants (`validation.gate`). Written here rather than taken from a library because no
mutation tool generates behaviour-preserving changes: they all aim for the opposite.
"""

from __future__ import annotations

from core.analysis.statements import Statements, leaves_stated, message_stated, skeleton_statements
from core.registry import Registry
from validation.faithful.facts import MethodFacts
from validation.faithful.helpers import HELPERS, SHORT_FLOAT_DIGITS, is_computed_float, significant_digits
from validation.faithful.variant import FaithfulVariant, Rewrite, Subject, VariantKind

REGISTRY: Registry = Registry("faithful-variant kind", {
    "message": "validation.faithful.message:variant",
    "float_ulp": "validation.faithful.float_ulp:variant",
    "guard_order": "validation.faithful.guard_order:variant",
    "internal_route": "validation.faithful.internal_route:variant",
    "unordered": "validation.faithful.unordered:variant",
    "text_format": "validation.faithful.text_format:variant",
    "state_after_error": "validation.faithful.state_after_error:variant",
})


def faithful_variants(source: str, class_name: str, skeleton: str) -> list[FaithfulVariant]:
    """One variant per registered kind that has a place in this class, in `REGISTRY` order. A kind whose
    rewrite leaves the source as it was made no variant: running it would prove nothing."""
    subject = Subject(source, class_name, skeleton_statements(skeleton, class_name), MethodFacts(source, class_name))
    made = [(name, REGISTRY.load(name)(subject)) for name in REGISTRY]
    return [rewrite.named(name) for name, rewrite in made if rewrite is not None and rewrite.source != source]


__all__ = ["REGISTRY", "faithful_variants", "FaithfulVariant", "Rewrite", "Subject", "VariantKind", "MethodFacts",
           "Statements", "skeleton_statements", "message_stated", "leaves_stated", "HELPERS", "SHORT_FLOAT_DIGITS",
           "is_computed_float", "significant_digits"]
