"""The repair stage: one round of tests aimed at what the gate found missing (coverage, interaction,
over-specified tests), then the gate again; the gate's rejections it did not lift are written here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.funnel import StageCount
from core.layout import CANDIDATE_STAGES, Folder, Stage
from core.records import Candidate, GateReport, RejectReason
from pipeline.stages.driver import Counts, RecordStage, RunContext
from pipeline.stages.gate import gate_inputs, gate_recorded, gate_rejection
from pipeline.stages.reuse import ReusedResults
from pipeline.stages.run_records import gate_report, generated_candidate, generated_candidates, rejection_count
from pipeline.synthesis.jobs import JobFailed
from pipeline.synthesis.repair import repair_tests
from validation.sandbox import SandboxPool

# Failures that more tests can fix; any other reason (a failing or flaky test, a sandbox violation) cannot.
REPAIRABLE = frozenset({RejectReason.LOW_COVERAGE, RejectReason.LOW_INTERACTION,
                        RejectReason.OVERSPECIFIED_TESTS,  # weakened, then gated again
                        RejectReason.UNTESTED_METHOD})  # tests aimed at the uncalled method's missing lines


class RepairStage(ReusedResults, RecordStage):
    """One round of tests aimed at what the gate found missing, for the candidates that failed only on
    coverage, interaction or over-specified tests (`REPAIRABLE`), then the gate again on the repaired
    candidate. A candidate whose repaired tests pass is accepted in its repaired form (written under
    `repair/<original id>.json`); the gate's rejection of every other failing candidate is written here."""

    stage = Stage.REPAIR
    reads = CANDIDATE_STAGES + (Stage.VALIDATE,)
    result_writes = (Stage.REPAIR, Stage.VALIDATE)
    keeps_empty_results = True  # repair that could add nothing (the same tests again) is its result too

    def result_inputs(self, ctx: RunContext, item: str) -> list | None:
        """The candidate, the gate's settings and the report repair starts from."""
        inputs = gate_inputs(ctx, generated_candidate(ctx.store, ctx.run_id, item))
        return None if inputs is None else inputs + [gate_report(ctx.store, ctx.run_id, item).model_dump(mode="json")]

    def _failing(self, ctx: RunContext) -> list[str]:
        return [c.candidate_id for c in generated_candidates(ctx.store, ctx.run_id)
                if not gate_report(ctx.store, ctx.run_id, c.candidate_id).passed]

    def items(self, ctx: RunContext) -> list[str]:
        if not ctx.config.repair:
            return []
        return [c for c in self._failing(ctx) if repairable(ctx, gate_report(ctx.store, ctx.run_id, c))]

    def _repaired(self, ctx: RunContext, item: str) -> Candidate | None:
        if ctx.store.has(ctx.run_id, Stage.REPAIR, item):
            return ctx.store.read(ctx.run_id, Stage.REPAIR, item, Candidate)
        return None

    def is_done(self, ctx: RunContext, item: str) -> bool:
        # A candidate repair could add nothing to leaves no record: it is tried again by a resumed run.
        fixed = self._repaired(ctx, item)
        return fixed is not None and ctx.store.has(ctx.run_id, Stage.VALIDATE, fixed.candidate_id)

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> None:
        repair_recorded(ctx, item, kit, last_attempt)

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        store, run_id = ctx.store, ctx.run_id
        repairable = set(items)
        rejections = []  # the gate's rejections that repair did not lift
        for original in self._failing(ctx):
            fixed = self._repaired(ctx, original)
            if fixed is None or not gate_report(store, run_id, fixed.candidate_id).passed:
                rejection = gate_rejection(original, gate_report(store, run_id, original))
                store.write(run_id, Folder.REJECTIONS, original, rejection)
                rejections.append(rejection)
        saved = sum(1 for item in items if (f := self._repaired(ctx, item)) is not None
                    and gate_report(store, run_id, f.candidate_id).passed)
        return {self.stage: StageCount(received=len(items), accepted=saved, rejected=rejection_count(
            r for r in rejections if r.candidate_id in repairable))}


def repair_recorded(ctx: RunContext, item: str, pool: SandboxPool, last_attempt: bool) -> Candidate | None:
    """The repaired candidate of a gated one (`item`), written once under `repair/<item>.json` and gated; None
    when repair could add nothing (the original's rejection stands). The repair stage's work for one item,
    and the mined-seeds stage's for a mined candidate the gate found short."""
    store, run_id = ctx.store, ctx.run_id
    fixed = store.read(run_id, Stage.REPAIR, item, Candidate) if store.has(run_id, Stage.REPAIR, item) else None
    if fixed is None:
        try:
            fixed = repair_tests(generated_candidate(store, run_id, item), gate_report(store, run_id, item), pool=pool)
        except JobFailed:
            store.not_for_reuse()  # a sandbox run without a result: the next run tries again
            return None  # nothing could be added: the original's rejection stands
        if fixed.candidate_id == item:
            return None
        store.write(run_id, Stage.REPAIR, item, fixed)
    gate_recorded(ctx, fixed, pool, last_attempt)
    return fixed


def repairable(ctx: RunContext, report: GateReport) -> bool:
    """Whether the repair round is on and may lift what the gate found (`REPAIRABLE` reasons only)."""
    return ctx.config.repair and not report.passed and set(report.reasons) <= REPAIRABLE
