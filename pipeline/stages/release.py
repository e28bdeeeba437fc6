"""The release stage: tasks from the accepted candidates, decontaminated and deduplicated, written as the
next release; its done marker is the run's outcome."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from core.agreement import read_agreement
from core.funnel import Funnel, StageCount
from core.layout import Folder, Stage, record_file_id
from core.records import Task
from core.timing import timed
from models.run_state import manifest_usage
from pipeline.release.assemble import release
from pipeline.stages.driver import Counts, RecordStage, RunContext
from pipeline.stages.reuse import ReusedResults, kept_normal_forms
from pipeline.stages.judge import judged_task, release_interpreters, released_items, task_inputs
from pipeline.stages.runs import FUNNEL_FILE, RunOutcome, finished_outcome, read_funnel, record_outcome
from pipeline.stages.seeds import corpus_hash


class ReleaseStage(ReusedResults, RecordStage):
    """Tasks from the accepted candidates, decontaminated and deduplicated, written as the next release (or
    none when nothing is new). Its items are the accepted candidates, each writing its task
    (`release_tasks/`), then the release itself, in a wave of its own after them: it assembles the tasks
    in the candidates' order. Its done marker is the run's outcome (`release.done.json`), written last,
    after the final funnel: a finished run's release stage never runs again, so its funnel and rejection
    records stay those of the build that made the release."""

    stage = Stage.RELEASE
    reads = (Stage.SEEDS, Stage.VALIDATE, Stage.REPAIR, Stage.JUDGE)
    in_process = True
    uses_pool = False
    result_writes = (Folder.RELEASE_TASKS,)
    ITEM: ClassVar[str] = "release"

    def result_inputs(self, ctx: RunContext, item: str) -> list | None:
        """A candidate's task is kept by what it is built from (`task_inputs`); the release itself depends on
        the releases so far and is always made."""
        if item == self.ITEM:
            return None
        candidate, report, verdicts = task_inputs(ctx.store, ctx.run_id, ctx.config, item)
        return [candidate.model_dump(mode="json"), report.model_dump(mode="json"),
                [v.model_dump(mode="json") for v in verdicts]]

    def __init__(self, funnel: Funnel) -> None:
        self.funnel = funnel  # the counts of the stages before it

    def finished(self, ctx: RunContext) -> Counts | None:
        """The release's funnel step, once the run's outcome is recorded (the funnel is written before it)."""
        if finished_outcome(ctx.store, ctx.run_id) is None:
            return None
        count = read_funnel(ctx.store, ctx.run_id).stages.get(Stage.RELEASE)
        return {Stage.RELEASE: count} if count is not None else None

    def items(self, ctx: RunContext) -> list[str]:
        return released_items(ctx.store, ctx.run_id, ctx.config) + [self.ITEM]

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return item != self.ITEM and ctx.store.has(ctx.run_id, Folder.RELEASE_TASKS, record_file_id(item))

    def waves(self, ctx: RunContext, items: Sequence[str]) -> int:
        """Every task first, then the release: it reads what they wrote."""
        return max(1, len(items) - 1)

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> Any:
        """A candidate's task, written; or, for the release item, the release and the run's outcome with the
        release's funnel step."""
        if item == self.ITEM:
            return self._release(ctx)
        with timed("release", "build tasks (and judges' verdicts)"):
            task = judged_task(ctx.store, ctx.run_id, ctx.config, item)
        ctx.store.write(ctx.run_id, Folder.RELEASE_TASKS, record_file_id(item), task)
        return None

    def _release(self, ctx: RunContext) -> tuple[RunOutcome, StageCount]:
        """The release of the tasks the candidate items wrote, in their order; its rejections and the final
        funnel are written with it."""
        store, run_id, config = ctx.store, ctx.run_id, ctx.config
        taken = self.items(ctx)[:-1]
        tasks = [store.read(run_id, Folder.RELEASE_TASKS, record_file_id(item), Task) for item in taken]
        release_config = config.release.model_copy(update={
            "seed_corpus_hash": corpus_hash(ctx.seeds),
            "build_configuration": config.recorded(),
            "model_usage": manifest_usage(store.runs / run_id),
        })
        judging = read_agreement(store, run_id) if config.judges.enabled else None
        result = release(store, run_id, tasks, self.funnel, release_config, benchmarks=config.benchmarks,
                         judging=judging, interpreters=release_interpreters(store, run_id, taken),
                         forms=kept_normal_forms(config, ctx.settings))
        for rejection in result.rejections:
            store.write(run_id, Folder.REJECTIONS, record_file_id(rejection.candidate_id), rejection)
        store.write_run_file(run_id, FUNNEL_FILE, result.funnel.to_json() + "\n")
        outcome = RunOutcome(run_id=run_id, version=result.version, message=result.message,
                             released=tuple(result.released))
        return outcome, result.funnel.stages[Stage.RELEASE]

    def finish(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        """Records the run's outcome (its done marker) and returns the release's funnel step, as every
        stage counted in the funnel does."""
        outcome, count = notes[self.ITEM]
        record_outcome(ctx.store, outcome)
        return {Stage.RELEASE: count}
