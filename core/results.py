"""Stages' results for an item, addressed by content and shared across runs: a rebuild costs what changed.

A stage's work for one item (gate a candidate, enhance a seed, repair a candidate, judge a survivor) is a
function of what it reads: the item's records, the stage's settings, the sandbox's interpreter and the
project's code. The driver (pipeline/stages/reuse.py) hashes all of that into a key and keeps here, under
it, the records the work wrote, as the exact text written. A later run (of any run id) that meets the key
writes the same text into its own folder instead of doing the work again, so its records are byte for byte
those of a run that computed everything.

Layout (one `ContentFiles` folder per stage, beside a usage file per run):

    <root>/<stage>/<key[:2]>/<key>.json      a StoredResult
    <root>/usage/<run id>.json               a RunUsage: hits and misses per stage of one run

An entry carries its key and a digest of its records; an entry whose JSON does not parse, whose key is
another's or whose digest does not match (truncated, hand-edited, half-copied) is logged and counted as a
miss: it is recomputed and written again, never trusted. Entries are written atomically, so two builds
sharing the store at once each see whole entries; two writers of one key write the same records.

`classeval-pro cache` shows the store's size and hit rates per stage, and prunes entries no recent run
used (an entry's modification time is its last use; `prune` keeps what was used since the start of the
oldest of the last runs that recorded their usage).
"""

from __future__ import annotations

import json
import logging
import shutil
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.content_files import ContentFiles
from core.records import content_hash
from core.store import atomic_write_text

log = logging.getLogger(__name__)

USAGE = "usage"
REUSE_FILE = "reuse.json"  # in a run's folder: its hits, misses and kept results per stage (not a record)


class StoredRecord(BaseModel):
    """One record an item's work wrote: where (folder under the run, record id) and its exact text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    folder: str
    record_id: str
    text: str


class StoredResult(BaseModel):
    """What is kept for one item: the key it answers, the records its work wrote, and their digest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    stage: str
    records: tuple[StoredRecord, ...]
    digest: str = Field(description="content_hash of the records: a damaged entry does not match it.")

    @classmethod
    def of(cls, stage: str, key: str, records: tuple[StoredRecord, ...]) -> StoredResult:
        return cls(key=key, stage=stage, records=records, digest=records_digest(records))


def records_digest(records: tuple[StoredRecord, ...]) -> str:
    return content_hash([[r.folder, r.record_id, r.text] for r in records], length=32)


class StageUsage(BaseModel):
    """One stage's lookups in one run."""

    model_config = ConfigDict(extra="forbid")

    hits: int = 0
    misses: int = 0
    stored: int = 0


class RunUsage(BaseModel):
    """One run's lookups, per stage, and when the run first used the store (seconds since the epoch)."""

    model_config = ConfigDict(extra="forbid")

    run_id: str
    started: float
    stages: dict[str, StageUsage] = Field(default_factory=dict)


class ResultStore:
    """The content-addressed results under one root (the artifact tree's `cache/results` by default)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def _files(self, stage: str) -> ContentFiles:
        return ContentFiles(self.root / stage)

    def get(self, stage: str, key: str) -> StoredResult | None:
        """The entry under `key`, or None: absent, or damaged (logged; the work is done again)."""
        files = self._files(stage)
        data = files.read(key)
        if data is None:
            return None
        try:
            entry = StoredResult.model_validate_json(data)
        except (ValueError, ValidationError) as exc:
            log.warning("result store entry %s is unreadable, computing it again: %s", files.path(key), exc)
            return None
        if entry.key != key or entry.stage != stage or entry.digest != records_digest(entry.records):
            log.warning("result store entry %s does not match its key or digest, computing it again", files.path(key))
            return None
        return entry

    def has(self, stage: str, key: str) -> bool:
        return self._files(stage).path(key).is_file()

    def put(self, entry: StoredResult) -> None:
        self._files(entry.stage).write(entry.key, entry.model_dump_json() + "\n")

    def stages(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if p.is_dir() and p.name != USAGE and not p.name.startswith("."))

    def size(self, stage: str) -> tuple[int, int]:
        """(entries, bytes) of one stage."""
        return self._files(stage).size()

    # Usage ------------------------------------------------------------------------------------------------

    def _usage_path(self, run_id: str) -> Path:
        return self.root / USAGE / f"{run_id}.json"

    def usage(self, run_id: str) -> RunUsage:
        path = self._usage_path(run_id)
        try:
            return RunUsage.model_validate_json(path.read_bytes())
        except (OSError, ValueError, ValidationError):
            return RunUsage(run_id=run_id, started=time.time())

    def begin(self, run_id: str) -> None:
        """Note when a run first used the store (before it reads anything: `prune` keeps what it used)."""
        if not self._usage_path(run_id).is_file():
            atomic_write_text(self._usage_path(run_id), self.usage(run_id).model_dump_json(indent=1) + "\n")

    def record_usage(self, run_id: str, stage: str, *, hits: int, misses: int, stored: int) -> RunUsage:
        """Add one stage's lookups to the run's usage (a resumed run adds to what it recorded before)."""
        usage = self.usage(run_id)
        before = usage.stages.get(stage, StageUsage())
        usage.stages[stage] = StageUsage(hits=before.hits + hits, misses=before.misses + misses,
                                         stored=before.stored + stored)
        atomic_write_text(self._usage_path(run_id), usage.model_dump_json(indent=1) + "\n")
        return usage

    def runs(self) -> list[RunUsage]:
        """Every run's usage, oldest first."""
        folder = self.root / USAGE
        out = []
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                out.append(RunUsage.model_validate_json(path.read_bytes()))
            except (OSError, ValueError, ValidationError):
                log.warning("result store usage file %s is unreadable; left out", path)
        return sorted(out, key=lambda u: u.started)

    def prune(self, keep_runs: int) -> tuple[int, int]:
        """Remove the entries that none of the last `keep_runs` runs used (nor anything since the oldest of
        them started), and the usage files of older runs. Returns (entries removed, bytes freed)."""
        runs = self.runs()
        if len(runs) <= keep_runs:
            return 0, 0
        kept = runs[-keep_runs:] if keep_runs > 0 else []
        cutoff = kept[0].started if kept else time.time()
        removed = freed = 0
        for stage in self.stages():
            for path in self._files(stage).stale(cutoff):
                try:
                    size = path.stat().st_size
                    path.unlink()
                except FileNotFoundError:
                    continue
                removed, freed = removed + 1, freed + size
        for old in runs[:len(runs) - len(kept)]:
            self._usage_path(old.run_id).unlink(missing_ok=True)
        return removed, freed

    def clear(self) -> None:
        """Remove every entry and usage file."""
        shutil.rmtree(self.root, ignore_errors=True)


def usage_table(usage: RunUsage) -> dict[str, dict[str, int]]:
    """A run's usage as plain data (the run's `reuse.json`, the report)."""
    return {stage: json.loads(counts.model_dump_json()) for stage, counts in usage.stages.items()}


def run_reuse(run_dir: Path) -> dict[str, dict[str, int]]:
    """A run's hits, misses and kept results per stage, as its `reuse.json` recorded them ({} without)."""
    try:
        return json.loads((run_dir / REUSE_FILE).read_text())["stages"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def reuse_sentence(run_dir: Path) -> str:
    """'enhance 60 of 62, validate 250 of 266' (results reused of those looked up), or '' without any."""
    return ", ".join(f"{stage} {n['hits']} of {n['hits'] + n['misses']}" for stage, n in run_reuse(run_dir).items())
