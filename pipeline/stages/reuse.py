"""The driver's reuse of results across runs: an item whose inputs an earlier run (of any run id) already
worked on is not worked on again; the records that work wrote are written again, byte for byte.

A stage opts in by saying what its work for an item reads (`result_inputs`: the candidate's or seed's
records, the stage's settings), which code that work runs (`result_code`: folders of the project) and a
version (`result_version`, raised when the stage's output for the same inputs changes in a way its code's
digest cannot see, e.g. a changed rule read from a data file). The key is the digest of all that, of the
sandbox interpreter (its version, and the pytest and coverage it runs with) and of the stage's name, so a
changed candidate, setting, interpreter or code misses. Stages that read what a run cannot name (a
repository's history, a model's answer, the releases so far) give no inputs and are always worked on; the
model answers and judges' verdicts have caches of their own (models/cache.py, judges/cache.py), on the
same content files (core/content_files.py).

How a result is captured: the item's work runs on a `RecordingStore`, which writes through to the run and
keeps the exact text of every record the item wrote. Failure modes it guards against:

- an item resumed after a stop finds records an earlier attempt wrote and does not write them again; its
  capture would be partial, so an item that found any of its own records is not kept (`resumed`);
- an item whose last attempt wrote an `internal_error` (the pipeline, not the record, failed) is not kept:
  the next run tries it again;
- a stop requested while the item ran: the store's writes raise, nothing is kept.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from core import stopping
from core.content_files import ContentFiles
from core.records import RejectReason, content_hash
from core.results import REUSE_FILE, ResultStore, StoredRecord, StoredResult, usage_table
from core.settings import PROJECT_ROOT
from core.store import ArtifactStore
from core.timing import timed
from pipeline.release.normalise import normal_forms

KEY_LENGTH = 32
log = logging.getLogger(__name__)


class RecordingStore(ArtifactStore):
    """The run's store, writing through, that keeps what one item's work wrote to the run (`records`) and
    notices when the work met records of its own that an earlier attempt wrote (`resumed`)."""

    def __init__(self, inner: ArtifactStore, run_id: str, writes: frozenset[str]) -> None:
        super().__init__(inner.root)
        self.run_id, self.writes = run_id, writes
        self.records: list[StoredRecord] = []
        self._written: set[tuple[str, str]] = set()
        self.resumed = False

    def not_for_reuse(self) -> None:
        self.resumed = True  # kept no more than a capture that may be partial

    def _own(self, run_id: str, folder: str, record_id: str) -> bool:
        return run_id == self.run_id and folder in self.writes and (folder, record_id) not in self._written

    def has(self, run_id: str, stage: str, record_id: str) -> bool:
        found = super().has(run_id, stage, record_id)
        if found and self._own(run_id, stage, record_id):
            self.resumed = True
        return found

    def write_text(self, run_id: str, stage: str, record_id: str, text: str) -> bool:
        wrote = super().write_text(run_id, stage, record_id, text)
        if run_id == self.run_id:
            if wrote:
                self.records.append(StoredRecord(folder=stage, record_id=record_id, text=text))
                self._written.add((stage, record_id))
            elif (stage, record_id) not in self._written:
                self.resumed = True
        return wrote


def failed_in_pipeline(records: Sequence[StoredRecord]) -> bool:
    """Whether any record says the pipeline, not the record, failed (a report's or rejection's
    `internal_error`): such a result is tried again by the next run, never reused."""
    for record in records:
        try:
            data = json.loads(record.text)
        except ValueError:
            return True
        if not isinstance(data, dict):
            continue
        if data.get("reason") == RejectReason.INTERNAL_ERROR.value or \
                RejectReason.INTERNAL_ERROR.value in (data.get("reasons") or ()):
            return True
    return False


@lru_cache(maxsize=32)
def code_digest(folders: tuple[str, ...]) -> str:
    """Digest of the project's Python and TOML files under `folders` (relative to the checkout), read once
    per process: the code an item's work runs, so that changed code misses."""
    digest = hashlib.sha256()
    for folder in sorted(folders):
        root = PROJECT_ROOT / folder
        for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".toml") and p.is_file()
                           and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(PROJECT_ROOT)).encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:KEY_LENGTH]


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return ""


