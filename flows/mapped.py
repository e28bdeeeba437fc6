"""The driver's Prefect executor: a stage's items as mapped Prefect tasks, one per item (a seed, a pair, a
repository, a candidate), so that the Prefect UI shows progress per record, an item that failed for a
passing reason is retried on its own, and the flow's task runner (threads, or Dask workers:
flows/runners.py) spreads the items.

There is one task for every stage: `stage_item` runs the stage's `run_one` (pipeline/stages/) on one
item, wherever the task runner put it. Each item's records are written to the artifact tree by the task
itself, so nothing large goes through Prefect results and a resumed run maps only what is missing; what
comes back is the item's small note (an id, a flag, what its model calls spent). A task whose item failed
for a passing reason (`TransientFailure`, a sandbox that did not start) is retried on its own; its last
attempt writes whatever it got as the item's data. A stopped build does not retry anything. Everything
else (done markers, resume, progress, the funnel) is the driver's (pipeline/stages/driver.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from prefect import task, unmapped
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed

from core.analysis import parse_lock
from flows.pools import shared_pool
from pipeline.stages.driver import RETRIES, RETRY_DELAY_S, RunContext, StageWork, is_retried
from validation.sandbox import SandboxPool


def _retry_transient(task, task_run, state) -> bool:  # noqa: ANN001 - Prefect's retry condition signature
    """Retry only a passing failure (pipeline.stages.driver.is_retried), never once the build is stopping. A
    sandbox still not starting on the last attempt ends the build: nothing is written for the item, so the
    rerun does it."""
    return is_retried(state.result(raise_on_failure=False))


def _last_attempt() -> bool:
    from prefect.runtime import task_run

    return task_run.run_count > RETRIES


def _pool(ctx: RunContext) -> SandboxPool:
    """The process's shared sandbox pool for the run's settings (flows/pools.py)."""
    parse_lock.install()  # the tasks of one process parse code in parallel threads (see parse_lock)
    config = ctx.config
    return shared_pool(config.jobs, config.gate.limits(), config.sandbox_python)


@task(name="stage item", cache_policy=NO_CACHE, retries=RETRIES, retry_delay_seconds=RETRY_DELAY_S,
      retry_condition_fn=_retry_transient, task_run_name="{stage.stage} {item}")
def stage_item(stage: StageWork, ctx: RunContext, item: str) -> tuple[str, Any]:
    """One item of `stage`: its records are written; the item and its note come back."""
    pool = _pool(ctx) if stage.needs_pool(ctx) else None
    with stage.open(ctx, pool) as kit:
        return item, stage.run_one(ctx, item, kit, last_attempt=_last_attempt())


class PrefectExecutor:
    """Maps `stage_item` over the items on the flow's task runner. An item that failed after its retries
    ends the build (a rerun resumes from the records written)."""

    def run(self, stage: StageWork, ctx: RunContext, items: Sequence[str],
            on_done: Callable[[str, Any], None]) -> None:
        for future in as_completed(stage_item.map(unmapped(stage), unmapped(ctx), list(items))):
            on_done(*future.result())
