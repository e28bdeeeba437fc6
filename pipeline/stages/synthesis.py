"""The offline enhance and compose stages: one item per seed or pair, candidates made by libcst transforms,
tests derived by running the reference as the oracle in the sandbox. Each finished item leaves a
`SynthesisWork` record under `synthesis_work/` saying what it counted. An `internal_error` outcome (the
pipeline, not the record, failed) raises `TransientFailure` instead of being written, unless it is the item's
last attempt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from core.errors import InputError
from core.funnel import StageCount
from core.layout import Folder, Stage, record_file_id
from core.records import Candidate, Record, Rejection, RejectReason, SeedClass
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import Counts, RecordStage, RunContext, TransientFailure
from pipeline.stages.model import ModelStage
from pipeline.stages.reuse import ReusedResults
from pipeline.stages.run_records import store_generated, sum_counts
from pipeline.synthesis.compose import compose_guarded
from pipeline.synthesis.config import ComposeConfig, EnhanceConfig
from pipeline.synthesis.links import may_link
from pipeline.synthesis.enhance import enhance_seed
from pipeline.synthesis.pairing import allowed_pairs, pair_seeds

PAIR_SEPARATOR = "+"  # between the two seed ids of a compose item


class SynthesisWork(Record):
    """One finished synthesis item (a seed for enhance, a pair for compose) and what it added to the funnel."""

    stage: str = Field(description="enhance or compose.")
    item_id: str = Field(description="The seed id, or the pair's two seed ids joined by '+'.")
    candidate_ids: tuple[str, ...] = Field(default=(), description="Candidates the item produced.")
    count: StageCount = Field(description="The item's share of the stage's funnel counts.")


def _is_transient(item: Candidate | Rejection) -> bool:
    return isinstance(item, Rejection) and item.reason is RejectReason.INTERNAL_ERROR


class SynthesisStage(ReusedResults, RecordStage):
    """Offline enhance (one item per seed the run recorded, the bundled ones and the mined classes that
    passed the gate: `RunContext.all_seeds`) or compose (one per pair of seeds of different domains, or of
    mined classes of one domain from different repositories: pipeline/synthesis/pairing.py): candidates made
    by libcst transforms, with tests derived by running the reference as the oracle in the sandbox."""

    reads = (Stage.SEEDS,)
    result_writes = (Stage.ENHANCE, Stage.COMPOSE, Folder.REJECTIONS, Folder.SYNTHESIS_WORK)

    def __init__(self, stage: Stage) -> None:
        if stage not in (Stage.ENHANCE, Stage.COMPOSE):
            raise ValueError(f"not a synthesis stage: {stage}")
        self.stage = stage

    def items(self, ctx: RunContext) -> list[str]:
        if self.stage is Stage.ENHANCE:
            return [s.seed_id for s in ctx.all_seeds]
        compose = ctx.config.compose_config(ctx.registry)
        pairs = pair_seeds(ctx.all_seeds, rng_seed=compose.rng_seed, max_pairs=compose.max_pairs,
                           max_uses_per_seed=compose.max_uses_per_seed, composable=compose.composable,
                           fits=may_link)
        return [f"{a.seed_id}{PAIR_SEPARATOR}{b.seed_id}" for a, b in pairs]

    def _chosen(self, ctx: RunContext, item: str) -> list[SeedClass]:
        seeds = {s.seed_id: s for s in ctx.all_seeds}
        try:
            return [seeds[seed_id] for seed_id in item.split(PAIR_SEPARATOR)]
        except KeyError as missing:
            raise InputError(f"{ctx.store.runs / ctx.run_id}: item {item!r} names seed {missing} the run did not "
                             "record") from None

    def _settings(self, ctx: RunContext) -> EnhanceConfig | ComposeConfig:
        if self.stage is Stage.ENHANCE:
            return ctx.config.enhance_config()
        return ctx.config.compose_config(ctx.registry)

    def result_inputs(self, ctx: RunContext, item: str) -> list:
        """The seed (or the pair's two seeds) whole and the stage's settings."""
        return [[s.model_dump(mode="json") for s in self._chosen(ctx, item)],
                self._settings(ctx).model_dump(mode="json")]

    def _work_id(self, item: str) -> str:
        return f"{self.stage}-{record_file_id(item).replace(PAIR_SEPARATOR, '.')}"

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return ctx.store.has(ctx.run_id, Folder.SYNTHESIS_WORK, self._work_id(item))

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> SynthesisWork:
        """Make the candidates (or rejections) of one seed or pair, write them and the item's work record."""
        store, run_id = ctx.store, ctx.run_id
        if self.is_done(ctx, item):
            return store.read(run_id, Folder.SYNTHESIS_WORK, self._work_id(item), SynthesisWork)
        chosen = self._chosen(ctx, item)
        if self.stage is Stage.ENHANCE:
            made = enhance_seed(chosen[0], self._settings(ctx), pool=kit)
        else:
            made = compose_guarded((chosen[0], chosen[1]), self._settings(ctx), pool=kit)
        if not last_attempt and any(_is_transient(m) for m in made):
            raise TransientFailure(f"{self.stage} {item}: " + "; ".join(m.detail for m in made if _is_transient(m)))
        count = store_generated(store, run_id, self.stage, made, received=1)
        work = SynthesisWork(stage=self.stage, item_id=item, count=count,
                             candidate_ids=tuple(m.candidate_id for m in made if isinstance(m, Candidate)))
        store.write(run_id, Folder.SYNTHESIS_WORK, self._work_id(item), work)
        return work

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        """Added up from the items' work records (every item is finished); for compose, with the allowed
        pairs that were not tried: those with no meaningful link, and those beyond the quota."""
        total = sum_counts(ctx.store.read(ctx.run_id, Folder.SYNTHESIS_WORK, self._work_id(item), SynthesisWork).count
                           for item in items)
        if self.stage is Stage.COMPOSE:
            allowed = allowed_pairs(ctx.all_seeds, ctx.config.compose_config(ctx.registry).composable)
            linkable = sum(may_link(a, b) for a, b in allowed)
            total = total.model_copy(update={"skipped": {"no_link": len(allowed) - linkable,
                                                          "quota": max(0, linkable - len(items))}})
        return {self.stage: total}


def generating_stage(stage: Stage, config: BuildConfig) -> RecordStage:
    """Enhance or compose on the backend `[models]` chooses for it."""
    if config.models.backend_for(stage) == "model":
        return ModelStage(stage)
    return SynthesisStage(stage)
