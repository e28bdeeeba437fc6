"""The sandbox as a `SuiteRunner` (core/suite_runs.py): what the judge stage hands the judges that
run code, so that they need not import the sandbox."""

from __future__ import annotations

from collections.abc import Mapping

from core.records import TestOutcome
from core.suite_runs import RunnerUnavailable, SuiteRun
from validation.sandbox import Limits, SandboxJob, SandboxPool, SandboxUnavailable


class SandboxSuiteRunner:
    """Plain runs (no coverage, no tracing) of a test file in `pool`'s workers, under `limits` (None: the
    pool's)."""

    def __init__(self, pool: SandboxPool, limits: Limits | None = None) -> None:
        self.pool, self.limits = pool, limits

    def run_suite(self, files: Mapping[str, str], test_file: str) -> SuiteRun:
        job = SandboxJob(files=dict(files), test_file=test_file, profile="base",
                         **({"limits": self.limits} if self.limits is not None else {}))
        try:
            result = self.pool.run(job)
        except SandboxUnavailable as exc:
            raise RunnerUnavailable(str(exc)) from exc
        return SuiteRun(status=result.status, notes=tuple(result.notes),
                        tests=tuple(TestOutcome(test_id=t.test_id, outcome=t.outcome, reason=t.reason)
                                    for t in result.tests))
