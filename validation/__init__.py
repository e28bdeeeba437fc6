"""validation: the sandbox and the gate every candidate passes before release.

- `validation.sandbox`: `SandboxPool(jobs=N)` with `run(SandboxJob) -> RunResult` (warm bubblewrap workers).
- `validation.gate`: `validate_candidate(candidate, policy, pool) -> GateReport`, `validate_many(...)`.
- `validation.policy`: `GatePolicy` (thresholds; the issue's defaults).
- `validation.interaction`, `validation.mutation`: the tracer and the mutants the gate uses.

Depends only on the base layer of `pipeline` (`pipeline.base.records`, `pipeline.base.errors`, `pipeline.base.analysis`);
its command line is `pipeline.validate`. Kept free of imports: the sandbox worker imports this package with only the standard library, pytest and
coverage on its path.
"""
