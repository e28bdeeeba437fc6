"""The long stages one record at a time: the units the build flow maps over (one Prefect task per seed, per
pair, per candidate), so that the Prefect UI shows progress per record, a record whose work failed for a
passing reason is retried on its own, and a task runner can spread the records over threads or machines.

Each unit reads its inputs from the artifact store by id and writes its own output records there, exactly
the records the whole-stage functions of pipeline/stages.py write (same ids, same content), so a resumed
run skips what is done and a build releases the same tasks whichever way it ran:

- synthesis, per seed (enhance) or per pair (compose): the candidates and rejections of the item, then a
  `SynthesisWork` record under `synthesis_work/` saying the item is finished and what it counted;
- the gate, per candidate: the candidate's `GateReport` under `validate/` (the validate stage then finds
  every report written and only repairs and counts).

Transient failures: an `internal_error` outcome (the pipeline, not the record, failed: a sandbox worker
could not be started or was lost, a pool was closed under it) raises `TransientFailure` instead of being
written, unless it is the record's last attempt; then it is written as before, as that record's data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pydantic import Field

from pipeline import runs, settings, stages
from pipeline.config import BuildConfig
from pipeline.base.errors import InputError
from pipeline.funnel import StageCount
from pipeline.base.records import Candidate, GateReport, Record, Rejection, RejectReason
from pipeline.base.store import ArtifactStore

WORK_STAGE = "synthesis_work"
SYNTHESIS_STAGES = (stages.ENHANCE_STAGE, stages.COMPOSE_STAGE)
PAIR_SEPARATOR = "+"  # between the two seed ids of a compose item


class TransientFailure(Exception):
    """A record's work failed for a reason a second attempt can remove; nothing of it was written."""


class SynthesisWork(Record):
    """One finished synthesis item (a seed for enhance, a pair for compose) and what it added to the funnel."""

    stage: str = Field(description="enhance or compose.")
    item_id: str = Field(description="The seed id, or the pair's two seed ids joined by '+'.")
    candidate_ids: tuple[str, ...] = Field(default=(), description="Candidates the item produced.")
    count: StageCount = Field(description="The item's share of the stage's funnel counts.")


def _work_id(stage: str, item_id: str) -> str:
    return f"{stage}-{stages.record_file_id(item_id).replace(PAIR_SEPARATOR, '.')}"


def synthesis_items(store: ArtifactStore, run_id: str, stage: str, config: BuildConfig) -> list[str]:
    """Every item of `stage` in the run, in the order the whole-stage function takes them."""
    seeds = runs.run_seeds(store, run_id)
    if stage == stages.ENHANCE_STAGE:
        return [s.seed_id for s in seeds]
    if stage != stages.COMPOSE_STAGE:
        raise ValueError(f"not a synthesis stage: {stage}")
    from pipeline.domains import load_domains
    from pipeline.synthesis.pairing import pair_seeds

    compose = config.compose_config(load_domains(settings.domain_registry_path()))
    pairs = pair_seeds(seeds, rng_seed=compose.rng_seed, max_pairs=compose.max_pairs,
                       max_uses_per_seed=compose.max_uses_per_seed, composable=compose.composable)
    return [f"{a.seed_id}{PAIR_SEPARATOR}{b.seed_id}" for a, b in pairs]


def pending_items(store: ArtifactStore, run_id: str, stage: str, items: Iterable[str]) -> list[str]:
    """The items of `stage` no earlier attempt finished."""
    return [item for item in items if not store.has(run_id, WORK_STAGE, _work_id(stage, item))]


def _is_transient(item: Candidate | Rejection) -> bool:
    return isinstance(item, Rejection) and item.reason is RejectReason.INTERNAL_ERROR


def synthesize_one(store: ArtifactStore, run_id: str, stage: str, item_id: str, config: BuildConfig, pool, *,
                   last_attempt: bool = True) -> SynthesisWork:
    """Make the candidates (or rejections) of one seed or pair, write them and the item's work record."""
    if store.has(run_id, WORK_STAGE, _work_id(stage, item_id)):
        return store.read(run_id, WORK_STAGE, _work_id(stage, item_id), SynthesisWork)
    seeds = {s.seed_id: s for s in runs.run_seeds(store, run_id)}
    try:
        chosen = [seeds[seed_id] for seed_id in item_id.split(PAIR_SEPARATOR)]
    except KeyError as missing:
        raise InputError(f"{store.runs / run_id}: item {item_id!r} names seed {missing} the run did not record") from None
    if stage == stages.ENHANCE_STAGE:
        from pipeline.synthesis.enhance import enhance_seeds

        made = list(enhance_seeds(chosen, config.enhance_config(), pool=pool))
    else:
        from pipeline.domains import load_domains
        from pipeline.synthesis.compose import compose_guarded

        compose = config.compose_config(load_domains(settings.domain_registry_path()))
        made = compose_guarded((chosen[0], chosen[1]), compose, pool=pool)
    if not last_attempt and any(_is_transient(m) for m in made):
        raise TransientFailure(f"{stage} {item_id}: " + "; ".join(m.detail for m in made if _is_transient(m)))
    count = stages.store_generated(store, run_id, stage, made, received=1)
    work = SynthesisWork(stage=stage, item_id=item_id, candidate_ids=tuple(m.candidate_id for m in made
                                                                           if isinstance(m, Candidate)), count=count)
    store.write(run_id, WORK_STAGE, _work_id(stage, item_id), work)
    return work


