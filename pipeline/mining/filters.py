"""A miner is a chain of small filters, each saying keep or drop, with the reason when it drops.

Each filter looks at one thing (the licence, the class's shape, its imports, its date) and answers with a
`Drop` naming a `RejectReason` and one readable line, or None to keep the item. `first_drop` runs a chain in
order and stops at the first drop, so the cheap filters go first and the expensive ones (history queries)
only see what survived them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from core.records import RejectReason

T = TypeVar("T")


@dataclass(frozen=True)
class Drop:
    """A filter's decision to leave an item out: the reason, one readable line, and what it saw."""

    reason: RejectReason
    detail: str
    evidence: dict[str, Any] = field(default_factory=dict)


Filter = Callable[[T], "Drop | None"]
"""A filter: None keeps the item, a `Drop` leaves it out."""


def first_drop(item: T, chain: Iterable[Filter[T]]) -> Drop | None:
    """The first drop of `chain` on `item`, or None when every filter keeps it."""
    for check in chain:
        verdict = check(item)
        if verdict is not None:
            return verdict
    return None
