"""The model backend of the enhance and compose stages: blueprints in, candidates and rejections out.

`ModelStage` takes the place of the offline `SynthesisStage` when `[models]` chooses the model backend
for a stage (`pipeline.stages.synthesis.generating_stage`), under the same driver. Each work item (a seed
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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core.domains import DomainRegistry
from core.funnel import StageCount
from core.layout import Folder, Stage, record_file_id
from core.module_names import task_module_name
from core.records import Origin, Provenance, RejectReason, SeedClass, content_hash, seed_provenance
from core.store import ArtifactStore
from models.client import BudgetExhausted, ModelClient, Role
from models.conversation import Conversation
from models.run_state import ModelWork, RunLedger
from pipeline.stages.driver import Counts, RecordStage, RunContext
from pipeline.synthesis.links import purpose_for, seed_links
from pipeline.synthesis.model_making import Blueprint, Outcome, make_candidate
from pipeline.synthesis.pairing import pair_seeds
from pipeline.synthesis.testgen import snake
from validation.gate import validate_candidate

log = logging.getLogger(__name__)

def enhance_blueprints(seeds: Sequence[SeedClass]) -> list[Blueprint]:
    """One blueprint per seed: a harder class under the seed's own name and module."""
    out = []
    for seed in sorted(seeds, key=lambda s: s.seed_id):
        out.append(Blueprint(
            work_id="enh-model-" + content_hash(seed.seed_id), stage=Stage.ENHANCE, origin=Origin.ENHANCED,
            role=Role.ENHANCER, skeleton_prompt="enhance_skeleton",
            skeleton_values={"class_name": seed.class_name, "domain": seed.domain, "description": seed.description,
                             "seed_source": seed.source, "seed_tests": seed.tests},
            class_name=seed.class_name, module_name=seed.module_name, domains=(seed.domain,),
            description=seed.description,
            provenance=seed_provenance(seed, seed_ids=(seed.seed_id,), transforms=("model:enhance",),
                                       source="model enhancement of a seed")))
    return out


def compose_blueprints(seeds: Sequence[SeedClass], config, registry: DomainRegistry) -> list[Blueprint]:
    """One blueprint per pair of the offline composer's seeded, domain-aware pairing."""
    compose = config.compose_config(registry)
    pairs = pair_seeds(seeds, rng_seed=compose.rng_seed, max_pairs=compose.max_pairs,
                       max_uses_per_seed=compose.max_uses_per_seed, composable=compose.composable)
    out = []
    for a, b in pairs:
        class_name = a.class_name + b.class_name
        dates = [d for d in (a.provenance.first_commit_date, b.provenance.first_commit_date) if d]
        out.append(Blueprint(
            work_id="cmp-model-" + content_hash(a.seed_id, b.seed_id), stage=Stage.COMPOSE, origin=Origin.COMPOSED,
            role=Role.COMPOSER, skeleton_prompt="compose_skeleton",
            skeleton_values={"class_name": class_name, "domain_a": a.domain, "domain_b": b.domain,
                             "description_a": a.description, "description_b": b.description,
                             "source_a": a.source, "source_b": b.source, "links": declared_links(a, b)},
            class_name=class_name, module_name=task_module_name(snake(class_name)), domains=(a.domain, b.domain),
            description=f"{a.description} Combined with: {b.description}",
            provenance=Provenance(seed_ids=(a.seed_id, b.seed_id), transforms=("model:compose",),
                                  rng_seed=compose.rng_seed, source="model composition of two seeds",
                                  first_commit_date=max(dates) if dates else None),
            seeds=((a.class_name, a.source), (b.class_name, b.source))))
    return out


def declared_links(a: SeedClass, b: SeedClass) -> str:
    """The links the two seeds' declared (or derived) ends allow, as the prompt's first requirement: a
    model told only "data of one feeds the other" joins on whatever types match, as the offline composer
    did before it joined on meaning. "" when there is none (the model finds its own)."""
    try:
        links = seed_links(a, b)
    except (SyntaxError, LookupError):  # a seed that cannot be read: its fusion fails on its own
        return ""
    lines = []
    for link in links:
        giver, taker = (a, b) if link.forward else (b, a)
        purpose = purpose_for(link.produced, link.accepted)
        lines.append(f"  - {giver.class_name}.{link.produced.method} gives {link.produced.what}, which "
                     f"{taker.class_name}.{link.accepted.method} takes as `{link.accepted.parameter}`"
                     f"{': ' + purpose if purpose else ''}"
                     f"{'; hand on ' + repr(link.produced.event) if link.produced.event else ''}.\n")
    if not lines:
        return ""
    return ("- build it around what the seeds declare links them, inside the producing operation where that "
            "reads naturally (the operation hands its result on), else in a method whose docstring says what "
            "it is for:\n" + "".join(lines))


