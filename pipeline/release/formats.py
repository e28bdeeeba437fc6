"""The release's export formats beside its parquet splits: a registry of writers, run in order by release
assembly (`assemble.py`) before the manifest, which hashes every file they write.

Every writer takes `(folder, tasks, notes)`: the release folder being filled (not yet visible to readers;
a writer that raises leaves no release behind), every task of the release (earlier splits' and the new
one's, in split order), and the `ExportNotes` that become the manifest's `export_notes`, where a format
names the tasks it could not carry over whole. A writer writes its own file(s) in the folder's top level
with `core.store.atomic_write_text`, and nothing else: two formats must not write one file, and the card,
the report, `diff.json` and the manifest are not formats.

The registry's order is the order they run in; only the notes depend on it (a format appends to lists
another filled), so a new format goes last.

To add one: a module in this folder with a writer function of that signature, and one line in `REGISTRY`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from core.records import Task
from core.registry import Registry
from pipeline.release.export import ExportNotes

ExportWriter = Callable[[Path, Sequence[Task], ExportNotes], None]

REGISTRY: Registry = Registry("export format", {
    "classeval": "pipeline.release.export:write_classeval",
})


def write_exports(folder: Path, tasks: Sequence[Task]) -> ExportNotes:
    """Every registered format written into `folder`, in the registry's order; returns their notes."""
    notes = ExportNotes()
    for name in REGISTRY:
        writer: ExportWriter = REGISTRY.load(name)
        writer(folder, tasks, notes)
    return notes


__all__ = ["REGISTRY", "ExportWriter", "write_exports"]
