"""Task runners for the per-record tasks: threads on this machine (the default) or a Dask cluster.

Dask spreads the mapped tasks (synthesis per seed and pair, the gate per candidate) over worker processes,
on this machine (a `LocalCluster` started for the build) or on other machines (`--dask-address
tcp://HOST:PORT` of a running scheduler). Every worker runs its own sandbox pool (flows/pools.py) and reads
and writes the artifact tree itself, so on more than one machine `CLASSEVAL_PRO_ARTIFACTS` must name
storage every worker shares, at the same path.

Failure mode handled here: a Dask worker runs Prefect's task engine, which reports each task run to the
Prefect API. A worker process without `PREFECT_API_URL` starts a temporary Prefect server of its own (its
task runs then land in another database, and the server outlives the build). The flow's API is therefore
put into the environment the workers inherit before the cluster starts; a remote cluster needs a server
its machines can reach, which a temporary server on 127.0.0.1 is not.
"""

from __future__ import annotations

import os
from enum import Enum

from core.errors import InputError
from flows.server_watch import api_url


class RunnerKind(str, Enum):
    THREAD = "thread"
    DASK = "dask"


def task_runner(kind: RunnerKind, *, jobs: int, dask_address: str | None = None, dask_workers: int = 2):  # noqa: ANN201
    """The Prefect task runner for `kind`. At most `jobs` records run at once per process (they share a
    pool of `jobs` sandbox workers); on Dask, a LocalCluster of `dask_workers` processes is started unless
    `dask_address` names a scheduler. Call `share_api_with_workers()` first for Dask."""
    if kind is RunnerKind.THREAD:
        if dask_address:
            raise InputError("--dask-address needs --task-runner dask")
        from prefect.task_runners import ThreadPoolTaskRunner

        return ThreadPoolTaskRunner(max_workers=max(1, jobs))
    # distributed logs every connection and worker start at INFO on stderr, which buries the build's own lines.
    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "warning")
    try:
        from prefect_dask import DaskTaskRunner
    except ImportError:
        raise InputError("--task-runner dask needs prefect-dask (pip install -e '.[dask]')") from None
    if dask_address:
        return DaskTaskRunner(address=dask_address)
    return DaskTaskRunner(cluster_kwargs={"n_workers": dask_workers, "threads_per_worker": max(1, jobs),
                                          "processes": True, "dashboard_address": None})


def share_api_with_workers(kind: RunnerKind, dask_address: str | None) -> None:
    """Put the Prefect API this process uses into the environment Dask workers inherit (see the module
    docstring). Starts the temporary server now when none is configured, so that its address is known."""
    if kind is not RunnerKind.DASK:
        return
    if dask_address and not os.environ.get("PREFECT_API_URL"):
        raise InputError("--dask-address needs PREFECT_API_URL: a Prefect server the Dask workers reach too "
                         "(the temporary server listens on 127.0.0.1 of this machine only)")
    url = api_url()
    if url:
        os.environ["PREFECT_API_URL"] = url


def runner_from_options(kind: str, *, jobs: int, dask_address: str | None = None, dask_workers: int = 2):  # noqa: ANN201
    """The task runner the build command's options ask for, with the Prefect API shared with Dask workers."""
    try:
        runner_kind = RunnerKind(kind)
    except ValueError:
        raise InputError(f"--task-runner {kind!r}: choose one of {', '.join(k.value for k in RunnerKind)}") from None
    runner = task_runner(runner_kind, jobs=jobs, dask_address=dask_address, dask_workers=dask_workers)
    share_api_with_workers(runner_kind, dask_address)
    return runner
