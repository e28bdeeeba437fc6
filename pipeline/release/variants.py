"""Which variants of a family a release keeps, and which it prefers, chosen for what they add.

One seed enhanced with different feature sets gives several tasks that share most of their class (a
family, `pipeline.release.family`); failures correlate across them, so a release that keeps them all weighs
that seed several times. A release keeps at most `ReleaseConfig.max_variants_per_family` tasks of a family
(counting those earlier releases already hold), chosen in this order of preference, one at a time:

1. **distinct features**: the variant that adds the most features (`provenance.transforms`, a composed
   task's bridges included) not already covered by the variants chosen before it (the earlier releases'
   ones first), so a second variant is kept for what it adds, not for being another mix of the same;
2. **the higher mutation score** (`metrics.mutation_score`, the gate's measure of how many small changes of
   the reference its tests catch; unmeasured counts lowest): the variant whose tests are stronger;
3. the `task_id`, only to make the order total (it is a content hash: it says nothing of the task).

The same order decides everything that picks one variant over another: deduplication meets the tasks in
it (of two near-duplicates the preferred one stays), the limit keeps its head, and each released task
records its place as `variant_rank` (1: its family's first choice), which the card's one-per-family advice
and `load_release(one_per_family=True)` read. A variant left out is a `Rejection` (`variant_limit`) naming
the variants chosen ahead of it, not a silent loss.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from core.records import Task
from pipeline.release.family import task_family


def features(task: Task) -> frozenset[str]:
    """The features a task carries: the synthesis transforms it applied (bridges of a composed task too)."""
    return frozenset(task.provenance.transforms)


def mutation_score(task: Task) -> float:
    """The gate's mutation score; -1 when it was not measured, so a measured score always ranks higher."""
    score = task.metrics.get("mutation_score")
    return -1.0 if score is None else float(score)


def family_order(tasks: Iterable[Task], chosen: Sequence[Task] = ()) -> list[Task]:
    """`tasks` (variants of one family) in order of preference after the variants already `chosen` (see the
    module doc): each next one adds the most features not yet covered, then has the higher mutation score,
    then the lower task id."""
    covered = set().union(*(features(t) for t in chosen)) if chosen else set()
    remaining = list(tasks)
    ordered: list[Task] = []
    while remaining:
        best = min(remaining, key=lambda t: (-len(features(t) - covered), -mutation_score(t), t.task_id))
        ordered.append(best)
        covered |= features(best)
        remaining.remove(best)
    return ordered


def _by_family(tasks: Iterable[Task]) -> dict[str, list[Task]]:
    out: dict[str, list[Task]] = {}
    for task in tasks:
        out.setdefault(task_family(task), []).append(task)
    return out


def preference_order(tasks: Sequence[Task], earlier: Sequence[Task] = ()) -> list[Task]:
    """Every task of `tasks`, every family's first choice before any family's second (and so on), each
    family in `family_order` after its tasks in `earlier`; within one place, the higher mutation score, then
    the task id. Deduplication meets the tasks in this order, so the preferred of two near-duplicates stays,
    whichever their families."""
    before = _by_family(earlier)
    place: dict[str, int] = {}
    for family, members in _by_family(tasks).items():
        for index, task in enumerate(family_order(members, before.get(family, ()))):
            place[task.task_id] = index
    return sorted(tasks, key=lambda t: (place[t.task_id], -mutation_score(t), t.task_id))


@dataclass
class VariantChoice:
    """The tasks kept (each with its `variant_rank`) and those left out, each with the variants chosen
    ahead of it (the earlier releases' ones included)."""

    kept: list[Task] = field(default_factory=list)
    dropped: list[tuple[Task, list[Task]]] = field(default_factory=list)


def choose_variants(tasks: Sequence[Task], earlier: Sequence[Task] = (), limit: int | None = None) -> VariantChoice:
    """At most `limit` tasks per family, counting the family's tasks in `earlier` (None: no limit); ranks
    continue after the earlier ones. `tasks` keep their given order in `kept`."""
    before = _by_family(earlier)
    rank: dict[str, int] = {}
    ahead: dict[str, list[Task]] = {}
    for family, members in _by_family(tasks).items():
        chosen = list(before.get(family, ()))
        for task in family_order(members, chosen):
            if limit is None or len(chosen) < limit:
                rank[task.task_id] = len(chosen) + 1
                chosen.append(task)
            else:
                ahead[task.task_id] = chosen
    choice = VariantChoice()
    for task in tasks:
        if task.task_id in rank:
            choice.kept.append(task.model_copy(update={"variant_rank": rank[task.task_id]}))
        else:
            choice.dropped.append((task, ahead[task.task_id]))
    return choice

