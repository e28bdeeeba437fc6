"""Feature transforms for enhancement, one module per feature, in an explicit registry.

The registry maps a stable name (recorded in provenance) to "module:attr" and loads lazily; the canonical
order is the order in which a combination is applied, so that instrumentation nests the same way every
time (validation and counting first, the snapshot last so that it knows every bookkeeping field).
"""

from __future__ import annotations

import importlib

from pipeline.synthesis.transforms.base import FeatureTransform, TransformError

REGISTRY: dict[str, str] = {
    "input_validation": "pipeline.synthesis.transforms.validation:InputValidation",
    "method_statistics": "pipeline.synthesis.transforms.statistics:MethodStatistics",
    "freeze_lock": "pipeline.synthesis.transforms.freeze:FreezeLock",
    "history_undo": "pipeline.synthesis.transforms.history:HistoryUndo",
    "atomic_batch": "pipeline.synthesis.transforms.batch:AtomicBatch",
    "combined_summary": "pipeline.synthesis.transforms.summary:CombinedSummary",
    "snapshot_roundtrip": "pipeline.synthesis.transforms.snapshot:SnapshotRoundTrip",
}

INCOMPATIBLE: frozenset[frozenset[str]] = frozenset({frozenset({"history_undo", "atomic_batch"})})
"""Pairs not combined: a batch's inner operations would each enter the undo history, which makes what
`undo` reverts after a rolled-back batch hard to state precisely."""


def get(name: str) -> FeatureTransform:
    """The transform registered under `name`."""
    try:
        module_name, attr = REGISTRY[name].split(":")
    except KeyError:
        raise KeyError(f"unknown transform {name!r}; known: {', '.join(REGISTRY)}") from None
    return getattr(importlib.import_module(module_name), attr)()


def canonical_order(names: list[str] | tuple[str, ...]) -> list[str]:
    order = list(REGISTRY)
    return sorted(names, key=order.index)


__all__ = ["REGISTRY", "INCOMPATIBLE", "get", "canonical_order", "FeatureTransform", "TransformError"]
