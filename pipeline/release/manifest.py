"""`manifest.json`: what a release holds, with hashes that let anyone check it was not altered.

Every file's sha256 (except the manifest itself), every task's sha256 (of its canonical JSON), the
pipeline version, the configuration, the seed corpus hash, the models and prompt versions used, and
counts. `verify_release` recomputes all of it.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from core.agreement import Agreement, agreement
from core.errors import InputError
from core.records import Task
from core.settings import PROJECT_ROOT
from pipeline.release.dataset_io import load_release
from pipeline.release.export import ExportNotes

MANIFEST = "manifest.json"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def task_digest(task: Task) -> str:
    """sha256 of the task's canonical JSON: changes with any field, identical on every machine."""
    return hashlib.sha256(task.canonical_json().encode("utf-8")).hexdigest()


def pipeline_version() -> str:
    """The installed package version, or the checkout's pyproject version when run from a clone."""
    try:
        return metadata.version("classeval-pro")
    except metadata.PackageNotFoundError:
        try:
            return tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"


def models_used(tasks: Sequence[Task]) -> dict[str, list[dict[str, Any]]]:
    """Distinct generator and judge specs (backend, model, prompt version; a judge's name and prompt too,
    since offline judges share backend and model) with how many tasks used each."""
    def tally(specs, fields: tuple[str, ...]) -> list[dict[str, Any]]:
        counts = Counter(tuple(getattr(s, f) for f in fields) for s in specs)
        return [{**dict(zip(fields, key)), "tasks": n} for key, n in
                sorted(counts.items(), key=lambda kv: tuple(str(x) for x in kv[0]))]

    return {"generators": tally((t.generator for t in tasks), ("backend", "model", "prompt_version")),
            "judges": tally((v.judge for t in tasks for v in t.verdicts),
                            ("backend", "model", "name", "prompt", "prompt_version"))}


def file_hashes(folder: Path) -> dict[str, dict[str, Any]]:
    return {p.relative_to(folder).as_posix(): {"sha256": sha256_file(p), "bytes": p.stat().st_size}
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != MANIFEST}


def build_manifest(folder: Path, *, version: str, splits: Mapping[str, Sequence[Task]], configuration: dict[str, Any],
                   seed_corpus_hash: str | None, counts: dict[str, Any], export_notes: ExportNotes,
                   previous_version: str | None, judging: Agreement | None = None,
                   model_usage: dict[str, Any] | None = None) -> dict[str, Any]:
    """The manifest of a filled release folder (call it last: it hashes the files already there).

    `judges` holds the agreement figures over this build's gate survivors (`judging`, when the judge stage
    ran) and over every released task carrying verdicts. `model_usage` (what the run's model calls spent)
    is added only when the run used models."""
    all_tasks = [t for tasks in splits.values() for t in tasks]
    manifest = {
        "version": version,
        "previous_version": previous_version,
        "pipeline_version": pipeline_version(),
        "configuration": configuration,
        "seed_corpus_hash": seed_corpus_hash,
        "models": models_used(all_tasks),
        "judges": {"build": judging.model_dump(mode="json") if judging is not None else None,
                   "released_tasks": agreement([t.verdicts for t in all_tasks if t.verdicts]).model_dump(mode="json")},
        "counts": {**counts, "tasks": len(all_tasks), "splits": {name: len(ts) for name, ts in splits.items()}},
        "export_notes": export_notes.as_json(),
        "files": file_hashes(folder),
        "tasks": {t.task_id: {"sha256": task_digest(t), "split": name}
                  for name, tasks in splits.items() for t in tasks},
    }
    if model_usage:
        manifest["model_usage"] = model_usage
    return manifest


def manifest_text(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def verify_release(path: Path | str) -> list[str]:
    """Problems found in a release folder (empty when every file and task hash matches its manifest)."""
    folder = Path(path)
    manifest_path = folder / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [f"{manifest_path}: missing"]
    except json.JSONDecodeError as exc:
        return [f"{manifest_path}: not valid JSON: line {exc.lineno}: {exc.msg}"]
    problems: list[str] = []
    listed: dict[str, dict[str, Any]] = manifest.get("files", {})
    actual = file_hashes(folder)
    for name, entry in sorted(listed.items()):
        if name not in actual:
            problems.append(f"{folder / name}: listed in the manifest but missing")
        elif actual[name]["sha256"] != entry.get("sha256"):
            problems.append(f"{folder / name}: sha256 {actual[name]['sha256'][:12]}... does not match the manifest")
    problems += [f"{folder / name}: not listed in the manifest" for name in sorted(set(actual) - set(listed))]
    try:
        tasks = load_release(folder)
    except (InputError, ValueError, OSError) as exc:  # a damaged split must be reported, not crash the check
        return problems + [f"{folder}: data could not be loaded: {exc}"]
    expected: dict[str, dict[str, Any]] = manifest.get("tasks", {})
    seen = {t.task_id: task_digest(t) for t in tasks}
    for task_id, digest in sorted(seen.items()):
        if task_id not in expected:
            problems.append(f"{folder}: task {task_id} is not listed in the manifest")
        elif expected[task_id].get("sha256") != digest:
            problems.append(f"{folder}: task {task_id} does not match its manifest hash")
    problems += [f"{folder}: task {tid} is listed in the manifest but not in the data" for tid in sorted(set(expected) - set(seen))]
    if len(tasks) != len(seen):
        problems.append(f"{folder}: {len(tasks) - len(seen)} task id(s) appear more than once in the data")
    return problems
