"""The model backend of the enhance and compose stages: blueprints in, candidates and rejections out.

Called by `pipeline.stages` when `[models]` chooses the model backend for a stage. Each work item (a seed
to enhance, a pair to compose) is made by `making.make_candidate` and written as soon as it is finished:
its candidate under the stage's folder with the gate report the model path already computed under
`validate/` (so that the validate stage does not run the same gate twice), or its rejection under
`rejections/`, then a `ModelWork` marker. A resumed run skips marked items.

When the budget refuses a call, the item in progress and every later one are left undone: the stage
records them (`model_stop.json`), returns `complete=False` (so its done marker is not written) and the
build goes on with what was made. Raising the budget and rerunning resumes; answers already received come
from the cache.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Sequence

from pipeline.base import progress
from pipeline.funnel import StageCount
from pipeline.models.client import BudgetExhausted, ModelClient, Role
from pipeline.models.conversation import Conversation
from pipeline.models.making import Blueprint, Outcome, make_candidate
from pipeline.models.run_state import WORK_STAGE, ModelWork, RunLedger
from pipeline.base.records import Origin, Provenance, RejectReason, SeedClass, content_hash
from pipeline.base.store import ArtifactStore

log = logging.getLogger(__name__)

CACHE_FOLDER = "cache/models"  # shared with the judges: one answer cache per artifact tree
VALIDATE_STAGE = "validate"
REJECTIONS = "rejections"


def _file_id(record_id: str) -> str:
    return record_id.replace("/", "__")


def enhance_blueprints(seeds: Sequence[SeedClass]) -> list[Blueprint]:
    """One blueprint per seed: a harder class under the seed's own name and module."""
    out = []
    for seed in sorted(seeds, key=lambda s: s.seed_id):
        out.append(Blueprint(
            work_id="enh-model-" + content_hash(seed.seed_id), stage="enhance", origin=Origin.ENHANCED,
            role=Role.ENHANCER, skeleton_prompt="enhance_skeleton",
            skeleton_values={"class_name": seed.class_name, "domain": seed.domain, "description": seed.description,
                             "seed_source": seed.source, "seed_tests": seed.tests},
            class_name=seed.class_name, module_name=seed.module_name, domains=(seed.domain,),
            description=seed.description,
            provenance=Provenance(seed_ids=(seed.seed_id,), transforms=("model:enhance",), path=seed.provenance.path,
                                  licence=seed.provenance.licence, first_commit_date=seed.provenance.first_commit_date,
                                  source="model enhancement of a seed")))
    return out


def compose_blueprints(seeds: Sequence[SeedClass], config) -> list[Blueprint]:
    """One blueprint per pair of the offline composer's seeded, domain-aware pairing."""
    from pipeline import settings
    from pipeline.domains import load_domains
    from pipeline.synthesis.pairing import pair_seeds
    from pipeline.synthesis.testgen import snake

    compose = config.compose_config(load_domains(settings.domain_registry_path()))
    pairs = pair_seeds(seeds, rng_seed=compose.rng_seed, max_pairs=compose.max_pairs,
                       max_uses_per_seed=compose.max_uses_per_seed, composable=compose.composable)
    out = []
    for a, b in pairs:
        class_name = a.class_name + b.class_name
        dates = [d for d in (a.provenance.first_commit_date, b.provenance.first_commit_date) if d]
        out.append(Blueprint(
            work_id="cmp-model-" + content_hash(a.seed_id, b.seed_id), stage="compose", origin=Origin.COMPOSED,
            role=Role.COMPOSER, skeleton_prompt="compose_skeleton",
            skeleton_values={"class_name": class_name, "domain_a": a.domain, "domain_b": b.domain,
                             "description_a": a.description, "description_b": b.description,
                             "source_a": a.source, "source_b": b.source},
            class_name=class_name, module_name=snake(class_name), domains=(a.domain, b.domain),
            description=f"{a.description} Combined with: {b.description}",
            provenance=Provenance(seed_ids=(a.seed_id, b.seed_id), transforms=("model:compose",),
                                  rng_seed=compose.rng_seed, source="model composition of two seeds",
                                  first_commit_date=max(dates) if dates else None)))
    return out


