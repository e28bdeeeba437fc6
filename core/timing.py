"""Where a build spends its time: each step of a stage counts and times itself.

    with timed("gate", "mutants"):
        ...
    print(format_profile(step_times()))

Part of the base layer (see `pipeline/__init__.py`): the gate in `validation/` times its steps with it
too. The totals are process-wide and thread-safe; steps that run in parallel threads add up their own
durations, so a step's seconds can exceed the stage's wall time (the profile prints both). Timings never
go into records: a record's content must not depend on how fast the machine was.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

_LOCK = threading.Lock()
_TOTALS: dict[tuple[str, str], list[float]] = {}  # (stage, step) -> [calls, seconds]


@dataclass(frozen=True)
class StepTime:
    """Total time of one step of one stage, over every call in this process."""

    stage: str
    step: str
    calls: int
    seconds: float


def add_time(stage: str, step: str, seconds: float, calls: int = 1) -> None:
    """Count `calls` calls of `step` that took `seconds` in all."""
    with _LOCK:
        entry = _TOTALS.setdefault((stage, step), [0, 0.0])
        entry[0] += calls
        entry[1] += seconds


@contextmanager
def timed(stage: str, step: str) -> Iterator[None]:
    """Time the block as one call of `step` in `stage` (also when it raises)."""
    started = time.perf_counter()
    try:
        yield
    finally:
        add_time(stage, step, time.perf_counter() - started)


def step_times() -> list[StepTime]:
    """Every step timed so far, in the order first seen."""
    with _LOCK:
        return [StepTime(stage, step, int(calls), seconds) for (stage, step), (calls, seconds) in _TOTALS.items()]


def reset_times() -> None:
    with _LOCK:
        _TOTALS.clear()


def format_profile(steps: list[StepTime]) -> str:
    """A plain-text table: the wall time of each build stage (steps of stage "build"), then each other
    stage's steps with their calls and seconds."""
    lines = [f"{'stage / step':<58}{'calls':>7}{'seconds':>9}{'per call':>10}"]
    for step in (s for s in steps if s.stage == "build"):
        lines.append(f"{step.step + ' (stage wall time)':<58}{'':>7}{step.seconds:>9.1f}")
    for stage in dict.fromkeys(s.stage for s in steps if s.stage != "build"):
        lines.append(f"{stage}:")
        for step in (s for s in steps if s.stage == stage):
            per = step.seconds / step.calls if step.calls else 0.0
            lines.append(f"  {step.step:<56}{step.calls:>7}{step.seconds:>9.1f}{per:>10.3f}")
    lines.append("(a step's seconds add up over parallel threads: they can exceed its stage's wall time)")
    return "\n".join(lines)
