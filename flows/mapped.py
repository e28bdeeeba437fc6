"""Per-record Prefect tasks: synthesis per seed or pair, mining per repository, the gate and the judges per
candidate (pipeline/per_record.py, pipeline/mining/stage.py).

Each task gets ids and paths and returns an id or a small work record; its output is written to the
artifact tree by the task itself, wherever the task runner ran it, so nothing large goes through Prefect
results and a resumed run maps only what is missing. A task whose record failed for a passing reason
(`TransientFailure`) is retried on its own; its last attempt writes whatever it got as the record's data.
A stopped build does not retry anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from prefect import task, unmapped
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed

from pipeline import per_record, settings, stages
from pipeline.base import progress, stopping
from pipeline.config import BuildConfig
from pipeline.funnel import StageCount
from pipeline.models.usage import UsageSummary
from pipeline.base.records import Candidate, GateReport
from pipeline.base.store import ArtifactStore
from validation.sandbox import SandboxUnavailable

RETRIES = 2  # attempts after the first, per record
RETRY_DELAY_S = 1


def _retry_transient(task, task_run, state) -> bool:  # noqa: ANN001 - Prefect's retry condition signature
    """Retry only a `TransientFailure` or a sandbox that did not start, and never once the build is stopping.
    A sandbox still not starting on the last attempt ends the build: nothing is written for the record, so
    the rerun gates it."""
    if stopping.requested() is not None:
        return False
    return isinstance(state.result(raise_on_failure=False), (per_record.TransientFailure, SandboxUnavailable))


def _last_attempt() -> bool:
    from prefect.runtime import task_run

    return task_run.run_count > RETRIES


def _pool(config: BuildConfig):  # noqa: ANN202
    from flows.pools import shared_pool
    from pipeline.base.analysis import parse_lock

    parse_lock.install()  # the tasks of one process parse code in parallel threads (see parse_lock)
    return shared_pool(config.jobs, config.gate.limits(), config.sandbox_python)


@task(name="synthesize", cache_policy=NO_CACHE, retries=RETRIES, retry_delay_seconds=RETRY_DELAY_S,
      retry_condition_fn=_retry_transient, task_run_name="{stage} {item_id}")
def synthesize_task(artifacts: Path, run_id: str, stage: str, item_id: str, config: BuildConfig) -> str:
    """One seed (enhance) or pair (compose): its candidates, rejections and work record are written."""
    per_record.synthesize_one(ArtifactStore(artifacts), run_id, stage, item_id, config, _pool(config),
                              last_attempt=_last_attempt())
    return item_id


@task(name="gate", cache_policy=NO_CACHE, retries=RETRIES, retry_delay_seconds=RETRY_DELAY_S,
      retry_condition_fn=_retry_transient, task_run_name="gate {candidate_id}")
def gate_task(artifacts: Path, run_id: str, candidate_id: str, config: BuildConfig) -> str:
    """One candidate through the gate: its report is written; the id comes back."""
    per_record.gate_one(ArtifactStore(artifacts), run_id, candidate_id, config, _pool(config),
                        last_attempt=_last_attempt())
    return candidate_id


def _judge_panel(config: BuildConfig):  # noqa: ANN202 - (LayeredPanel, ModelClient | None)
    """The configured panel for one task: the checks on the process's shared sandbox pool, and model judges
    with a client of the task's own (so that the task can report exactly what its calls spent)."""
    from judges.cache import VerdictCache
    from judges.stage import layered_panel, model_client, verdict_cache_dir

    client = model_client() if config.judges.models else None
    pool = _pool(config) if config.judges.offline else None
    return layered_panel(config.judges, pool=pool, limits=config.gate.limits(), client=client,
                         cache=VerdictCache(verdict_cache_dir())), client


@task(name="judge candidate", cache_policy=NO_CACHE, retries=RETRIES, retry_delay_seconds=RETRY_DELAY_S,
      retry_condition_fn=_retry_transient, task_run_name="judge {candidate_id}")
def judge_task(artifacts: Path, run_id: str, candidate_id: str, config: BuildConfig) -> tuple[str, UsageSummary | None]:
    """One gate survivor before the panel: its decision is written; the decided id and what the task's model
    calls spent (a few rows) come back."""
    panel, client = _judge_panel(config)
    decided = per_record.judge_one(ArtifactStore(artifacts), run_id, candidate_id, panel, last_attempt=_last_attempt())
    return decided, client.usage() if client is not None else None


