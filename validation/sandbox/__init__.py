"""The sandbox: untrusted solutions and tests run here, never in the pipeline's process.

Public API: `SandboxPool(jobs=N)` (a context manager) with `run(SandboxJob) -> RunResult`; `Limits`;
`PROFILES` (worker kinds for the robustness runs). Stdlib only, so the worker can import it too.
"""

from validation.sandbox.job import Limits, MutantJob, RunResult, SandboxJob, TestResult
from validation.sandbox.pool import SandboxPool, SandboxUnavailable
from validation.sandbox.profiles import PROFILES, Profile

__all__ = ["Limits", "MutantJob", "PROFILES", "Profile", "RunResult", "SandboxJob", "SandboxPool", "SandboxUnavailable", "TestResult"]