def synthesis_count(store: ArtifactStore, run_id: str, stage: str, items: Sequence[str]) -> StageCount:
    """The stage's funnel count, added up from its items' work records (every item must be finished)."""
    works = [store.read(run_id, WORK_STAGE, _work_id(stage, item), SynthesisWork) for item in items]
    rejected: Counter[RejectReason] = Counter()
    for work in works:
        rejected.update(work.count.rejected)
    return StageCount(received=sum(w.count.received for w in works), accepted=sum(w.count.accepted for w in works),
                      rejected=dict(sorted(rejected.items())))


def _candidate(store: ArtifactStore, run_id: str, candidate_id: str) -> Candidate:
    for stage in stages.CANDIDATE_STAGES:
        if store.has(run_id, stage, candidate_id):
            return store.read(run_id, stage, candidate_id, Candidate)
    raise InputError(f"{store.runs / run_id}: no generated candidate {candidate_id}")


def gate_one(store: ArtifactStore, run_id: str, candidate_id: str, config: BuildConfig, pool, *,
             last_attempt: bool = True) -> bool:
    """Gate one candidate and write its report (once); returns whether it passed."""
    from validation.gate import validate_guarded

    if store.has(run_id, stages.VALIDATE_STAGE, candidate_id):
        return store.read(run_id, stages.VALIDATE_STAGE, candidate_id, GateReport).passed
    report = validate_guarded(_candidate(store, run_id, candidate_id), config.gate, pool)
    if not last_attempt and RejectReason.INTERNAL_ERROR in report.reasons:
        raise TransientFailure(f"gate {candidate_id}: {report.evidence.get('error', 'internal error')}")
    store.write(run_id, stages.VALIDATE_STAGE, candidate_id, report)
    return report.passed


def judge_items(store: ArtifactStore, run_id: str) -> list[str]:
    """Ids of the generated candidates that passed the gate (in their repaired form or not): the judges'
    items, named by the generated candidate's id so that each resolves without reading the others."""
    return [c.candidate_id for c in stages.generated_candidates(store, run_id)
            if _survivor(store, run_id, c.candidate_id)[1].passed]


def _survivor(store: ArtifactStore, run_id: str, candidate_id: str) -> tuple[Candidate, GateReport]:
    """The candidate the gate decided on (the repaired one, when repair replaced it) and its report."""
    if store.has(run_id, stages.REPAIR_STAGE, candidate_id):
        candidate = store.read(run_id, stages.REPAIR_STAGE, candidate_id, Candidate)
    else:
        candidate = _candidate(store, run_id, candidate_id)
    return candidate, store.read(run_id, stages.VALIDATE_STAGE, candidate.candidate_id, GateReport)


def judged_id(store: ArtifactStore, run_id: str, candidate_id: str) -> str | None:
    """The id the panel's decision on this item is stored under, once it is written."""
    from judges.panel import STAGE

    decided = _survivor(store, run_id, candidate_id)[0].candidate_id
    return decided if store.has(run_id, STAGE, decided) else None


def judge_one(store: ArtifactStore, run_id: str, candidate_id: str, panel, *, last_attempt: bool = True) -> str:
    """The panel's decision on one gate survivor, written with its rejection; returns the decided id.

    A judge whose model call failed after the client's own retries abstains; while attempts remain that
    is a passing failure (nothing written), so that a brief outage does not become a held task.
    """
    from judges.model_judge import CALL_FAILED
    from judges.stage import record_decision

    if (decided := judged_id(store, run_id, candidate_id)) is not None:
        return decided
    candidate, report = _survivor(store, run_id, candidate_id)
    decision = panel.review(candidate, report)
    failed = [f.note for v in decision.verdicts for f in v.findings if f.note.startswith(CALL_FAILED)]
    if failed and not last_attempt:
        raise TransientFailure(f"judge {candidate.candidate_id}: {failed[0]}")
    record_decision(store, run_id, decision)
    return decision.candidate_id