def judge_stage(artifacts: Path, run_id: str, config: BuildConfig) -> dict[str, StageCount]:
    """The judge stage as one task per gate survivor; counted per layer, and its agreement figures written,
    from the decisions in the store; the model calls of this attempt join the run's model_usage.json."""
    from judges.panel import STAGE, PanelDecision
    from judges.stage import tally_decisions

    store = ArtifactStore(artifacts)
    if (done := stages.finished_judge_steps(store, run_id, config)) is not None:
        return done
    items = per_record.judge_items(store, run_id)
    todo = [item for item in items if per_record.judged_id(store, run_id, item) is None]
    spent = UsageSummary()

    def judged(result: tuple[str, UsageSummary | None]) -> None:
        nonlocal spent
        if result[1] is not None:
            spent = spent.plus(result[1])
        step.advance()

    with progress.step(stages.JUDGE_STAGE, total=len(items)) as step:
        step.resume(len(items) - len(todo))
        if todo:
            _each_done(judge_task.map(unmapped(artifacts), unmapped(run_id), todo, unmapped(config)), judged)
    decisions = [store.read(run_id, STAGE, per_record.judged_id(store, run_id, item), PanelDecision) for item in items]
    counts, _ = tally_decisions(store, run_id, decisions, config.judges.layers)
    if spent.rows:
        from pipeline.models.run_state import RunLedger

        RunLedger(store, run_id, config.models).save_usage(spent)
    return stages.finish_judge_steps(store, run_id, counts)


def _each_done(futures, on_done: Callable) -> None:  # noqa: ANN001 - Prefect futures
    # A record that failed after its retries ends the build (a rerun resumes from the records written).
    for future in as_completed(futures):
        on_done(future.result())


def synthesize_stage(artifacts: Path, run_id: str, stage: str, config: BuildConfig) -> StageCount:
    """A synthesis stage as one task per seed or pair; counted from the items' work records."""
    store = ArtifactStore(artifacts)
    if (done := stages.finished_count(store, run_id, stage)) is not None:
        return done
    items = per_record.synthesis_items(store, run_id, stage, config)
    todo = per_record.pending_items(store, run_id, stage, items)
    with progress.step(stage, total=len(items)) as step:
        step.resume(len(items) - len(todo))
        if todo:
            futures = synthesize_task.map(unmapped(artifacts), unmapped(run_id), unmapped(stage), todo,
                                          unmapped(config))
            _each_done(futures, lambda _: step.advance())
    return stages.finish_stage(store, run_id, stage, per_record.synthesis_count(store, run_id, stage, items))


@task(name="mine repository", cache_policy=NO_CACHE, retries=RETRIES, retry_delay_seconds=RETRY_DELAY_S,
      retry_condition_fn=_retry_transient, task_run_name="mine {item_id}")
def mine_task(artifacts: Path, run_id: str, item_id: str, config: BuildConfig) -> str:
    """One repository: its mined classes, rejections, built candidates and work record are written."""
    from pipeline.domains import load_domains
    from pipeline.mining.stage import make_documenter, mine_one

    mine_one(ArtifactStore(artifacts), run_id, item_id, config.mine, load_domains(settings.domain_registry_path()),
             pool=_pool(config), documenter=make_documenter(config.mine), last_attempt=_last_attempt())
    return item_id


def mine_stage(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    """The mine stage as one task per repository, counted from their work records.

    Without `[mine] limit` every repository is mapped at once. With one, repositories go in waves of
    `jobs` (the order they are listed in), and no new wave starts once the finished ones kept enough: the
    stage keeps the first `limit` classes in source order, as a serial run would, without mining every
    repository found for a handful of tasks.
    """
    from pipeline.domains import load_domains
    from pipeline.mining.stage import finish_mining, is_mined, kept_count, repository_items

    store = ArtifactStore(artifacts)
    if (done := stages.finished_count(store, run_id, stages.MINE_STAGE)) is not None:
        return done
    items = repository_items(config.mine, load_domains(settings.domain_registry_path()))
    wave = len(items) if config.mine.limit is None else max(1, config.jobs)
    mined: list[str] = []
    with progress.step(stages.MINE_STAGE, total=len(items)) as step:
        for start in range(0, len(items), max(1, wave)):
            batch = items[start:start + wave]
            todo = [item for item in batch if not is_mined(store, run_id, item)]
            step.resume(len(batch) - len(todo))
            if todo:
                _each_done(mine_task.map(unmapped(artifacts), unmapped(run_id), todo, unmapped(config)),
                           lambda _: step.advance())
            mined += batch
            if config.mine.limit is not None and kept_count(store, run_id, mined) >= config.mine.limit:
                break
    return stages.finish_stage(store, run_id, stages.MINE_STAGE, finish_mining(store, run_id, mined, config.mine).count)


def mapped_gate(artifacts: Path, run_id: str, config: BuildConfig) -> stages.GateRunner:
    """A gate runner for `stages.stage_validate`: one task per candidate; each report is read back from
    the store as its task finishes."""
    store = ArtifactStore(artifacts)

    def run_gate(todo: Sequence[Candidate], keep: Callable[[Candidate, GateReport], None]) -> None:
        by_id = {c.candidate_id: c for c in todo}
        futures = gate_task.map(unmapped(artifacts), unmapped(run_id), list(by_id), unmapped(config))
        _each_done(futures, lambda cid: keep(by_id[cid], store.read(run_id, stages.VALIDATE_STAGE, cid, GateReport)))

    return run_gate
