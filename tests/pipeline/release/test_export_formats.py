"""The export-format registry (pipeline/release/formats.py): release assembly runs every registered writer
into the release folder before the manifest, so a format added by one registration line is released and
hashed with the rest."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import date
from pathlib import Path

import pytest
from release_fixtures import build_task

from core.funnel import Funnel, StageCount
from core.records import Task
from core.store import ArtifactStore, atomic_write_text
from pipeline.release.assemble import ReleaseConfig, release
from pipeline.release.export import ExportNotes, classeval_json
from pipeline.release.formats import REGISTRY, write_exports
from pipeline.release.manifest import verify_release

CONFIG = ReleaseConfig(release_date=date(2026, 11, 5), seed_corpus_hash="abc123")
FUNNEL = Funnel(run_id="run-1", stages={"validate": StageCount(received=1, accepted=1)})
TOY = "tests.pipeline.release.test_export_formats:write_task_ids"


def write_task_ids(folder: Path, tasks: Sequence[Task], notes: ExportNotes) -> None:
    """A toy format: one line per task, its id and class."""
    atomic_write_text(folder / "task_ids.txt", "".join(f"{t.task_id}\t{t.class_name}\n" for t in tasks))


@pytest.fixture(autouse=True)
def _offline(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def test_the_classeval_export_is_the_only_default_format_and_writes_what_it_wrote_before(tmp_path):
    assert list(REGISTRY) == ["classeval"]
    task = build_task(verdicts=(), candidate_id="cand-counter")
    notes = write_exports(tmp_path, [task])
    text, expected = classeval_json([task])
    assert (tmp_path / "classeval.json").read_text(encoding="utf-8") == text
    assert notes.as_json() == expected.as_json()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classeval.json"]


def test_a_registered_format_is_written_into_the_release_and_hashed_by_its_manifest(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    task = build_task(verdicts=(), candidate_id="cand-counter")
    with REGISTRY.registered("task_ids", TOY):
        result = release(store, "run-1", [task], FUNNEL, CONFIG)
    folder = result.path
    written = (folder / "task_ids.txt").read_bytes()
    assert written.decode("utf-8") == f"{task.task_id}\tCounter\n"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["files"]["task_ids.txt"]["sha256"] == hashlib.sha256(written).hexdigest()
    assert "classeval.json" in manifest["files"] and verify_release(folder) == []
    assert "task_ids" not in REGISTRY
