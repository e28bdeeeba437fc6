"""Completions made elsewhere (`eval --samples FILE`), scored like the harness's own.

The file follows the convention of EvalPlus and BigCodeBench: JSON Lines, one completion per line, with
`task_id` and either `solution` (code) or `completion` (a model's raw answer, fences and prose included);
several lines of one task are its samples, so Pass@k needs no more than k lines per task. A raw answer is
cut by the same answer contract as the harness's holistic strategy (`extract_python`), and code given
without a fence is taken whole once it parses and defines the class. Either way the task's import lines go
first, as for every completion, and the result runs in the same sandbox.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from core.errors import InputError
from pipeline.evaluation.assemble import add_imports
from pipeline.evaluation.strategies import Attempt, holistic
from pipeline.evaluation.tasks import EvalTask

TEXT_FIELDS = ("solution", "completion")
SAMPLES_PROMPT = "samples-file"  # what a sample's record names as its prompt: none was sent by this harness


def read_samples(path: Path, known: set[str]) -> dict[str, list[str]]:
    """Task id -> its samples' texts, in file order. InputError naming the file and line for a line that is
    not a JSON object, lacks `task_id` or a text field, or names a task that `known` does not hold."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the samples file: {exc}") from None
    samples: dict[str, list[str]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            entry = json.loads(line)
        except ValueError as exc:
            raise InputError(f"{where}: not valid JSON ({exc})") from None
        if not isinstance(entry, dict):
            raise InputError(f"{where}: expected a JSON object with task_id and solution or completion")
        task_id = entry.get("task_id")
        if not isinstance(task_id, str) or not task_id:
            raise InputError(f"{where}: missing field task_id (a string)")
        texts = [entry[name] for name in TEXT_FIELDS if isinstance(entry.get(name), str)]
        if not texts:
            raise InputError(f"{where} ({task_id}): missing field solution or completion (a string)")
        if task_id not in known:
            raise InputError(f"{where}: unknown task_id {task_id!r}: the evaluated release has no such task")
        samples.setdefault(task_id, []).append(texts[0])
    if not samples:
        raise InputError(f"{path}: no sample in the file")
    return samples


def sample_attempt(task: EvalTask, text: str, index: int) -> Attempt:
    """A sample's text as an attempt: cut like a holistic answer, or taken whole when it is bare code."""
    attempt = holistic(task, lambda _name, _values: (text, SAMPLES_PROMPT, False, None), index)
    if attempt.completion is None and _bare_class(text, task.class_name):
        attempt.completion = add_imports(text.strip() + "\n", list(task.imports))
        attempt.bad_answers.clear()
        attempt.syntax_error = False
    attempt.cost_usd = None  # made elsewhere: its cost is not known here
    return attempt


def _bare_class(text: str, class_name: str) -> bool:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return any(isinstance(node, ast.ClassDef) and node.name == class_name for node in tree.body)

