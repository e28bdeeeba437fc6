"""The build flow: the stages of pipeline/stages/ in order, through the driver (pipeline/stages/driver.py) on
Prefect's executor (flows/mapped.py), and nothing else.

Prefect's result cache is off (NO_CACHE): resuming is the artifact tree's job, and hashing a configuration
for cache keys would only produce warnings.

Tasks receive and return ids and small notes, never large records, so the artifact tree stays the source of
truth and a rerun of the same run id resumes from it (each stage skips what is already written). Every item
(a seed or pair to synthesise, a repository, a candidate to gate, repair or judge) is one mapped task, so
the UI shows progress per record, a record is retried on its own, and the flow's task runner (threads, or
Dask workers: flows/runners.py) spreads them. The stages whose items share this process's state (the seeds
read once, the model backend's budget, the release) run in its threads. Mining runs when `[mine]` names a
source (a local folder, or GitHub with a token), and then first: with `[mine] as_seeds` its candidates that
pass the gate become seeds of enhance and compose.
"""

from __future__ import annotations

import logging
from pathlib import Path

from prefect import flow
from pydantic import BaseModel

from core import stopping
from core.analysis import parse_lock
from core.funnel import Funnel
from core.layout import Stage
from core.settings import Settings
from core.store import ArtifactStore, atomic_write_text
from flows.mapped import PrefectExecutor
from flows.pools import close_shared_pools, end_worker_builds, start_worker_builds
from flows.server_watch import api_url, start_watch
from flows.stop_tracking import StopTracker
from models.run_state import model_stop_message
from pipeline.report import REPORT_FILE, collect_run, render_report, write_run_report
from pipeline.stages import runs
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import Driver, RunContext
from pipeline.stages.gate import GateStage
from pipeline.stages.judge import JudgeStage
from pipeline.stages.mine import MineStage, mining_configured
from pipeline.stages.mined_seeds import MinedSeedsStage
from pipeline.stages.release import ReleaseStage
from pipeline.stages.repair import RepairStage
from pipeline.stages.runs import RunOutcome
from pipeline.stages.seeds import SeedsStage, default_run_id, load_seed_records
from pipeline.stages.synthesis import generating_stage
from validation.sandbox.pool import close_all_pools


class BuildSummary(BaseModel):
    """What a build did, printed by the CLI."""

    run_id: str
    run_dir: Path
    funnel: Funnel
    release_version: str | None = None
    release_path: Path | None = None
    release_message: str = ""
    already_finished: bool = False


def _summary(store: ArtifactStore, outcome: RunOutcome, *, already: bool = False) -> BuildSummary:
    return BuildSummary(run_id=outcome.run_id, run_dir=store.runs / outcome.run_id,
                        funnel=runs.read_funnel(store, outcome.run_id), release_version=outcome.version,
                        release_path=store.release_dir(outcome.version) if outcome.version else None,
                        release_message=outcome.sentence() if already else outcome.message, already_finished=already)


@flow(name="classeval-pro-build", log_prints=False, validate_parameters=False)
def build_flow(config: BuildConfig, run_id: str | None = None) -> BuildSummary:
    """Run every built stage in order, saving the funnel after each so an interrupted run shows how far it got.

    A finished run is left untouched and its outcome returned. Stages report their own progress
    (core/progress.py) to whatever reporter the caller installed.
    SIGINT and SIGTERM (and a lost Prefect server) stop it cleanly (core/stopping.py): the funnel then
    records where it stopped, and `BuildStopped` reaches the caller, which exits with its code.
    """
    parse_lock.install()  # a flow run in-process (not through the console entry point) parses next to threads too
    resolved = Settings.from_environment()  # the environment, read once for the whole run
    store = ArtifactStore(resolved.artifacts)
    run_id = run_id or default_run_id(config, load_seed_records(config, resolved)[1], resolved)
    if (outcome := runs.finished_outcome(store, run_id)) is not None:
        return _summary(store, outcome, already=True)
    stopping.reset()
    stopping.on_stop(close_all_pools)
    quiet_prefect_once_stopping()
    start_watch(api_url())  # ended by the caller (it must outlast Prefect's last state report)
    with stopping.stop_on_signals(), StopTracker() as tracker:
        try:
            return _run_stages(RunContext(store, run_id, config, resolved))
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


class _QuietOnceStopping(logging.Filter):
    """Drops Prefect's log records once a stop was requested: each interrupted task and the flow then log
    "Crash detected!" at ERROR, which a Ctrl-C is not; the command says in one line why and where it stopped."""

    def filter(self, record: logging.LogRecord) -> bool:
        return stopping.requested() is None


_QUIET = _QuietOnceStopping()


def quiet_prefect_once_stopping() -> None:
    """Put the filter on every handler of Prefect's loggers (configured by now: the flow has started)."""
    names = [name for name in logging.root.manager.loggerDict if name == "prefect" or name.startswith("prefect.")]
    for logger in [logging.getLogger(name) for name in names] + [logging.getLogger()]:
        for handler in logger.handlers:
            if _QUIET not in handler.filters:
                handler.addFilter(_QUIET)


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


def _run_stages(ctx: RunContext) -> BuildSummary:
    store, run_id, config = ctx.store, ctx.run_id, ctx.config
    runs.record_configuration(store, run_id, config)
    start_worker_builds()
    if runs.read_funnel(store, run_id).stopped is not None:  # resuming a stopped run: it is running again
        store.write_run_file(run_id, runs.FUNNEL_FILE,
                             runs.read_funnel(store, run_id).model_copy(update={"stopped": None}).to_json() + "\n")
    driver = Driver(ctx, PrefectExecutor())  # a stage whose items share one process's state runs in threads
    driver.run(SeedsStage())
    if mining_configured(config.mine, ctx.settings):  # a local folder or GitHub with a token
        driver.run(MineStage())  # first, so that what it finds can feed enhance and compose
        if config.mine.as_seeds:
            driver.run(MinedSeedsStage())  # gated now; the gate stage below reuses these reports
    driver.run(generating_stage(Stage.ENHANCE, config))
    driver.run(generating_stage(Stage.COMPOSE, config))
    if (stopped := model_stop_message(store.runs / run_id)) is not None:
        # The model budget left work undone: no gate, judges or release until a raised budget resumes the run.
        return BuildSummary(run_id=run_id, run_dir=store.runs / run_id, funnel=runs.read_funnel(store, run_id),
                            release_message=stopped)
    driver.run(GateStage())
    driver.run(RepairStage())
    if config.judges.enabled:  # after the gate, on its survivors only; before release
        driver.run(JudgeStage())  # a funnel step per layer
    driver.run(ReleaseStage(driver.funnel))
    summary = _summary(store, runs.finished_outcome(store, run_id))
    write_run_report(store, run_id)
    return summary
