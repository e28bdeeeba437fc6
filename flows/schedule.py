"""Scheduled rebuilds: a Prefect deployment that runs the build (and, when asked, pushes its release to the
Hub) on a cron or interval schedule, served by this process against a real Prefect server.

Each run is a build like any other, so it reuses what earlier runs computed for the same inputs (the result
store, core/results.py: on by default) and drops what the releases so far hold before the gate; after it,
the results none of the last `KEEP_RUNS` runs used are pruned, so a service's store does not grow without
end.

The scheduled flow takes only JSON-able parameters (a configuration path and a repository name) because the
server stores them with the deployment and the runner passes them to a fresh process for every run.
"""

from __future__ import annotations

import atexit
import signal
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run
from pydantic import BaseModel

from core.funnel import Funnel
from core.settings import Settings
from core.stopping import BuildStopped
from flows.build import build_flow
from pipeline.release.publish import publish
from pipeline.stages.config import load_config
from pipeline.stages.reuse import result_store

DEPLOYMENT_FLOW = "classeval-pro-scheduled-build"
KEEP_RUNS = 3  # runs whose results a scheduled build keeps: a quarter of monthly rebuilds


class ScheduledResult(BaseModel):
    """What one scheduled run did (kept by Prefect as the run's result)."""

    run_id: str
    release_version: str | None
    published: str | None = None


@task(name="publish", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=30)
def publish_task(version: str, repo: str) -> str:
    return publish(version, repo, Settings.from_environment()).message  # the token, read where it is used


def say(text: str) -> None:
    """One line of what `serve` is doing, stamped. The runner streams a run's output to the `serve` process's,
    so a line printed here by a scheduled run is what the person who started `serve` reads."""
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M:%S} UTC {text}", flush=True)


def funnel_line(funnel: Funnel) -> str:
    """'seeds 2/2, enhance 2/2, ...': what each stage accepted of what it received."""
    return ", ".join(f"{name} {count.accepted}/{count.received}" for name, count in funnel.stages.items()) or "empty"


@flow(name=DEPLOYMENT_FLOW, log_prints=False)
def scheduled_build(config_path: str | None = None, publish_repo: str | None = None) -> ScheduledResult:
    """Build with the configuration at `config_path` (the offline defaults when None); when a release was
    made and `publish_repo` is set, push it to that Hub dataset repository (token from `HF_TOKEN`).
    Says when it starts and how it ended: the release it made or why none, and the funnel. The result
    store keeps what the last runs used (`KEEP_RUNS`)."""
    name = flow_run.get_name() or "scheduled run"
    _ignore(signal.SIGINT)
    atexit.register(_ignore, signal.SIGTERM)  # Prefect's own handler is live until the process exits
    say(f"run {name} started")
    started = time.monotonic()
    try:
        config = load_config(Path(config_path) if config_path else None)
        summary = build_flow(config)
        if (results := result_store(config, Settings.from_environment())) is not None:
            results.prune(KEEP_RUNS)
        published = None
        if publish_repo and summary.release_version:
            published = publish_task(summary.release_version, publish_repo)
    except BaseException as exc:
        say(f"run {name} ended after {time.monotonic() - started:.0f} s without a release: "
            f"{exc if isinstance(exc, BuildStopped) else f'{type(exc).__name__}: {exc}'}"[:500])
        raise
    made = (f"release {summary.release_version} at {summary.release_path}" + (f", {published}" if published else "")
            if summary.release_version else summary.release_message)  # "no new release: ..." says why
    say(f"run {name} ended after {time.monotonic() - started:.0f} s: {made}; funnel: {funnel_line(summary.funnel)}")
    return ScheduledResult(run_id=summary.run_id, release_version=summary.release_version, published=published)


def _ignore(signum: signal.Signals) -> None:
    """Ignore `signum` in this run's process (main thread only: elsewhere Python refuses).

    Failure mode: the runner stops a served run with SIGTERM (serve sends it one on a Ctrl-C), and the
    terminal's SIGINT reaches the run as well (one process group). Outside the build's own handler (while
    the run starts, or once its work is over and the interpreter exits), either signal raised
    KeyboardInterrupt or Prefect's TerminationSignal wherever the interpreter was, printing a traceback
    from a weakref callback. SIGINT is ignored from the run's start (the runner's SIGTERM stops it); SIGTERM
    only at exit, since Prefect's engine restores its own handler whenever a flow of it ends. During the
    build its handler still takes both (`core/stopping.py`)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signum, signal.SIG_IGN)


def serve_schedule(*, name: str, cron: str | None, interval_s: float | None, config_path: Path | None,
                   publish_repo: str | None) -> None:
    """Register the deployment and run its scheduled runs until interrupted (one build at a time)."""
    parameters = {"config_path": str(config_path.resolve()) if config_path else None, "publish_repo": publish_repo}
    # Prefect's own starting message names a `prefect deployment run` command that fails from another shell
    # (it needs PREFECT_API_URL): the command prints one that works instead.
    scheduled_build.serve(name=name, cron=cron, interval=interval_s, parameters=parameters, limit=1,
                          description="Scheduled classeval-pro rebuild", tags=["classeval-pro"],
                          print_starting_message=False)
