"""Decontamination: how much of a task's skeleton and solution already appears in a public benchmark.

The maintainer supplies the benchmarks as ClassEval-format files (a JSON list of objects with `task_id`,
`skeleton`, `solution_code`, optional `import_statement`; or one such object per line in a `.jsonl` file).
Nothing is downloaded here.

The measure is token n-gram overlap, the usual contamination test for code and text benchmarks: the share of
a task's n-grams (over Python tokens, with string literals split into words so that copied docstrings
count) that occur in one benchmark entry. Skeleton and solution are scored separately against every entry;
a task's score is the highest of those shares, and it is rejected when the score reaches the threshold.
Comparing per entry, not against the union of a whole benchmark, keeps common idioms (`def __init__(self`)
from adding up across hundreds of entries into a false alarm.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core.errors import InputError
from core.records import Task
from pipeline.release.normalise import code_tokens

FIELDS = ("skeleton", "solution")


@dataclass(frozen=True)
class DecontamSettings:
    ngram_size: int = 10  # tokens per n-gram
    threshold: float = 0.5  # share of a field's n-grams found in one benchmark entry that rejects the task


@dataclass(frozen=True)
class BenchmarkEntry:
    source: str  # "<file name>:<task_id>"
    skeleton: str
    solution: str


@dataclass(frozen=True)
class FieldMatch:
    """The closest benchmark entry for one field of a task."""

    field: str
    overlap: float  # share of the field's n-grams found in the entry (0..1)
    shared: int  # number of shared n-grams
    total: int  # number of the field's n-grams
    entry: str | None  # "<file>:<task_id>" of the closest entry, None when nothing overlaps


@dataclass(frozen=True)
class ContaminationReport:
    task_id: str
    score: float  # max overlap over fields
    contaminated: bool
    matches: tuple[FieldMatch, ...]

    def to_json(self) -> dict:
        return {"task_id": self.task_id, "score": self.score, "contaminated": self.contaminated,
                "matches": [m.__dict__ for m in self.matches]}


def _text(value: object, where: str, name: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    raise InputError(f"{where}: field {name} must be a string")


def read_benchmark(path: Path) -> list[BenchmarkEntry]:
    """Read one ClassEval-format file; errors name the file, the entry and the field."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: benchmark file not found") from None
    try:
        if path.suffix == ".jsonl":
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a JSON list of ClassEval task objects")
    entries = []
    for i, item in enumerate(data):
        where = f"{path}[{i}]"
        if not isinstance(item, dict):
            raise InputError(f"{where}: expected an object")
        task_id = item.get("task_id")
        if not isinstance(task_id, str) or not task_id:
            raise InputError(f"{where}: missing field task_id")
        skeleton = _text(item.get("skeleton"), where, "skeleton")
        solution = "\n".join(filter(None, [_text(item.get("import_statement"), where, "import_statement"),
                                           _text(item.get("solution_code"), where, "solution_code")]))
        if not skeleton and not solution:
            raise InputError(f"{where} ({task_id}): neither skeleton nor solution_code is present")
        entries.append(BenchmarkEntry(f"{path.name}:{task_id}", skeleton, solution))
    return entries


def ngrams(text: str, n: int) -> set[tuple[str, ...]]:
    tokens = code_tokens(text, split_strings=True)
    if len(tokens) < n:
        return {tuple(tokens)} if tokens else set()
    return {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)}


class ContaminationIndex:
    """An inverted index n-gram -> benchmark entries, so each task is compared with every entry in one pass."""

    def __init__(self, entries: Sequence[BenchmarkEntry], settings: DecontamSettings) -> None:
        self.settings = settings
        self.entries = list(entries)
        self._postings: dict[tuple[str, ...], set[int]] = {}
        for i, entry in enumerate(self.entries):
            for gram in ngrams(entry.skeleton, settings.ngram_size) | ngrams(entry.solution, settings.ngram_size):
                self._postings.setdefault(gram, set()).add(i)

    def match(self, field_name: str, text: str) -> FieldMatch:
        grams = ngrams(text, self.settings.ngram_size)
        counts: Counter[int] = Counter()
        for gram in grams:
            counts.update(self._postings.get(gram, ()))
        if not grams or not counts:
            return FieldMatch(field_name, 0.0, 0, len(grams), None)
        best, shared = min(counts.items(), key=lambda kv: (-kv[1], self.entries[kv[0]].source))
        return FieldMatch(field_name, round(shared / len(grams), 4), shared, len(grams), self.entries[best].source)

    def report(self, task: Task) -> ContaminationReport:
        solution = "\n".join([*task.import_statement, task.solution_code])
        matches = (self.match("skeleton", task.skeleton), self.match("solution", solution))
        score = max(m.overlap for m in matches)
        return ContaminationReport(task.task_id, score, score >= self.settings.threshold, matches)


def decontaminate(
    tasks: Sequence[Task], benchmarks: Sequence[Path], settings: DecontamSettings = DecontamSettings()
) -> list[ContaminationReport]:
    """One report per task (in the given order); an empty list of benchmarks gives clean reports."""
    entries = [entry for path in benchmarks for entry in read_benchmark(Path(path))]
    index = ContaminationIndex(entries, settings)
    return [index.report(task) for task in tasks]
