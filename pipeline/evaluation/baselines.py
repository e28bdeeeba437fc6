"""Baselines that need no model, so that a user can check a release and the harness itself:

- `reference`: the task's reference solution. Must score 100%: anything less means a broken task or a
  broken harness (and `eval` says so).
- `skeleton`: the skeleton the solver sees (bodies `pass`). Must score 0%: a test passing against it checks
  nothing.
- `mutant`: the reference with one mutation (validation/mutation.py), a different mutant per sample. Scores
  below 100%: the tests notice changed behaviour.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

from pipeline.evaluation.strategies import Attempt
from pipeline.evaluation.tasks import EvalTask
from validation.mutation import generate_mutants

BASELINES = ("reference", "skeleton", "mutant")
MAX_MUTANTS = 40


@lru_cache(maxsize=64)
def _mutants(task_id: str, solution: str, class_name: str) -> tuple[str, ...]:
    """Up to MAX_MUTANTS mutants of the reference, a reproducible sample per task (made once per task)."""
    try:
        mutants = generate_mutants(solution, class_name, max_mutants=MAX_MUTANTS, seed=zlib.crc32(task_id.encode()))
    except Exception:  # noqa: BLE001 - no mutant can be made: the baseline has nothing to offer
        return ()
    return tuple(m.source for m in mutants)


def baseline_attempt(task: EvalTask, name: str, sample: int) -> Attempt:
    """Sample `sample` of baseline `name` on `task`."""
    if name == "reference":
        return Attempt(completion=task.solution)
    if name == "skeleton":
        return Attempt(completion=task.skeleton)
    if name == "mutant":
        mutants = _mutants(task.task_id, task.solution, task.class_name)
        if not mutants:
            return Attempt(completion=None, bad_answers=[f"{task.class_name}: no mutant could be made"])
        return Attempt(completion=mutants[sample % len(mutants)])
    raise ValueError(f"unknown baseline {name!r}; known: {', '.join(BASELINES)}")
