"""The release stage: tasks from the accepted candidates, decontaminated and deduplicated, written as the
next release; its done marker is the run's outcome."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from core import progress
from core.agreement import read_agreement
from core.funnel import Funnel
from core.layout import Folder, Stage, record_file_id
from core.records import Task
from core.timing import timed
from models.run_state import manifest_usage
from pipeline.release.assemble import release
from pipeline.stages.driver import RecordStage, RunContext
from pipeline.stages.judge import judged_tasks
from pipeline.stages.runs import FUNNEL_FILE, RunOutcome, finished_outcome, record_outcome
from pipeline.stages.seeds import corpus_hash


class ReleaseStage(RecordStage):
    """Tasks from the accepted candidates, decontaminated and deduplicated, written as the next release (or
    none when nothing is new). One item, the release itself; its done marker is the run's outcome
    (`release.done.json`), written last, after the final funnel: a finished run's release stage never runs
    again, so its funnel and rejection records stay those of the build that made the release."""

    stage = Stage.RELEASE
    reads = (Stage.SEEDS, Stage.VALIDATE, Stage.REPAIR, Stage.JUDGE)
    in_process = True
    uses_pool = False
    ITEM: ClassVar[str] = "release"

    def __init__(self, funnel: Funnel) -> None:
        self.funnel = funnel  # the counts of the stages before it

    def finished(self, ctx: RunContext) -> RunOutcome | None:
        return finished_outcome(ctx.store, ctx.run_id)

    def items(self, ctx: RunContext) -> list[str]:
        return [self.ITEM]

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return False

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> RunOutcome:
        store, run_id, config = ctx.store, ctx.run_id, ctx.config
        tasks: list[Task] = []
        interpreters: set[str] = set()
        with progress.step(f"{Stage.RELEASE} tasks") as step, timed("release", "build tasks (and judges' verdicts)"):
            for task in judged_tasks(store, run_id, config, interpreters):
                tasks.append(task)
                step.advance()
        release_config = config.release.model_copy(update={
            "seed_corpus_hash": corpus_hash(ctx.seeds),
            "build_configuration": config.model_dump(mode="json"),
            "model_usage": manifest_usage(store.runs / run_id),
        })
        judging = read_agreement(store, run_id) if config.judges.enabled else None
        result = release(store, run_id, tasks, self.funnel, release_config, benchmarks=config.benchmarks,
                         judging=judging, interpreters=sorted(interpreters))
        for rejection in result.rejections:
            store.write(run_id, Folder.REJECTIONS, record_file_id(rejection.candidate_id), rejection)
        store.write_run_file(run_id, FUNNEL_FILE, result.funnel.to_json() + "\n")
        return RunOutcome(run_id=run_id, version=result.version, message=result.message,
                          released=tuple(result.released))

    def finish(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> RunOutcome:
        outcome = notes[self.ITEM]
        record_outcome(ctx.store, outcome)
        return outcome
