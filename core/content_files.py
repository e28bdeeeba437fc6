"""Files addressed by content: one file per key under `<directory>/<key[:2]>/<key>.json`.

The one way the project keeps things it can recompute (model answers, judges' verdicts, stages' results
for an item): a key is a digest of everything the thing depends on, so a file found under a key is the
answer to the same question, whichever run, process or machine wrote it. Writes are atomic
(`atomic_write_text`: a temporary file renamed into place), so two builds sharing a folder never see half
a file, and two writers of one key write the same content. A file's modification time is its last use: a
read that hits touches it, so `stale` can list what no recent run used.

What a file holds is checked by its reader (the key it says it was written under, a digest of its
payload); a file that fails the check is a miss, never an error.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from core.store import atomic_write_text

SUFFIX = ".json"


class ContentFiles:
    """The files of one folder, by key."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}{SUFFIX}"

    def read(self, key: str) -> bytes | None:
        """The file's bytes (its use recorded), or None when there is none."""
        path = self.path(key)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            os.utime(path)
        except OSError:  # pruned meanwhile by another process, or a read-only store: the read still counts
            pass
        return data

    def write(self, key: str, text: str) -> None:
        atomic_write_text(self.path(key), text)

    def files(self) -> Iterator[Path]:
        """Every stored file (never the temporary files of writes under way)."""
        if self.directory.is_dir():
            yield from (p for p in self.directory.glob(f"??/*{SUFFIX}") if not p.name.startswith("."))

    def size(self) -> tuple[int, int]:
        """(files, bytes)."""
        count = total = 0
        for path in self.files():
            try:
                total += path.stat().st_size
            except FileNotFoundError:
                continue
            count += 1
        return count, total

    def stale(self, used_before: float) -> list[Path]:
        """The files last written or read before `used_before` (seconds since the epoch)."""
        out = []
        for path in self.files():
            try:
                if path.stat().st_mtime < used_before:
                    out.append(path)
            except FileNotFoundError:
                continue
        return out
