"""Mined classes as seeds: fresh material for enhance and compose in the same build (`[mine] as_seeds`).

A mined class gives one task of its own; as a seed it also gives enhanced variants and compositions, so a
fresh class yields several tasks, and every one of them keeps the class's repository, commits and
first-commit date (the date the release's freshness counts go by). Only a class whose candidate passed the
validation gate becomes a seed: enhance and compose harvest argument values by running a seed's tests, and
tests that fail or flake on their own reference would only give rejected derivatives.

The stage gates each mined candidate with the build's own work for one item (`gate_recorded`, and
`repair_recorded` when the gate found only what the repair round may lift: mined classes' oracle tests are
often over-specified at first), writing the reports under `validate/` and the repaired candidate under
`repair/`, so the gate and repair stages later find them and do nothing again. The candidates that pass
(repaired or not) are written as `SeedClass` records under `mined_seeds/<candidate id>.json`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.funnel import StageCount
from core.layout import Folder, Stage, record_file_id
from core.records import Candidate, GateReport, Rejection, RejectReason, SeedClass
from pipeline.mining.candidates import WELL_KNOWN, releasable_alone
from pipeline.stages.driver import Counts, RecordStage, RunContext
from pipeline.stages.gate import gate_inputs, gate_recorded
from pipeline.stages.repair import repair_recorded, repairable
from pipeline.stages.reuse import ReusedResults

# Hex digits of the candidate id in a mined seed's id: two repositories' classes of one name must differ.
SEED_SUFFIX_LENGTH = 8


def seed_of(candidate: Candidate) -> SeedClass:
    """The seed a gated mined candidate stands for: its reference as the class module, its tests as the seed's
    tests (they import the class from the candidate's module, which becomes the seed's name), its provenance
    whole. The id carries part of the candidate's id, so that a mined class never takes a bundled seed's id
    nor another repository's class of the same name."""
    domain = candidate.domains[0]
    suffix = candidate.candidate_id.removeprefix("cand-")[:SEED_SUFFIX_LENGTH]
    return SeedClass(seed_id=f"{domain}/{candidate.module_name}-{suffix}", domain=domain, name=candidate.module_name,
                     class_name=candidate.class_name, description=candidate.description,
                     source=candidate.solution_code, tests=candidate.test_code, provenance=candidate.provenance)


class MinedSeedsStage(ReusedResults, RecordStage):
    """The mine stage's candidates through the gate, and the passing ones written as seeds (one item per
    candidate). Counted as its own funnel step: received the mined candidates, accepted the seeds; what the
    gate rejected is counted by the gate stage, which reads the same reports."""

    stage = Stage.MINED_SEEDS
    reads = (Stage.MINE,)
    result_writes = (Stage.VALIDATE, Stage.REPAIR, Stage.MINED_SEEDS)

    def result_inputs(self, ctx: RunContext, item: str) -> list | None:
        """The mined candidate, the gate's settings and whether repair is on."""
        inputs = gate_inputs(ctx, ctx.store.read(ctx.run_id, Stage.MINE, item, Candidate))
        return None if inputs is None else inputs + [ctx.config.repair]

    def items(self, ctx: RunContext) -> list[str]:
        return [candidate_id for candidate_id, _ in ctx.store.iter_records(ctx.run_id, Stage.MINE, Candidate)]

    def _report(self, ctx: RunContext, candidate_id: str) -> GateReport | None:
        if not ctx.store.has(ctx.run_id, Stage.VALIDATE, candidate_id):
            return None
        return ctx.store.read(ctx.run_id, Stage.VALIDATE, candidate_id, GateReport)

    def is_done(self, ctx: RunContext, item: str) -> bool:
        # Failure mode: an attempt stopped between the report and the seed (or the repair); a report alone
        # is not done unless nothing can follow it. Repair that could add nothing leaves no record and is
        # tried again, as in the repair stage.
        report = self._report(ctx, item)
        if report is None:
            return False
        if ctx.store.has(ctx.run_id, Stage.MINED_SEEDS, item):
            return True
        if report.passed:
            return False
        if not repairable(ctx, report):
            return True
        if not ctx.store.has(ctx.run_id, Stage.REPAIR, item):
            return False
        fixed = ctx.store.read(ctx.run_id, Stage.REPAIR, item, Candidate)
        repaired = self._report(ctx, fixed.candidate_id)
        return repaired is not None and not repaired.passed

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> bool:
        """Gate the candidate (and repair it as the repair stage would, when the gate found only what
        repair may lift); the candidate that passed, repaired or not, is written as a seed."""
        candidate = ctx.store.read(ctx.run_id, Stage.MINE, item, Candidate)
        report = gate_recorded(ctx, candidate, kit, last_attempt)
        if not report.passed and repairable(ctx, report):
            fixed = repair_recorded(ctx, item, kit, last_attempt)
            if fixed is not None and (self._report(ctx, fixed.candidate_id) or report).passed:
                candidate, report = fixed, self._report(ctx, fixed.candidate_id)
        if report.passed and not ctx.store.has(ctx.run_id, Stage.MINED_SEEDS, item):
            ctx.store.write(ctx.run_id, Stage.MINED_SEEDS, item, seed_of(candidate))
        if report.passed and not releasable_alone(candidate):
            ctx.store.write(ctx.run_id, Folder.REJECTIONS, record_file_id(item), seed_only(item, candidate))
        return report.passed

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        seeds = [item for item in items if ctx.store.has(ctx.run_id, Stage.MINED_SEEDS, item)]
        known = sum(1 for item in seeds if not releasable_alone(ctx.store.read(ctx.run_id, Stage.MINE, item, Candidate)))
        return {self.stage: StageCount(received=len(items), accepted=len(seeds),
                                       rejected={RejectReason.WELL_KNOWN: known} if known else {})}


def seed_only(item: str, candidate: Candidate) -> Rejection:
    """The `well_known` rejection of a mined candidate that became a seed: enhance and compose may make
    something new of it, but it is not released as a task of its own."""
    evidence = dict(candidate.generator.parameters.get(WELL_KNOWN) or {})
    return Rejection(candidate_id=item, stage=Stage.MINED_SEEDS.value, reason=RejectReason.WELL_KNOWN,
                     detail=f"{candidate.class_name}: {evidence.get('detail', 'a well-known implementation')}; "
                            "taken as a seed of enhance and compose only, not released as a task of its own",
                     evidence=evidence)
