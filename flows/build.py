"""The build flow: Prefect sequences the stages of pipeline/stages.py and nothing else.

Prefect's result cache is off (NO_CACHE): resuming is the artifact tree's job, and hashing a configuration
or a callback for cache keys would only produce warnings.

Tasks receive and return paths, ids and small counts, never large records, so the artifact tree stays the
source of truth and a rerun of the same run id resumes from it (each stage skips what is already written).
Offline synthesis runs as one task per seed (enhance) or pair (compose), mining as one per repository, the
gate and the judges as one per candidate (flows/mapped.py), so the UI shows progress per record, a record is
retried on its own, and the flow's task runner (threads, or Dask workers: flows/runners.py) spreads them;
the other stages are one task each. Mining runs when `[mine]` names a source (a local folder, or GitHub
with a token).
"""

from __future__ import annotations

import time
from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from pydantic import BaseModel

from flows.mapped import judge_stage, mapped_gate, mine_stage, synthesize_stage
from flows.pools import close_shared_pools, end_worker_builds, start_worker_builds
from flows.server_watch import api_url, start_watch
from flows.stop_tracking import StopTracker
from pipeline import runs, settings, stages
from pipeline.base import stopping
from pipeline.config import BuildConfig
from pipeline.funnel import Funnel, StageCount
from pipeline.mining.stage import mining_configured
from pipeline.models.run_state import model_stop_message
from pipeline.report import REPORT_FILE, collect_run, render_report, write_run_report
from pipeline.runs import RunOutcome
from pipeline.base.store import ArtifactStore, atomic_write_text
from pipeline.base.timing import add_time


class BuildSummary(BaseModel):
    """What a build did, printed by the CLI."""

    run_id: str
    run_dir: Path
    funnel: Funnel
    release_version: str | None = None
    release_path: Path | None = None
    release_message: str = ""
    already_finished: bool = False