class _StageRun:
    """One model stage's pass over its blueprints (items run `jobs` at a time)."""

    def __init__(self, store: ArtifactStore, run_id: str, stage: str, config) -> None:
        self.store, self.run_id, self.stage, self.config = store, run_id, stage, config
        self.models = config.models
        self.ledger = RunLedger(store, run_id, self.models)
        self.client = ModelClient(store.root / CACHE_FOLDER, use_cache=self.models.cache, budget=self.ledger.budget,
                                  max_concurrency=self.models.max_concurrency, max_retries=self.models.max_retries,
                                  timeout_s=self.models.timeout_s)
        self.stopped: str | None = None
        self._lock = threading.Lock()

    def _write(self, blueprint: Blueprint, outcome: Outcome) -> ModelWork:
        if outcome.rejection is not None:
            self.store.write(self.run_id, REJECTIONS, _file_id(outcome.rejection.candidate_id), outcome.rejection)
            work = ModelWork(work_id=blueprint.work_id, stage=self.stage, rejected=outcome.rejection.reason.value,
                             log=tuple(outcome.log))
        else:
            candidate = outcome.candidate
            self.store.write(self.run_id, VALIDATE_STAGE, candidate.candidate_id, outcome.report)
            self.store.write(self.run_id, self.stage, candidate.candidate_id, candidate)
            work = ModelWork(work_id=blueprint.work_id, stage=self.stage, candidate_id=candidate.candidate_id,
                             log=tuple(outcome.log))
        self.store.write(self.run_id, WORK_STAGE, _file_id(blueprint.work_id), work)
        return work

    def one(self, blueprint: Blueprint, gate) -> ModelWork | None:
        """The item's finished record, or None when the budget stopped it."""
        if self.store.has(self.run_id, WORK_STAGE, _file_id(blueprint.work_id)):
            return self.store.read(self.run_id, WORK_STAGE, _file_id(blueprint.work_id), ModelWork)
        if self.stopped:
            return None
        try:
            outcome = make_candidate(blueprint, Conversation(self.client, self.models), gate)
        except BudgetExhausted as exc:
            with self._lock:
                self.stopped = self.stopped or str(exc)
            return None
        finally:
            self.ledger.save_usage(self.client.usage())
        return self._write(blueprint, outcome)


def run_model_stage(store: ArtifactStore, run_id: str, stage: str, blueprints: Sequence[Blueprint],
                    config) -> tuple[StageCount, bool]:
    """Make every blueprint's candidate; returns the stage's count and whether every item was done."""
    from pipeline.synthesis.jobs import in_order
    from validation.gate import validate_candidate

    run = _StageRun(store, run_id, stage, config)
    with config.sandbox_pool() as pool, \
            progress.step(stage, total=len(blueprints)) as step:
        def gate(candidate):  # noqa: ANN001, ANN202 - Candidate -> GateReport
            return validate_candidate(candidate, config.gate, pool)

        def work(blueprint: Blueprint) -> list[tuple[Blueprint, ModelWork | None]]:
            done = run.one(blueprint, gate)
            step.advance()
            return [(blueprint, done)]

        results = list(in_order(work, blueprints, config.jobs))
    run.ledger.save_usage(run.client.usage())
    done = [work for _, work in results if work is not None]
    not_done = [blueprint.work_id for blueprint, work in results if work is None]
    if not_done:
        log.warning("%s: %s; %d item(s) not done", stage, run.stopped, len(not_done))
    run.ledger.record_stop(stage, run.stopped or "", not_done)
    rejected = Counter(RejectReason(work.rejected) for work in done if work.rejected)
    count = StageCount(received=len(done), accepted=sum(1 for work in done if work.candidate_id),
                       rejected=dict(sorted(rejected.items())))
    return count, not not_done