def interpreter_identity(ctx: Any) -> list:
    """What of the sandbox's interpreter a result depends on: its implementation and version, and the
    pytest and coverage it runs tests with (its own when it has both, else this environment's)."""
    interpreter = ctx.config.sandbox_interpreter()
    record = interpreter.record()
    return [record.get("implementation"), record.get("version"), interpreter.site_packages or "",
            _version("pytest"), _version("coverage")]


def result_store(config: Any, settings: Any, *, enabled_only: bool = True) -> ResultStore | None:
    """The result store of a configuration (`[cache] path`, default the artifact tree's `cache/results`),
    or None when `[cache] enabled = false` (unless `enabled_only` is off: the `cache` command)."""
    cache = config.cache
    return ResultStore(cache.path or settings.results_cache) if cache.enabled or not enabled_only else None


NORMAL_FORMS = "normal_forms"  # a folder of the result store beside the stages'


def kept_normal_forms(config: Any, settings: Any) -> Callable[[str], tuple[str, str]]:
    """`normal_forms` (pipeline/release/normalise.py) kept in the result store by source, Python version and
    that code: deduplication normalises every task released so far and every new one, which was most of a
    rebuild's release stage. Without a store, the function itself. A file that does not parse, names
    another key or whose digest does not match is computed again, never trusted."""
    results = result_store(config, settings)
    return normal_forms_in(results.root if results is not None else None)


def results_root(ctx: Any) -> Path | None:
    """The root of the run's result store, or None when it is off."""
    results = result_store(ctx.config, ctx.settings)
    return results.root if results is not None else None


def normal_forms_in(root: Path | None) -> Callable[[str], tuple[str, str]]:
    """`normal_forms` kept under the result store at `root` (see `kept_normal_forms`); None: computed."""
    if root is None:
        return normal_forms
    files = ContentFiles(root / NORMAL_FORMS)
    environment = content_hash(code_digest(("pipeline/release",)), list(sys.version_info[:3]), length=KEY_LENGTH)

    def forms(source: str) -> tuple[str, str]:
        key = content_hash(environment, source, length=KEY_LENGTH)
        try:
            stored = json.loads(files.read(key) or b"null")
            if stored and stored["key"] == key and stored["digest"] == content_hash(stored["forms"], length=KEY_LENGTH):
                return tuple(stored["forms"])  # type: ignore[return-value]
        except (ValueError, KeyError, TypeError):
            log.warning("kept normal form %s is unreadable, computing it again", files.path(key))
        computed = normal_forms(source)
        files.write(key, json.dumps({"key": key, "forms": list(computed),
                                     "digest": content_hash(list(computed), length=KEY_LENGTH)}) + "\n")
        return computed

    return forms


def result_writes(stage: Any) -> frozenset[str]:
    return frozenset(str(folder) for folder in getattr(stage, "result_writes", ()))


class ReusedResults:
    """What a stage whose results are kept declares, beside `result_inputs(ctx, item)` (the JSON-able
    inputs of one item's work, or None for an item that must be worked on)."""

    result_version: int = 1  # raise when the output for the same inputs and code changes
    result_code: tuple[str, ...] = ("core", "validation", "pipeline")  # folders of the code the work runs
    result_writes: tuple[str, ...] = ()  # folders of the run the work writes
    keeps_empty_results: bool = False  # whether work that wrote nothing is a result (else it is done again)


