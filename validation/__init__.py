"""validation: the sandbox and the gate every candidate passes before release.

- `validation.sandbox`: `SandboxPool(jobs=N)` with `run(SandboxJob) -> RunResult` (warm bubblewrap workers);
  the pool, the worker and its run processes pass the typed records of `validation.sandbox.job`.
- `validation.gate`: `validate_candidate(candidate, policy, pool) -> GateReport` (one candidate; many are a
  stage's items, run by the driver in pipeline/stages/driver.py).
- `validation.policy`: `GatePolicy` (thresholds; the issue's defaults).
- `validation.faithful`: the faithful variants, one module per kind, in a `Registry`.
- `validation.sandbox.interaction`, `validation.mutation`: the tracer and the mutants the gate uses;
  `validation.schemata` puts a task's mutants into one module, through `mutation`'s public interface.
- `validation.suite_runner`: the sandbox as `core`'s `SuiteRunner`, for the judges.

Depends only on `core`; its command is `commands/validate.py`. Kept free of imports: the sandbox worker imports this package with only the standard library, pytest and coverage on its
path.
"""
