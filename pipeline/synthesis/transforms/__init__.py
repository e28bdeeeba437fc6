"""Feature transforms for enhancement, one module per feature, in an explicit registry.

The registry maps a stable name (recorded in provenance) to "module:attr" and loads lazily; the canonical
order (the registry's) is the order in which a combination is named and its scenarios proposed; the
application order (`APPLY_ORDER`) is the order in which it is woven in, so that instrumentation nests the
same way every time. A transform added to the registry and not named in `APPLY_ORDER` is woven in after
the others.

To add one: a module here with a `FeatureTransform` subclass (`base.py`), and one line in `REGISTRY`.
"""

from __future__ import annotations

from core.registry import Registry
from pipeline.synthesis.transforms.base import FeatureTransform, TransformError

REGISTRY: Registry = Registry("feature transform", {
    "input_validation": "pipeline.synthesis.transforms.validation:InputValidation",
    "method_statistics": "pipeline.synthesis.transforms.statistics:MethodStatistics",
    "freeze_lock": "pipeline.synthesis.transforms.freeze:FreezeLock",
    "history_undo": "pipeline.synthesis.transforms.history:HistoryUndo",
    "atomic_batch": "pipeline.synthesis.transforms.batch:AtomicBatch",
    "combined_summary": "pipeline.synthesis.transforms.summary:CombinedSummary",
    "snapshot_roundtrip": "pipeline.synthesis.transforms.snapshot:SnapshotRoundTrip",
})

APPLY_ORDER: tuple[str, ...] = (
    "input_validation", "history_undo", "atomic_batch", "freeze_lock", "combined_summary", "method_statistics",
    "snapshot_roundtrip",
)
"""The order in which a combination is woven in, so that features combine as their docstrings say: the
freeze guard goes in after history and batch (it locks ``undo`` and ``apply_batch`` too, and its check
comes before the argument checks); the statistics' call guard goes in after every method that calls
counted methods exists (``overview``, ``apply_batch``: their inner calls are inside calls) and wraps
every guard (a refused call counts); the snapshot last, so that it knows every bookkeeping field."""

INCOMPATIBLE: frozenset[frozenset[str]] = frozenset({frozenset({"history_undo", "atomic_batch"})})
"""Pairs not combined: a batch's inner operations would each enter the undo history, which makes what
`undo` reverts after a rolled-back batch hard to state precisely."""


def get(name: str) -> FeatureTransform:
    """The transform registered under `name`."""
    return REGISTRY.load(name)()


def canonical_order(names: list[str] | tuple[str, ...]) -> list[str]:
    order = list(REGISTRY)
    return sorted(names, key=order.index)


def application_order(names: list[str] | tuple[str, ...]) -> list[str]:
    order = [*APPLY_ORDER, *(name for name in REGISTRY if name not in APPLY_ORDER)]
    return sorted(names, key=order.index)


__all__ = ["REGISTRY", "APPLY_ORDER", "INCOMPATIBLE", "get", "canonical_order", "application_order",
           "FeatureTransform", "TransformError"]
