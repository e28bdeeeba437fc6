"""Running synthesis jobs in the validation sandbox and reading their JSON results back.

A synthesis job is a pytest run like any other (so it gets every protection of the sandbox): its conftest
prints one JSON document between two markers at the end of the session, and the result is read back from
the run's captured output. The sandbox's public API is used as it is; only the output limit is raised.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from core.analysis import parse_lock
from core.records import Rejection, RejectReason
from validation.sandbox import Limits, SandboxJob, SandboxPool, SandboxUnavailable

SYNTHESIS_OUTPUT_BYTES = 24 << 20
"""Enough for the outcomes of a few hundred scenarios; the sandbox keeps head and tail of larger output,
which would cut the JSON document (then the job counts as failed, never as an empty result)."""

T = TypeVar("T")
R = TypeVar("R")


class JobFailed(Exception):
    """The sandbox run did not produce a readable result; the message carries the sandbox's notes."""


def extract_json(output: str, begin: str, end: str) -> Any:
    start = output.rfind(begin)
    stop = output.rfind(end)
    if start == -1 or stop == -1 or stop < start:
        raise JobFailed("no result document in the run's output")
    return json.loads(output[start + len(begin): stop])


def run_job(pool: SandboxPool, *, files: dict[str, str], test_file: str, begin: str, end: str,
            profile: str = "base", coverage_file: str | None = None, trace_class: tuple[str, str] | None = None,
            per_test_contexts: bool = False, wall_seconds: float = 120.0) -> tuple[Any, Any]:
    """Run one job; return (the JSON document, the sandbox's RunResult)."""
    limits = replace(Limits(), output_bytes=SYNTHESIS_OUTPUT_BYTES, wall_seconds=wall_seconds,
                     cpu_seconds=int(wall_seconds))
    job = SandboxJob(files=files, test_file=test_file, profile=profile, coverage_file=coverage_file,
                     per_test_contexts=per_test_contexts, trace_class=trace_class, limits=limits)
    result = pool.run(job)
    try:
        return extract_json(result.output, begin, end), result
    except (JobFailed, json.JSONDecodeError) as exc:
        notes = "; ".join(result.notes) or result.status
        raise JobFailed(f"{exc} (run status {result.status}: {notes})") from None


def never_fatal(work: Callable[[T], list[R]], failed: Callable[[T, Exception], R]) -> Callable[[T], list[R]]:
    """`work`, such that one item never ends a stage: an interpreter fault in the shared parser is retried
    once, any other unexpected error becomes `failed(item, error)` (a Rejection carrying the traceback).
    A sandbox that cannot start is raised (see `validation.gate.validate_guarded`)."""
    def guarded(item: T) -> list[R]:
        for attempt in (1, 2):
            try:
                return work(item)
            except SandboxUnavailable:
                raise
            except Exception as exc:  # noqa: BLE001 - one item's failure is data, not the end of the stage
                if attempt == 1 and parse_lock.is_interpreter_fault(exc):
                    continue
                return [failed(item, exc)]
        raise AssertionError("unreachable")

    return guarded


def error_rejection(candidate_id: str, stage: str, exc: Exception, **evidence: Any) -> Rejection:
    """The record of an item the stage itself failed on: reason `internal_error`, the traceback as evidence."""
    import traceback

    return Rejection(candidate_id=candidate_id, stage=stage, reason=RejectReason.INTERNAL_ERROR,
                     detail=f"{type(exc).__name__}: {exc}"[:300],
                     evidence={**evidence, "traceback": "".join(traceback.format_exception(exc))[-8000:]})
