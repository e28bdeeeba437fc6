"""The faithful variant record, what a kind hands back, and what every kind is handed.

A kind is named by its registry name (`validation.faithful.REGISTRY`): that name is the variant's `kind`, its
id (``faithful:<name>``) and the key of the gate's evidence, so adding a kind touches no list here.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import Enum

from core.analysis.statements import Statements
from validation.faithful.facts import MethodFacts


class VariantKind(str, Enum):
    """The names of the built-in kinds, for code that treats one of them specially (the weakening of an
    over-specified test). Not the list of kinds: that is the registry's, and a kind added there needs no
    member here. A member equals (and hashes as) its name, so it looks up a variant's `kind`."""

    MESSAGE = "message"
    FLOAT_ULP = "float_ulp"
    GUARD_ORDER = "guard_order"
    INTERNAL_ROUTE = "internal_route"
    UNORDERED = "unordered"
    TEXT_FORMAT = "text_format"
    STATE_AFTER_ERROR = "state_after_error"


@dataclass(frozen=True)
class Subject:
    """What every kind is handed: the reference, its class, what the skeleton states and the facts of the
    reference's methods (read once per class, shared by the kinds)."""

    source: str
    class_name: str
    statements: Statements
    methods: MethodFacts


@dataclass(frozen=True)
class Rewrite:
    """What a kind made: the reference with every place of the kind changed; `sites` names each place
    ("method:line")."""

    source: str
    sites: tuple[str, ...]
    description: str
    open_words: tuple[str, ...] = ()  # text_format: the words reworded (what a weakened check no longer asks for)

    def named(self, kind: str) -> FaithfulVariant:
        return FaithfulVariant(kind, self.source, self.sites, self.description, self.open_words)


@dataclass(frozen=True)
class FaithfulVariant:
    """The reference with every place of one kind changed; `sites` names each place ("method:line")."""

    kind: str  # the kind's registry name
    source: str
    sites: tuple[str, ...]
    description: str
    open_words: tuple[str, ...] = ()  # text_format: the words reworded (what a weakened check no longer asks for)

    @property
    def id(self) -> str:
        return f"faithful:{self.kind}"

    def diff(self, reference: str, limit: int = 4000) -> str:
        """Unified diff of the reference against this variant, cut at `limit` characters."""
        text = "".join(difflib.unified_diff(reference.splitlines(keepends=True), self.source.splitlines(keepends=True),
                                            "reference", f"variant ({self.kind})", n=1))
        return text if len(text) <= limit else text[:limit] + "\n... (diff cut)\n"
