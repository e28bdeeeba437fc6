"""Running a test file against a module in the sandbox, as the judges see it: a protocol, so that the judges
depend on the base layer alone and are handed a runner by the stage that runs them (the sandbox's is
`validation.suite_runner.SandboxSuiteRunner`; a test may hand in its own).

The code run is untrusted: a runner never runs it in the caller's process.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from core.records import TestOutcome


@dataclass(frozen=True)
class SuiteRun:
    """What one run of a test file gave: how it ended and each test's outcome.

    `status` is "completed" when pytest finished; any other value (a timeout, a killed run, a sandbox that
    could not run the job) means the outcomes are incomplete, and `notes` say why."""

    status: str
    tests: tuple[TestOutcome, ...] = ()
    notes: tuple[str, ...] = ()


class SuiteRunner(Protocol):
    """Runs pytest on `test_file` among `files` (name -> source) in the sandbox, under its own limits."""

    def run_suite(self, files: Mapping[str, str], test_file: str) -> SuiteRun: ...


class RunnerUnavailable(RuntimeError):
    """The machine cannot run code now (a sandbox worker that did not start). No record's fault: no
    record may say so (a judge does not abstain on it); the run stops, or the item is tried again."""