@task(name="seeds", cache_policy=NO_CACHE)
def seeds_task(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    return stages.stage_seeds(ArtifactStore(artifacts), run_id, config)


@task(name="enhance", cache_policy=NO_CACHE)
def enhance_task(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    return stages.stage_enhance(ArtifactStore(artifacts), run_id, config)


@task(name="compose", cache_policy=NO_CACHE)
def compose_task(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    return stages.stage_compose(ArtifactStore(artifacts), run_id, config)


@task(name="validate", cache_policy=NO_CACHE)
def validate_task(artifacts: Path, run_id: str, config: BuildConfig) -> tuple[StageCount, StageCount]:
    """Gate and repair; the gate itself runs as one mapped task per candidate (flows/mapped.py)."""
    return stages.stage_validate(ArtifactStore(artifacts), run_id, config, run_gate=mapped_gate(artifacts, run_id, config))


@task(name="release", cache_policy=NO_CACHE)
def release_task(artifacts: Path, run_id: str, config: BuildConfig, funnel: Funnel) -> RunOutcome:
    return stages.stage_release(ArtifactStore(artifacts), run_id, funnel, config)


def _summary(store: ArtifactStore, outcome: RunOutcome, *, already: bool = False) -> BuildSummary:
    return BuildSummary(run_id=outcome.run_id, run_dir=store.runs / outcome.run_id,
                        funnel=runs.read_funnel(store, outcome.run_id), release_version=outcome.version,
                        release_path=store.release_dir(outcome.version) if outcome.version else None,
                        release_message=outcome.sentence() if already else outcome.message, already_finished=already)


@flow(name="classeval-pro-build", log_prints=False, validate_parameters=False)
def build_flow(config: BuildConfig, run_id: str | None = None) -> BuildSummary:
    """Run every built stage in order, saving the funnel after each so an interrupted run shows how far it got.

    A finished run is left untouched and its outcome returned. Stages report their own progress
    (pipeline/base/progress.py) to whatever reporter the caller installed.
    SIGINT and SIGTERM (and a lost Prefect server) stop it cleanly (pipeline/base/stopping.py): the funnel then
    records where it stopped, and `BuildStopped` reaches the caller, which exits with its code.
    """
    from validation.sandbox.pool import close_all_pools

    artifacts = settings.artifacts_dir()
    store = ArtifactStore(artifacts)
    run_id = run_id or stages.default_run_id(config, stages.load_seed_records(config))
    if (outcome := runs.finished_outcome(store, run_id)) is not None:
        return _summary(store, outcome, already=True)
    stopping.reset()
    stopping.on_stop(close_all_pools)
    start_watch(api_url())  # ended by the caller (it must outlast Prefect's last state report)
    with stopping.stop_on_signals(), StopTracker() as tracker:
        try:
            return _run_stages(store, artifacts, run_id, config)
        except (stopping.BuildStopped, Exception) as exc:
            stop = _as_stop(exc)
            if stop is None:
                raise
            record_stop(store, run_id, tracker.note(stop.cause))
            stopping.wait_for_callbacks()
            close_all_pools()  # any pool a stage thread opened after the stop callbacks ran
            if stop is exc:
                raise
            raise stop from None
        finally:
            close_shared_pools()  # the per-record tasks' pools, here and on Dask workers
            end_worker_builds()


def _as_stop(exc: BaseException) -> stopping.BuildStopped | None:
    """The stop `exc` stands for, or None for a real error.

    Failure mode: the signal handler raises `BuildStopped` wherever the main thread is; inside a library
    that wraps what its callbacks raise (pydantic's serializer, met while Prefect serialized a mapped task's
    context for Dask) it comes out as that library's error. Once a stop was requested, any error is the stop.
    """
    if isinstance(exc, stopping.BuildStopped):
        return exc
    request = stopping.requested()
    return stopping.BuildStopped(request.cause, request.exit_code) if request is not None else None


def record_stop(store: ArtifactStore, run_id: str, where) -> None:
    """Write the funnel so far with where the build stopped, and the run report. Written past the store's
    stop check on purpose: these two files describe the stop, they are not records a resume trusts."""
    funnel = runs.read_funnel(store, run_id).model_copy(update={"stopped": where})
    atomic_write_text(store.runs / run_id / runs.FUNNEL_FILE, funnel.to_json() + "\n")
    atomic_write_text(store.runs / run_id / REPORT_FILE, render_report(collect_run(store, run_id)))


def _run_stages(store: ArtifactStore, artifacts: Path, run_id: str, config: BuildConfig) -> BuildSummary:
    runs.record_configuration(store, run_id, config)
    start_worker_builds()
    funnel = Funnel(run_id=run_id)
    if runs.read_funnel(store, run_id).stopped is not None:  # resuming a stopped run: it is running again
        store.write_run_file(run_id, runs.FUNNEL_FILE,
                             runs.read_funnel(store, run_id).model_copy(update={"stopped": None}).to_json() + "\n")

    stage_clock = [time.perf_counter()]

    def record(name: str, count: StageCount | dict[str, StageCount]) -> None:
        # A resumed run finds its finished stages already in funnel.json: the file is left as it is.
        # A stage with several funnel steps (the judge stage's layers) is timed once, under its name.
        nonlocal funnel
        now = time.perf_counter()  # wall time since the previous stage ended (`build --profile`)
        add_time("build", name, now - stage_clock[0])
        stage_clock[0] = now
        steps = count if isinstance(count, dict) else {name: count}
        for step, step_count in steps.items():
            funnel = funnel.with_stage(step, step_count)
        recorded = runs.read_funnel(store, run_id).stages
        if any(recorded.get(step) != step_count for step, step_count in steps.items()):
            store.write_run_file(run_id, runs.FUNNEL_FILE, funnel.to_json() + "\n")

    record(stages.SEEDS_STAGE, seeds_task(artifacts, run_id, config))
    for stage, whole_stage in ((stages.ENHANCE_STAGE, enhance_task), (stages.COMPOSE_STAGE, compose_task)):
        if config.models.backend_for(stage) == "model":  # model work keeps its own items (pipeline/models)
            record(stage, whole_stage(artifacts, run_id, config))
        else:  # one task per seed or pair
            record(stage, synthesize_stage(artifacts, run_id, stage, config))
    if mining_configured(config.mine):  # a local folder or GitHub with a token
        record(stages.MINE_STAGE, mine_stage(artifacts, run_id, config))  # one task per repository
    if (stopped := model_stop_message(store.runs / run_id)) is not None:
        # The model budget left work undone: no gate, judges or release until a raised budget resumes the run.
        return BuildSummary(run_id=run_id, run_dir=store.runs / run_id, funnel=runs.read_funnel(store, run_id),
                            release_message=stopped)
    gate, repair = validate_task(artifacts, run_id, config)
    record(stages.VALIDATE_STAGE, gate)
    record(stages.REPAIR_STAGE, repair)
    if config.judges.enabled:  # after the gate, on its survivors only; before release
        record(stages.JUDGE_STAGE, judge_stage(artifacts, run_id, config))  # one task per survivor; a step per layer
    result = release_task(artifacts, run_id, config, funnel)
    add_time("build", "release", time.perf_counter() - stage_clock[0])
    summary = _summary(store, result)
    write_run_report(store, run_id)
    return summary
