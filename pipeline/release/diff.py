"""What changed between two releases: tasks added, removed, and changed.

Task ids are content hashes, so an edited task gets a new id. To tell "changed" from "added", tasks are
also matched by lineage: the same class name, module, origin and provenance (seeds, repository, path).
A new task whose lineage matches a task of the previous release is reported as changed (with both ids);
the previous task stays in its own split, since releases only ever add splits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import InputError
from core.records import Task

Lineage = tuple[str, str, str, tuple[str, ...], str | None, str | None]


def lineage(task: Task) -> Lineage:
    p = task.provenance
    return (task.class_name, task.module_name, task.origin.value, p.seed_ids, p.repository, p.path)


def release_diff(previous: Sequence[Task], current: Sequence[Task], *, previous_version: str | None,
                 version: str) -> dict[str, Any]:
    before = {t.task_id: t for t in previous}
    after = {t.task_id: t for t in current}
    before_by_lineage: dict[Lineage, list[str]] = {}
    for t in previous:
        before_by_lineage.setdefault(lineage(t), []).append(t.task_id)
    added, changed = [], []
    for task_id in sorted(set(after) - set(before)):
        earlier = sorted(before_by_lineage.get(lineage(after[task_id]), []))
        if earlier:
            changed.append({"task_id": task_id, "previous_task_ids": earlier, "class_name": after[task_id].class_name})
        else:
            added.append(task_id)
    removed = sorted(set(before) - set(after))
    return {"version": version, "previous_version": previous_version, "added": added, "removed": removed,
            "changed": changed, "unchanged": len(set(before) & set(after))}


def task_source(task: Task) -> str:
    """Where a task came from, in a few words: the mined file, or the seeds it grew from."""
    p = task.provenance
    if p.repository:
        return f"{p.repository}:{p.path}" if p.path else p.repository
    return " + ".join(p.seed_ids) or (p.source or "")


def diff_rows(diff: dict[str, Any], tasks: Sequence[Task]) -> list[dict[str, Any]]:
    """One row per added or changed task of a release's `diff.json`, with what a reader asks first: the
    class, its origin, the date its source first existed and where it came from. `tasks` are the release's
    tasks (every split); a task the diff names that is not among them is an error of the release."""
    by_id = {t.task_id: t for t in tasks}
    rows = []
    for change, task_id in [("added", i) for i in diff.get("added", [])] + \
                           [("changed", c["task_id"]) for c in diff.get("changed", [])]:
        task = by_id.get(task_id)
        if task is None:
            raise InputError(f"diff.json of {diff.get('version')}: {change} task {task_id} is not in the release")
        rows.append({"change": change, "task_id": task_id, "class_name": task.class_name,
                     "origin": task.origin.value, "source_date": task.source_date, "source": task_source(task)})
    return rows
