"""One sandbox pool per process for the per-record tasks.

A mapped task handles one record, but starting a sandbox pool (and its warm workers) costs far more than a
record's work: the tasks of one process share a pool of the build's `jobs` workers (the pool is thread-safe
and makes a task wait while all its workers are busy). Under the Dask task runner every worker process gets
its own. The pools are closed when the flow ends (`close_shared_pools`, also run on each Dask worker), when
a stop closes every pool of the process (validation.sandbox.pool.close_all_pools), or at interpreter exit.
"""

from __future__ import annotations

import atexit
import sys
import threading
from pathlib import Path

from core import stopping
from validation.sandbox import Limits, SandboxPool

_lock = threading.Lock()
_pools: dict[tuple[int, Limits, str | None], SandboxPool] = {}


def shared_pool(jobs: int, limits: Limits, python: Path | str | None = None) -> SandboxPool:
    """The process's pool for these settings (`python`: the sandbox's interpreter, None: this process's),
    started on first use. After a stop nothing new starts: a pool opened then would outlive the clean-up
    that removes every worker and cgroup."""
    stopping.check()
    key = (jobs, limits, str(python) if python is not None else None)
    with _lock:
        pool = _pools.get(key)
        if pool is None:
            pool = _pools[key] = SandboxPool(jobs=jobs, limits=limits, python=python)
        return pool


@atexit.register
def close_shared_pools() -> int:
    """Close this process's shared pools; returns how many were open."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close()
    return len(pools)


def _on_workers(function, *args) -> None:  # noqa: ANN001
    """Run `function(*args)` in every worker process of the flow's Dask cluster (nothing when the flow does
    not run on Dask)."""
    from prefect.context import FlowRunContext

    runner = getattr(FlowRunContext.get(), "task_runner", None)
    client = getattr(runner, "_client", None)  # prefect-dask's client of the cluster, when on Dask
    if client is None or type(runner).__name__ != "DaskTaskRunner":
        return
    try:
        client.run(function, *args)
    except Exception as exc:  # noqa: BLE001 - a lost worker's pool and state went with it; the build goes on
        print(f"warning: Dask workers: {function.__name__} failed: {exc}", file=sys.stderr, flush=True)


def _end_on_worker(cause: str | None, exit_code: int) -> None:
    if cause is not None:  # the build was stopped: nothing a worker finishes from now on is written
        stopping.request(cause, exit_code)
    close_shared_pools()


def start_worker_builds() -> None:
    """Forget a stop an earlier build left in the workers of a long-lived cluster (see end_worker_builds)."""
    _on_workers(stopping.reset)


def end_worker_builds() -> None:
    """At the end of the flow: close the workers' shared pools (a worker's pool would otherwise live as long
    as the worker) and, when the build was stopped, stop the workers too, so that a task still running there
    writes nothing (its sandbox runs are being killed) and a resume redoes it."""
    stop = stopping.requested()
    _on_workers(_end_on_worker, stop.cause if stop else None, stop.exit_code if stop else 0)
