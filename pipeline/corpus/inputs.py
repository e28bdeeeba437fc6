"""Turning what `classeval-pro validate PATH` is given into candidates to validate.

PATH may be a seed folder, a domain folder, the seeds root, a ClassEval-format JSON file, a folder of
Candidate JSON records (artifacts/runs/<run>/<stage>/), or a release folder (its `classeval.json`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from core.analysis.python_need import requires_python
from core.analysis.skeleton import make_skeleton
from core.errors import InputError
from core.records import Candidate, GeneratorSpec, Origin, SeedClass
from pipeline.corpus.classeval import read_classeval_file
from pipeline.corpus.seeds import SeedProblem, load_seed

RELEASE_EXPORT = "classeval.json"


@dataclass(frozen=True)
class NamedCandidate:
    """A candidate and the id it is shown under (seed id, ClassEval task id or candidate id)."""

    task_id: str
    candidate: Candidate


def seed_to_candidate(seed: SeedClass) -> Candidate:
    """A seed as a candidate: module = seed name, solution = seed source, tests = seed tests."""
    try:
        skeleton = make_skeleton(seed.source, seed.class_name)
    except Exception:  # noqa: BLE001 - the gate reports the unparsable source itself
        skeleton = ""
    return Candidate(
        candidate_id=Candidate.make_id(seed.class_name, seed.source, seed.tests),
        class_name=seed.class_name,
        module_name=seed.name,
        domains=(seed.domain,),
        description=seed.description,
        skeleton=skeleton,
        solution_code=seed.source,
        test_code=seed.tests,
        origin=Origin.SEED,
        provenance=seed.provenance,
        generator=GeneratorSpec(backend="seed"),
        requires_python=requires_python(seed.source, seed.tests),
    )


def _looks_like_seed(folder: Path) -> bool:
    """A seed folder, or one meant to be: a folder with Python modules but no seed.toml is loaded all the
    same, so that the loader names what is missing instead of the folder being skipped in silence."""
    return (folder / "seed.toml").is_file() or any(folder.glob("*.py"))


def _subfolders(path: Path) -> list[Path]:
    return sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def _seed_folders(path: Path) -> list[Path]:
    if _looks_like_seed(path):
        return [path]
    found = []
    for child in _subfolders(path):
        if _looks_like_seed(child):
            found.append(child)
        else:
            found.extend(g for g in _subfolders(child) if _looks_like_seed(g))
    return found


def load_candidates(path: Path) -> tuple[list[NamedCandidate], list[str]]:
    """Candidates found at `path`, and one line per input that could not be read (naming its file)."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    if path.is_file():
        if path.suffix != ".json":
            raise InputError(f"{path}: expected a .json file (ClassEval format or a Candidate record) or a folder")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: not valid JSON: line {exc.lineno}: {exc.msg}") from None
        if isinstance(data, dict) and "candidate_id" in data:
            return [_candidate_record(path)], []
        seeds = read_classeval_file(path)
        return [NamedCandidate(s.seed_id.split("/", 1)[1], seed_to_candidate(s)) for s in seeds], []
    if (path / RELEASE_EXPORT).is_file():
        return load_candidates(path / RELEASE_EXPORT)
    folders = _seed_folders(path)
    if folders:
        named, problems = [], []
        for folder in folders:
            result = load_seed(folder, folder.parent.name)
            if isinstance(result, SeedProblem):
                problems.append(str(result))
            else:
                named.append(NamedCandidate(result.seed_id, seed_to_candidate(result)))
        return named, problems
    records = sorted(path.glob("*.json"))
    if not records:
        raise InputError(f"{path}: no seeds, no {RELEASE_EXPORT} and no Candidate JSON records found")
    named, problems = [], []
    for record in records:
        try:
            named.append(_candidate_record(record))
        except InputError as exc:
            problems.append(str(exc))
    return named, problems


def _candidate_record(path: Path) -> NamedCandidate:
    try:
        candidate = Candidate.from_json(path.read_bytes())
    except ValueError as exc:
        first = str(exc).splitlines()
        raise InputError(f"{path}: not a Candidate record: {' '.join(first[:3])}") from None
    return NamedCandidate(candidate.candidate_id, candidate)
