"""`tasks.md`, beside the card: every task of a release, one row each, and its families.

A card that lists a release's tasks one by one is mostly that list (230 of 705 lines at 226 tasks), and
it grows with every release; the card keeps the figures and links here. The rows are what a reader looks a
task up by: its id, class, origin and domains, its family and place in it (`variant_rank`), the date its
source first existed, where it came from, and what this release did to it (added, changed against the
previous release, or carried unchanged from an earlier split). Written by release assembly before the
manifest, which hashes it like every file of the folder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.records import Task
from pipeline.release.diff import task_source
from pipeline.release.family import family_counts, task_family

TASKS_FILE = "tasks.md"


def _cell(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")  # a | would end the cell


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows])


def task_list(version: str, splits: Mapping[str, Sequence[Task]], diff: Mapping[str, Any]) -> str:
    """The text of `tasks.md` for release `version` (its splits oldest first, its `diff.json`)."""
    changed = {c["task_id"] for c in diff.get("changed", [])}
    added = set(diff.get("added", []))
    rows = []
    for split, tasks in splits.items():
        for t in sorted(tasks, key=lambda t: (task_family(t), t.variant_rank, t.task_id)):
            change = "added" if t.task_id in added else "changed" if t.task_id in changed else f"from {split}"
            rows.append((f"`{t.task_id}`", t.class_name, t.origin.value, " + ".join(t.domains), f"`{task_family(t)}`",
                         t.variant_rank or "-", t.source_date or "undated", f"`{task_source(t)}`", split, change))
    families = sorted(family_counts(t for ts in splits.values() for t in ts).items(), key=lambda kv: (-kv[1], kv[0]))
    total = sum(len(ts) for ts in splits.values())
    return (f"# Tasks of release {version}\n\n"
            f"{total} tasks in {len(splits)} split(s), grouped by family, each family's variants in their order "
            f"of preference (`variant_rank`; see the card's Families and transforms). The dataset card is "
            f"[README.md](README.md).\n\n"
            + _table(("task_id", "class", "origin", "domains", "family", "variant_rank", "source date", "source",
                      "split", "in this release"), rows)
            + "\n\n## Tasks per family\n\n" + _table(("family", "tasks"), [(f"`{f}`", n) for f, n in families])
            + "\n")
