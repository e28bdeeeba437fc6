"""The artifact store writes atomically, resumes, and never overwrites a release."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.errors import InputError
from core.records import Rejection, RejectReason
from core.store import ArtifactStore, atomic_write_text


def _rejection(detail: str = "too similar") -> Rejection:
    return Rejection(candidate_id="cand-1", stage="release", reason=RejectReason.DUPLICATE, detail=detail)


def test_records_are_written_once_and_a_rerun_skips_them(tmp_path: Path):
    store = ArtifactStore(tmp_path)
    assert store.write("run-1", "release", "cand-1", _rejection()) is True
    path = store.record_path("run-1", "release", "cand-1")
    assert path == tmp_path / "runs" / "run-1" / "release" / "cand-1.json"
    assert store.write("run-1", "release", "cand-1", _rejection("something else")) is False
    assert store.read("run-1", "release", "cand-1", Rejection).detail == "too similar"
    assert [rid for rid, _ in store.iter_records("run-1", "release", Rejection)] == ["cand-1"]


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch):
    target = tmp_path / "record.json"
    target.write_text("old")

    def crash(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record.json"]


@pytest.mark.parametrize("bad", ["../escape", "a/b", "", ".hidden"])
def test_ids_that_would_leave_their_folder_are_refused(tmp_path: Path, bad: str):
    with pytest.raises(InputError):
        ArtifactStore(tmp_path).write("run-1", "stage", bad, _rejection())


def test_a_corrupt_record_is_an_error_naming_its_file(tmp_path: Path):
    store = ArtifactStore(tmp_path)
    path = store.record_path("run-1", "release", "cand-1")
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    with pytest.raises(InputError, match="cand-1.json"):
        store.read("run-1", "release", "cand-1", Rejection)


def test_a_release_appears_whole_and_is_never_overwritten(tmp_path: Path):
    store = ArtifactStore(tmp_path)
    with store.new_release("2026.11.0") as staging:
        (staging / "data.txt").write_text("v1")
        assert not store.release_dir("2026.11.0").exists()
    assert (store.release_dir("2026.11.0") / "data.txt").read_text() == "v1"
    with pytest.raises(InputError, match="never overwritten"):
        with store.new_release("2026.11.0"):
            pass
    assert store.existing_releases() == ["2026.11.0"]


def test_a_release_that_fails_midway_leaves_nothing(tmp_path: Path):
    store = ArtifactStore(tmp_path)
    with pytest.raises(RuntimeError):
        with store.new_release("2026.11.1") as staging:
            (staging / "part.txt").write_text("half")
            raise RuntimeError("disk full")
    assert store.existing_releases() == []
    assert list(store.releases.iterdir()) == []


@pytest.mark.parametrize("umask", [0o022, 0o027])
def test_written_files_and_releases_get_the_umask_permissions(tmp_path: Path, umask: int):
    """Temporary files and folders are created owner-only; what the store leaves behind must not be."""
    old = os.umask(umask)
    try:
        store = ArtifactStore(tmp_path)
        store.write_run_file("run-1", "funnel.json", "{}\n")
        with store.new_release("2026.11.0") as staging:
            atomic_write_text(staging / "manifest.json", "{}\n")
    finally:
        os.umask(old)
    assert (tmp_path / "runs" / "run-1" / "funnel.json").stat().st_mode & 0o777 == 0o666 & ~umask
    release = store.release_dir("2026.11.0")
    assert release.stat().st_mode & 0o777 == 0o777 & ~umask
    assert (release / "manifest.json").stat().st_mode & 0o777 == 0o666 & ~umask
