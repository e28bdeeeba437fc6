"""The artifact tree: the source of truth of every run and release.

    artifacts/runs/<run_id>/<stage>/<record_id>.json     one record per file, written once
    artifacts/releases/<version>/                        a finished release, never overwritten

Every file is written atomically (a temporary file in the same folder, flushed, then renamed over the
target), so a crash mid-write leaves either the old state or the new one, never half a record. A rerun of
the same run id finds records already written and skips them: runs resume by content.

Once a build is asked to stop (core/stopping.py), every write below raises instead: a result computed
after the stop (a sandbox run cut short by the stop) must never become a record that the resumed build trusts.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from core import stopping
from core.errors import InputError
from core.records import Record

R = TypeVar("R", bound=Record)

_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _check_id(kind: str, value: str) -> str:
    # A record id with '/' or '..' would write outside its stage folder.
    if not _SAFE_ID.fullmatch(value):
        raise InputError(f"{kind} {value!r} is not a safe file name (letters, digits, '.', '_', '-')")
    return value


def _process_umask() -> int:
    """This process's umask, read without changing it where Linux shows it (os.umask can only be read by
    setting it, which races with threads creating files)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def _file_mode() -> int:
    """What `open()` would give a new file: mkstemp and mkdtemp make theirs owner-only (0600/0700), which
    would leave a release or a run unreadable to the others who share it."""
    return 0o666 & ~_process_umask()


def _folder_mode() -> int:
    return 0o777 & ~_process_umask()


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` so that readers see the old file or the whole new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        # Interrupted (including KeyboardInterrupt): remove the partial temporary file, keep the target intact.
        Path(tmp).unlink(missing_ok=True)
        raise


class ArtifactStore:
    """Reads and writes records under one artifact root."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    @property
    def runs(self) -> Path:
        return self.root / "runs"

    @property
    def releases(self) -> Path:
        return self.root / "releases"

    def stage_dir(self, run_id: str, stage: str) -> Path:
        return self.runs / _check_id("run id", run_id) / _check_id("stage", stage)

    def record_path(self, run_id: str, stage: str, record_id: str) -> Path:
        return self.stage_dir(run_id, stage) / f"{_check_id('record id', record_id)}.json"

    def not_for_reuse(self) -> None:
        """Say that the item being worked on ended for a passing reason (a sandbox run with no readable
        result) although it wrote nothing wrong: a store that keeps results across runs
        (pipeline/stages/reuse.py `RecordingStore`) then does not keep it. Nothing to do here."""

    def has(self, run_id: str, stage: str, record_id: str) -> bool:
        return self.record_path(run_id, stage, record_id).is_file()

    def write(self, run_id: str, stage: str, record_id: str, record: Record) -> bool:
        """Write a record once. Returns False (and writes nothing) when it is already there: a resumed run
        keeps what the interrupted one finished."""
        return self.write_text(run_id, stage, record_id, record.to_json() + "\n")

    def write_text(self, run_id: str, stage: str, record_id: str, text: str) -> bool:
        """Write a record's exact text once (`write`'s rule); the result store (core/results.py) replays a
        stored result's records through it, byte for byte."""
        path = self.record_path(run_id, stage, record_id)
        if path.is_file():
            return False
        stopping.check()
        atomic_write_text(path, text)
        return True

    def read(self, run_id: str, stage: str, record_id: str, kind: type[R]) -> R:
        path = self.record_path(run_id, stage, record_id)
        try:
            return kind.from_json(path.read_bytes())
        except FileNotFoundError:
            raise InputError(f"{path}: no such record") from None
        except ValueError as exc:
            raise InputError(f"{path}: not a valid {kind.__name__} record: {exc}") from None

    def iter_records(self, run_id: str, stage: str, kind: type[R]) -> Iterator[tuple[str, R]]:
        """All records of a stage, sorted by id, so that iteration order never depends on the file system."""
        folder = self.stage_dir(run_id, stage)
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.json")):
            yield path.stem, self.read(run_id, stage, path.stem, kind)

    def write_run_file(self, run_id: str, name: str, text: str) -> Path:
        """A run-level file (funnel, configuration); rewritten atomically on every call."""
        path = self.runs / _check_id("run id", run_id) / _check_id("file name", name)
        stopping.check()
        atomic_write_text(path, text)
        return path

    # Releases -------------------------------------------------------------------------------------------

    def release_dir(self, version: str) -> Path:
        return self.releases / _check_id("release version", version)

    def existing_releases(self) -> list[str]:
        if not self.releases.is_dir():
            return []
        return sorted(p.name for p in self.releases.iterdir() if p.is_dir() and not p.name.startswith("."))

    @contextmanager
    def new_release(self, version: str) -> Iterator[Path]:
        """Yield a temporary folder to fill; on success it is renamed to `releases/<version>`.

        Refuses an existing version (releases are immutable). If the body raises, the temporary folder is
        removed and no release appears. The rename is atomic, so a reader sees no release or a whole one.
        """
        final = self.release_dir(version)
        if final.exists():
            raise InputError(f"{final}: release {version} already exists; releases are never overwritten")
        self.releases.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{version}.", dir=self.releases))
        try:
            os.chmod(staging, _folder_mode())
            yield staging
            if final.exists():  # another build released the same version meanwhile
                raise InputError(f"{final}: release {version} appeared while building; not overwritten")
            stopping.check()
            os.rename(staging, final)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
