"""The faithful-variant kinds a release's card speaks of: the ones the gate ran, each with what it changes.

The gate runs every kind registered in `validation.faithful.REGISTRY` and records, per task, each kind
that found a place to change (`metrics["faithful_<kind>"]`). The card's table and its limitations list
those kinds, so they follow the registry as kinds are added, instead of a list typed into the card that
falls behind (it named five kinds while the gate ran seven). What a kind changes is the first clause of
its module's docstring, where the registry's contract asks each kind to say it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence

from core.records import Task
from validation.faithful import REGISTRY

PREFIX = "faithful_"
TOTAL = "faithful_variants"  # the gate's count of failed variants, not a kind
_PARENTHESES = re.compile(r"\s*\([^()]*\)")


def recorded_kinds(tasks: Sequence[Task]) -> list[str]:
    """The kinds the gate recorded for these tasks (a kind that changed a place in one of them): registered
    kinds in the registry's order, then kinds recorded by an earlier build that are no longer registered."""
    recorded = {k[len(PREFIX):] for t in tasks for k in t.metrics if k.startswith(PREFIX) and k != TOTAL}
    return [name for name in REGISTRY if name in recorded] + sorted(recorded - set(REGISTRY))


def registered_kinds() -> list[str]:
    """Every kind the gate runs now, in the registry's order."""
    return list(REGISTRY)


def release_kinds(tasks: Sequence[Task]) -> list[str]:
    """The kinds a release's card lists: every kind the gate runs now, then any an earlier build recorded
    for a carried task and that is no longer registered."""
    registered = registered_kinds()
    return registered + [k for k in recorded_kinds(tasks) if k not in registered]


def what_it_changes(kind: str) -> str:
    """The kind's own one-line account of what it changes (its module docstring's first clause, without
    parentheses and its `unless` condition); the kind's name when it is not registered (any more)."""
    if kind not in REGISTRY:
        return f"`{kind}` (no longer registered)"
    doc = inspect.getmodule(REGISTRY.load(kind)).__doc__ or ""
    text = " ".join(doc.split())
    text = re.sub(rf"^``{re.escape(kind)}``:\s*", "", text)
    while _PARENTHESES.search(text):
        text = _PARENTHESES.sub("", text)
    text = re.split(r",? unless |; |\. ", text, maxsplit=1)[0].rstrip(".")
    return text.replace("``", "`") or kind
