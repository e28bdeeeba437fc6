"""Task families: which tasks are near-variants of one another because they grew from the same seeds.

Enhancing one seed with different feature sets gives several tasks that share most of their class; a
benchmark that counts them all weighs that seed several times. The family names what a task grew from, so
that a reader can count per family or keep one task per family:

- an enhanced task: its seed's id (`Finance_Ecommerce/currency_wallet`);
- a composed task: its two seeds' ids, sorted and joined by `+` (`A/x+B/y`): the pair is the family, so
  composing the same two seeds again is a near-variant, while composing one of them with another seed is not;
- a mined task: its own origin, `repository:path::Class` (mined classes have no seed).

The family is derived from the provenance alone, so it is the same on every run and machine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from core.records import Origin, Provenance, Task

SEED_SEPARATOR = "+"


def family_of(origin: Origin, provenance: Provenance, class_name: str) -> str:
    """The family of a task or candidate with this origin, provenance and class name."""
    if provenance.seed_ids:
        return SEED_SEPARATOR.join(sorted(set(provenance.seed_ids)))
    if provenance.repository or provenance.path:
        return f"{provenance.repository or ''}:{provenance.path or ''}::{class_name}"
    # Neither seeds nor a source location (a hand-made candidate): the class is its own family.
    return f"{origin.value}::{class_name}"


def task_family(task: Task) -> str:
    """The task's recorded family, or the one derived from its provenance for tasks released before the
    field existed."""
    return task.family or family_of(task.origin, task.provenance, task.class_name)


T = TypeVar("T", bound=Task)


def one_per_family(tasks: Sequence[T]) -> list[T]:
    """One task per family, in the order given: each family's first choice, the task of the lowest
    `variant_rank` (set by release assembly, `pipeline.release.variants`: the choice deduplication made
    too); where no task of a family carries a rank (written before the column existed), its first task in
    the order given.
    """
    best: dict[str, T] = {}
    for task in tasks:
        family = task_family(task)
        held = best.get(family)
        if held is None or 0 < task.variant_rank < (held.variant_rank or task.variant_rank + 1):
            best[family] = task
    chosen = {id(t) for t in best.values()}
    return [t for t in tasks if id(t) in chosen]


def family_counts(tasks: Iterable[Task]) -> dict[str, int]:
    """Tasks per family, sorted by family."""
    counts: dict[str, int] = {}
    for task in tasks:
        family = task_family(task)
        counts[family] = counts.get(family, 0) + 1
    return dict(sorted(counts.items()))
