"""The gate stage: the validation gate (validation/gate.py) on every generated candidate, one `GateReport`
each under `validate/`; and the work for one candidate that every gate stage shares (the build's, the
`validate` command's, repair's and the mined-seeds stage's)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.funnel import StageCount
from core.layout import CANDIDATE_STAGES, Stage
from core.records import Candidate, GateReport, Rejection, RejectReason
from pipeline.stages.driver import Counts, RecordStage, RunContext, TransientFailure
from pipeline.stages.released import released_code, released_match, released_report
from pipeline.stages.reuse import ReusedResults, normal_forms_in, results_root
from pipeline.stages.run_records import gate_report, generated_candidate, generated_candidates, rejection_count
from validation.gate import validate_guarded
from validation.policy import GatePolicy
from validation.sandbox import SandboxPool


def gate_one(candidate: Candidate, policy: GatePolicy, pool: SandboxPool, last_attempt: bool) -> GateReport:
    """The work for one candidate of every gate stage (the build's and the `validate` command's): its
    report (validation/gate.py `validate_guarded`). An `internal_error` (the pipeline, not the candidate,
    failed) is a passing failure while attempts remain, and the report of the last attempt."""
    report = validate_guarded(candidate, policy, pool)
    if not last_attempt and RejectReason.INTERNAL_ERROR in report.reasons:
        raise TransientFailure(f"gate {candidate.candidate_id}: {report.evidence.get('error', 'internal error')}")
    return report


def gate_recorded(ctx: RunContext, candidate: Candidate, pool: SandboxPool, last_attempt: bool) -> GateReport:
    """The candidate's gate report, written once (read back when an earlier attempt wrote it): the gate stage,
    repair, and the mined-seeds stage that gates mined candidates before enhance and compose. A candidate
    whose code an earlier release holds is reported `duplicate` without running anything
    (pipeline/stages/released.py)."""
    if ctx.store.has(ctx.run_id, Stage.VALIDATE, candidate.candidate_id):
        return gate_report(ctx.store, ctx.run_id, candidate.candidate_id)
    if (match := already_released(ctx, candidate)) is not None:
        report = released_report(candidate.candidate_id, match)
    else:
        report = gate_one(candidate, ctx.config.gate, pool, last_attempt)
    ctx.store.write(ctx.run_id, Stage.VALIDATE, candidate.candidate_id, report)
    return report


def already_released(ctx: RunContext, candidate: Candidate) -> tuple[str, str] | None:
    """(release, task id) of the released task with this candidate's code, or None."""
    results = results_root(ctx)
    return released_match(candidate.solution_code, released_code(ctx.store, results), normal_forms_in(results))


def gate_inputs(ctx: RunContext, candidate: Candidate) -> list | None:
    """What the gate's report on `candidate` depends on besides code and interpreter (`ReusedResults`): the
    candidate whole and the gate's settings; None for a candidate already released (its report says so
    and is not kept: it depends on the releases so far)."""
    if already_released(ctx, candidate) is not None:
        return None
    return [candidate.model_dump(mode="json"), ctx.config.gate.model_dump(mode="json")]


def gate_rejection(candidate_id: str, report: GateReport) -> Rejection:
    failed = [c for c in report.checks if c.gated and not c.passed]
    detail = ("; ".join(f"{c.name}: {c.detail or c.value}" for c in failed[:3]) or str(report.evidence.get("error", ""))
              or "failed the validation gate")
    evidence = {"reasons": [r.value for r in report.reasons], "line_coverage": report.line_coverage,
                "interaction_edge_coverage": report.interaction_edge_coverage}
    if "traceback" in report.evidence:  # the gate could not check it (RejectReason.INTERNAL_ERROR)
        evidence["traceback"] = report.evidence["traceback"]
    return Rejection(candidate_id=candidate_id, stage=Stage.VALIDATE.value, reason=report.reasons[0],
                     detail=detail, evidence=evidence)


class GateStage(ReusedResults, RecordStage):
    """The validation gate (validation/gate.py) on every generated candidate: one `GateReport` each. The
    model backend writes the reports of its candidates as it makes them; those are not gated again. A
    report an earlier run made for the same candidate under the same settings is reused."""

    stage = Stage.VALIDATE
    reads = CANDIDATE_STAGES
    result_writes = (Stage.VALIDATE,)

    def result_inputs(self, ctx: RunContext, item: str) -> list | None:
        return gate_inputs(ctx, generated_candidate(ctx.store, ctx.run_id, item))

    def items(self, ctx: RunContext) -> list[str]:
        return [c.candidate_id for c in generated_candidates(ctx.store, ctx.run_id)]

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return ctx.store.has(ctx.run_id, Stage.VALIDATE, item)

    def settled(self, ctx: RunContext, item: str) -> bool:
        """A candidate an earlier release holds: its `duplicate` report needs no sandbox."""
        return already_released(ctx, generated_candidate(ctx.store, ctx.run_id, item)) is not None

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> bool:
        return gate_recorded(ctx, generated_candidate(ctx.store, ctx.run_id, item), kit, last_attempt).passed

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        failing = [(item, report) for item in items if not (report := gate_report(ctx.store, ctx.run_id, item)).passed]
        return {self.stage: StageCount(received=len(items), accepted=len(items) - len(failing),
                                       rejected=rejection_count(gate_rejection(i, r) for i, r in failing))}
