"""A run's candidates and gate reports as the stages after generation read them, and a generating item's
records as they are written: the shared reading of `enhance/`, `compose/`, `mine/`, `validate/` and
`repair/` that the gate, repair, judge and release stages do not each spell again."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from core.errors import InputError
from core.funnel import StageCount
from core.layout import CANDIDATE_STAGES, Folder, Stage, record_file_id
from core.records import Candidate, GateReport, Rejection, RejectReason
from core.store import ArtifactStore
from pipeline.mining.candidates import releasable_alone


def rejection_count(rejections: Iterable[Rejection]) -> dict[RejectReason, int]:
    return dict(sorted(Counter(r.reason for r in rejections).items()))


def sum_counts(counts: Iterable[StageCount]) -> StageCount:
    counts = list(counts)
    rejected: Counter[RejectReason] = Counter()
    for count in counts:
        rejected.update(count.rejected)
    return StageCount(received=sum(c.received for c in counts), accepted=sum(c.accepted for c in counts),
                      rejected=dict(sorted(rejected.items())))


def store_generated(store: ArtifactStore, run_id: str, stage: str, items: Iterable[Candidate | Rejection],
                    received: int) -> StageCount:
    """Write a generating item's candidates (under `stage`) and rejections; its share of the funnel."""
    accepted = 0
    rejections: list[Rejection] = []
    for item in items:
        if isinstance(item, Rejection):
            store.write(run_id, Folder.REJECTIONS, record_file_id(item.candidate_id), item)
            rejections.append(item)
        else:
            store.write(run_id, stage, item.candidate_id, item)
            accepted += 1
    return StageCount(received=received, accepted=accepted, rejected=rejection_count(rejections))


def generated_candidates(store: ArtifactStore, run_id: str) -> list[Candidate]:
    """Every candidate the generating stages wrote, in stage then id order."""
    return [c for stage in CANDIDATE_STAGES for _, c in store.iter_records(run_id, stage, Candidate)]


def generated_candidate(store: ArtifactStore, run_id: str, candidate_id: str) -> Candidate:
    for stage in CANDIDATE_STAGES:
        if store.has(run_id, stage, candidate_id):
            return store.read(run_id, stage, candidate_id, Candidate)
    raise InputError(f"{store.runs / run_id}: no generated candidate {candidate_id}")


def gate_report(store: ArtifactStore, run_id: str, candidate_id: str) -> GateReport:
    return store.read(run_id, Stage.VALIDATE, candidate_id, GateReport)


def survivor(store: ArtifactStore, run_id: str, candidate_id: str) -> tuple[Candidate, GateReport]:
    """The candidate the gate decided on (the repaired one, when repair replaced it) and its report."""
    if store.has(run_id, Stage.REPAIR, candidate_id):
        candidate = store.read(run_id, Stage.REPAIR, candidate_id, Candidate)
    else:
        candidate = generated_candidate(store, run_id, candidate_id)
    return candidate, gate_report(store, run_id, candidate.candidate_id)


def accepted(store: ArtifactStore, run_id: str) -> Iterator[tuple[str, Candidate, GateReport]]:
    """Every generated candidate whose survivor passed the gate, in generation order: its generated id, the
    survivor (a repaired one in place of its original) and the survivor's report. A mined candidate marked
    well known is left out: it fed enhance and compose as a seed (`pipeline/stages/mined_seeds.py` records
    its `well_known` rejection), and is not a task of its own."""
    for generated in generated_candidates(store, run_id):
        if not releasable_alone(generated):
            continue
        candidate = generated
        if store.has(run_id, Stage.REPAIR, candidate.candidate_id):
            candidate = store.read(run_id, Stage.REPAIR, candidate.candidate_id, Candidate)
        if store.has(run_id, Stage.VALIDATE, candidate.candidate_id):
            report = gate_report(store, run_id, candidate.candidate_id)
            if report.passed:
                yield generated.candidate_id, candidate, report


def accepted_pairs(store: ArtifactStore, run_id: str) -> Iterator[tuple[Candidate, GateReport]]:
    """Every candidate that passed the gate (a repaired one in place of its original), with its report."""
    return ((candidate, report) for _, candidate, report in accepted(store, run_id))