@dataclass
class RecordingStage:
    """A stage as the executor sees it while its results are kept: each item with a key runs on a
    `RecordingStore` and, when its capture is whole, leaves its result in the store. Everything else is the
    stage's own."""

    inner: Any
    keys: dict[str, str]
    root: Path
    writes: frozenset[str]

    @property
    def stage(self) -> Any:  # the Prefect task's name reads it
        return self.inner.stage

    def needs_pool(self, ctx: Any) -> bool:
        return self.inner.needs_pool(ctx)

    def open(self, ctx: Any, pool: Any) -> Any:
        return self.inner.open(ctx, pool)

    def run_one(self, ctx: Any, item: str, kit: Any, *, last_attempt: bool) -> Any:
        key = self.keys.get(item)
        if key is None:
            return self.inner.run_one(ctx, item, kit, last_attempt=last_attempt)
        recording = RecordingStore(ctx.store, ctx.run_id, self.writes)
        note = self.inner.run_one(ctx.on_store(recording), item, kit, last_attempt=last_attempt)
        wrote = recording.records or getattr(self.inner, "keeps_empty_results", False)
        if wrote and not recording.resumed and not failed_in_pipeline(recording.records):
            stopping.check()  # a result reached after a stop may rest on a killed sandbox run
            with timed("reuse", "keep results"):
                ResultStore(self.root).put(StoredResult.of(str(self.inner.stage), key, tuple(recording.records)))
        return note


@dataclass
class Reuse:
    """One stage's lookups in one run: keys, hits replayed, misses handed to the executor."""

    stage: Any
    ctx: Any
    results: ResultStore
    environment: str
    keys: dict[str, str] = field(default_factory=dict)
    hits: int = 0

    @classmethod
    def open(cls, stage: Any, ctx: Any) -> Reuse | None:
        """The stage's reuse in this run, or None: the store is off, or the stage keeps no results."""
        if getattr(stage, "result_inputs", None) is None or (results := result_store(ctx.config, ctx.settings)) is None:
            return None
        results.begin(ctx.run_id)
        environment = content_hash(str(stage.stage), stage.result_version, code_digest(tuple(stage.result_code)),
                                   interpreter_identity(ctx), length=KEY_LENGTH)
        return cls(stage, ctx, results, environment)

    def key(self, item: str) -> str | None:
        inputs = self.stage.result_inputs(self.ctx, item)
        return None if inputs is None else content_hash(self.environment, inputs, length=KEY_LENGTH)

    def replay(self, items: Sequence[str]) -> list[str]:
        """Write the stored records of every item whose key is in the store; the others, to be worked on."""
        todo = []
        with timed("reuse", "keys, lookups and replays"):
            for item in items:
                key = self.key(item)
                entry = self.results.get(str(self.stage.stage), key) if key is not None else None
                if entry is None:
                    if key is not None:
                        self.keys[item] = key
                    todo.append(item)
                    continue
                for record in entry.records:
                    self.ctx.store.write_text(self.ctx.run_id, record.folder, record.record_id, record.text)
                self.hits += 1
        return todo

    def recording(self, items: Sequence[str]) -> RecordingStage:
        return RecordingStage(self.stage, {i: self.keys[i] for i in items if i in self.keys}, self.results.root,
                              result_writes(self.stage))

    def record(self) -> None:
        """Add this stage's hits, misses and kept results to the run's usage in the store."""
        if not self.hits and not self.keys:
            return
        name = str(self.stage.stage)
        stored = sum(1 for key in self.keys.values() if self.results.has(name, key))
        usage = self.results.record_usage(self.ctx.run_id, name, hits=self.hits, misses=len(self.keys), stored=stored)
        self.ctx.store.write_run_file(self.ctx.run_id, REUSE_FILE, json.dumps(
            {"results": str(self.results.root), "stages": usage_table(usage)}, indent=2) + "\n")


def on_store(ctx: Any, store: ArtifactStore) -> Any:
    """`ctx` on another store, keeping what it already read (the run's seeds and registry)."""
    other = replace(ctx, store=store)
    for name in ("seeds", "registry"):
        if name in ctx.__dict__:
            other.__dict__[name] = ctx.__dict__[name]
    return other
