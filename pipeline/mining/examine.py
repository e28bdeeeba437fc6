"""The filters every source applies to the classes of one file, in cost order, before any history query:
shape (kind, size, interaction), slice (standard library only), effects, documentation.

Sources (local git, GitHub) differ only in how they read files and date classes; this is what they share.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pipeline.mining.effects import effects_filter
from pipeline.mining.extract import ClassUnit, ParsedModule
from pipeline.mining.filters import Drop, first_drop
from pipeline.mining.records import MineConfig, mined_id
from pipeline.mining.shape import interaction_filter, is_test_path, kind_filter, size_filter
from pipeline.mining.slicing import Slice, self_contained, slice_class
from pipeline.records import Rejection, RejectReason

STAGE = "mine"
def undocumented_methods(unit: ClassUnit) -> list[str]:
    """Methods a solver would have to implement without a docstring (dunders other than __init__ are
    exempt: their meaning is the language's). Read from the syntax tree directly: this filter runs before
    the costlier analyses."""
    missing = []
    for function in unit.functions:
        name = function.name.value
        if name.startswith("__") and name.endswith("__") and name != "__init__":
            continue
        if function.get_docstring() is None and name not in missing:
            missing.append(name)
    return missing


def documented_filter(unit: ClassUnit) -> Drop | None:
    missing = undocumented_methods(unit)
    if missing:
        return Drop(RejectReason.UNDOCUMENTED, f"{unit.name}: no docstring on {', '.join(missing[:5])}",
                    {"methods": missing})
    return None


Documenter = Callable[[str, str, list[str]], "str | Drop"]
"""(class name, slice code, undocumented methods) -> the slice with docstrings added, or why not."""


def documented_slice(unit: ClassUnit, piece: Slice, documenter: Documenter | None) -> str | Drop:
    """The slice's code, with docstrings written for undocumented methods when a documenter is given."""
    missing = undocumented_methods(unit)
    if not missing or documenter is None:
        return piece.code
    return documenter(unit.name, piece.code, missing)


@dataclass(frozen=True)
class Passed:
    """A class that passed the cheap filters, with its slice."""

    unit: ClassUnit
    piece: Slice


def examine_module(module: ParsedModule, config: MineConfig, *, require_docstrings: bool = True
                   ) -> Iterator[Passed | tuple[ClassUnit, Drop]]:
    """For each top-level class: `Passed`, or the class and the first filter's drop.

    Order, by cost: kind and size (the syntax tree as parsed), documentation (likewise), the slice and its
    imports and effects (one scope analysis per module), and last the interaction edges (a per-method
    analysis, the costliest)."""
    cheap = [kind_filter(module.path), size_filter(config.shape)] + ([documented_filter] if require_docstrings else [])
    for unit in module.classes:
        drop = first_drop(unit, cheap)
        if drop is not None:
            yield unit, drop
            continue
        try:
            piece = slice_class(unit)
        except Exception as exc:  # noqa: BLE001 - a resolver failure on odd code costs this class only
            yield unit, Drop(RejectReason.MALFORMED, f"could not slice {unit.name}: {type(exc).__name__}: {exc}")
            continue
        drop = self_contained(piece) or effects_filter(piece) or interaction_filter(unit)
        yield (unit, drop) if drop is not None else Passed(unit, piece)


def rejection(repository: str, path: str, class_name: str, drop: Drop) -> Rejection:
    """A mining rejection, keyed by where the class was found."""
    return Rejection(candidate_id=mined_id(repository, path, class_name), stage=STAGE, reason=drop.reason,
                     detail=f"{repository}:{path}:{class_name}: {drop.detail}",
                     evidence={"repository": repository, "path": path, "class_name": class_name, **drop.evidence})


def description_of(unit: ClassUnit) -> str:
    """The class docstring's first paragraph, one line."""
    doc = unit.facts.docstring or ""
    return " ".join(doc.strip().split("\n\n")[0].split())


def tests_using(class_name: str, test_sources: dict[str, str]) -> tuple[str, ...]:
    """The repository's test modules that import `class_name` by name."""
    pattern = re.compile(rf"^\s*from\s+[\w.]+\s+import\s+[^\n]*\b{re.escape(class_name)}\b", re.MULTILINE)
    return tuple(text for path, text in sorted(test_sources.items()) if pattern.search(text))