class _StageRun:
    """One model stage's pass over its blueprints (items run `jobs` at a time)."""

    def __init__(self, store: ArtifactStore, run_id: str, stage: str, config, cache: Path) -> None:
        self.store, self.run_id, self.stage, self.config = store, run_id, stage, config
        self.models = config.models
        self.ledger = RunLedger(store, run_id, self.models)
        self.client = ModelClient(cache, use_cache=self.models.cache, budget=self.ledger.budget,
                                  max_concurrency=self.models.max_concurrency, max_retries=self.models.max_retries,
                                  timeout_s=self.models.timeout_s)
        self.stopped: str | None = None
        self._lock = threading.Lock()

    def _write(self, blueprint: Blueprint, outcome: Outcome) -> ModelWork:
        if outcome.rejection is not None:
            self.store.write(self.run_id, Folder.REJECTIONS, record_file_id(outcome.rejection.candidate_id), outcome.rejection)
            work = ModelWork(work_id=blueprint.work_id, stage=self.stage, rejected=outcome.rejection.reason.value,
                             log=tuple(outcome.log))
        else:
            candidate = outcome.candidate
            self.store.write(self.run_id, Stage.VALIDATE, candidate.candidate_id, outcome.report)
            self.store.write(self.run_id, self.stage, candidate.candidate_id, candidate)
            work = ModelWork(work_id=blueprint.work_id, stage=self.stage, candidate_id=candidate.candidate_id,
                             log=tuple(outcome.log))
        self.store.write(self.run_id, Folder.MODEL_WORK, record_file_id(blueprint.work_id), work)
        return work

    def one(self, blueprint: Blueprint, gate) -> ModelWork | None:
        """The item's finished record, or None when the budget stopped it."""
        if self.store.has(self.run_id, Folder.MODEL_WORK, record_file_id(blueprint.work_id)):
            return self.store.read(self.run_id, Folder.MODEL_WORK, record_file_id(blueprint.work_id), ModelWork)
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


class ModelStage(RecordStage):
    """Enhance or compose on the model backend: one item per blueprint (a seed, or a pair of the offline
    composer's pairing). Its items share one model client and the run's budget, so they run in threads of
    one process. Its done marker is written only when every item was made: work the budget stopped is done
    by a rerun with a raised budget."""

    in_process = True

    def __init__(self, stage: Stage) -> None:
        self.stage = stage
        self.reads = (Stage.SEEDS,)
        self._blueprints: dict[str, Blueprint] | None = None

    def blueprints(self, ctx: RunContext) -> dict[str, Blueprint]:
        if self._blueprints is None:
            made = (enhance_blueprints(ctx.all_seeds) if self.stage is Stage.ENHANCE
                    else compose_blueprints(ctx.all_seeds, ctx.config, ctx.registry))
            self._blueprints = {b.work_id: b for b in made}
        return self._blueprints

    def items(self, ctx: RunContext) -> list[str]:
        return list(self.blueprints(ctx))

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return ctx.store.has(ctx.run_id, Folder.MODEL_WORK, record_file_id(item))

    @contextmanager
    def open(self, ctx: RunContext, pool: Any) -> Iterator[tuple[_StageRun, Any]]:
        run = _StageRun(ctx.store, ctx.run_id, self.stage, ctx.config, ctx.settings.model_cache)
        try:
            yield run, lambda candidate: validate_candidate(candidate, ctx.config.gate, pool)
        finally:
            run.ledger.save_usage(run.client.usage())

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> str | None:
        """The item's candidate (or rejection) and work record; returns why the budget stopped it, if it did."""
        run, gate = kit
        return None if run.one(self.blueprints(ctx)[item], gate) is not None else (run.stopped or "stopped")

    def finish(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        not_done = [item for item in items if not self.is_done(ctx, item)]
        stopped = next((note for note in notes.values() if note), "")
        if not_done:
            log.warning("%s: %s; %d item(s) not done", self.stage, stopped, len(not_done))
        RunLedger(ctx.store, ctx.run_id, ctx.config.models).record_stop(self.stage, stopped, not_done)
        if not_done:  # counted, but not marked done
            return self.count(ctx, [item for item in items if item not in set(not_done)], notes)
        return super().finish(ctx, items, notes)

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        done = [ctx.store.read(ctx.run_id, Folder.MODEL_WORK, record_file_id(item), ModelWork) for item in items]
        rejected = Counter(RejectReason(work.rejected) for work in done if work.rejected)
        return {self.stage: StageCount(received=len(done), accepted=sum(1 for work in done if work.candidate_id),
                                       rejected=dict(sorted(rejected.items())))}
