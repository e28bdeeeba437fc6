"""The stage protocol and the one driver that runs every stage.

A stage (`StageWork`) says only what is particular to it: its name (`Stage`), what it reads, its items
(seed ids, pairs, repositories, candidate ids), the work for one item (a plain function that writes the
item's records to the store), whether an item is already written, and its summary for the funnel. The
driver (`run_stage`, and `Driver` for a whole build) owns everything else, the same way for every stage:

- done markers: a finished stage leaves `<step>.done.json` per funnel step and is not run again;
- resume: items whose records an earlier attempt wrote are skipped;
- progress (core/progress.py): one step per stage, resumed at what was written;
- stops (core/stopping.py): no new item starts once a stop is requested;
- retries: an item's work that fails for a passing reason (`TransientFailure`, a sandbox that did not
  start) is tried again, at most `RETRIES` times; its last attempt writes what it got as the item's data;
- the funnel: each stage's counts are recorded in the run's `funnel.json` as it finishes.

A command's stage over inputs it was handed (`InputStage`: the `validate`, `judge` and `release faithful`
commands) runs
through the same driver, on threads, and writes nothing.

Executors run the items and nothing else: `ThreadExecutor` here (tests, benchmarks, commands), Prefect
mapped tasks in flows/mapped.py (the build; Dask workers through prefect-dask). An item's records depend
only on the item and the run, never on the executor or on the order items finish in.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Protocol, TypeVar

from core import progress, stopping
from core.analysis import parse_lock
from core.domains import DomainRegistry
from core.funnel import Funnel, StageCount
from core.layout import Folder, Stage, done_marker
from core.records import SeedClass
from core.settings import Settings
from core.store import ArtifactStore
from core.suite_runs import RunnerUnavailable
from core.timing import add_time
from pipeline.stages import runs
from pipeline.stages.config import BuildConfig
from pipeline.stages.reuse import Reuse, on_store
from validation.sandbox import SandboxUnavailable

RETRIES = 2  # attempts after the first, per item
RETRY_DELAY_S = 1

R = TypeVar("R")
Counts = dict[str, StageCount]  # a stage's funnel steps (one for most stages, one per layer for the judges)


class TransientFailure(Exception):
    """An item's work failed for a reason a second attempt can remove; nothing of it was written."""


@dataclass
class RunContext:
    """What every stage of one run works from: the store, the run, its recorded configuration and the
    settings resolved from the environment when the run started (nothing below the driver reads the
    environment). Sent to wherever an item runs (a thread, a Prefect task, a Dask worker); the records it
    caches are read again there."""

    store: ArtifactStore
    run_id: str
    config: BuildConfig
    settings: Settings  # resolved by whoever starts the run (the flow, a command, a test): never read here

    def __getstate__(self) -> dict:
        return {k: self.__dict__[k] for k in ("store", "run_id", "config", "settings")}

    def on_store(self, store: ArtifactStore) -> RunContext:
        """This context on another store (an item's `RecordingStore`), keeping what it already read."""
        return on_store(self, store)

    @cached_property
    def seeds(self) -> tuple[SeedClass, ...]:
        """The seeds the run recorded (runs.run_seeds), read once per process."""
        return runs.run_seeds(self.store, self.run_id)

    @property
    def all_seeds(self) -> tuple[SeedClass, ...]:
        """What enhance and compose work on: the recorded seeds, then the mined classes the run took as seeds
        (runs.run_mined_seeds). Read from the store on every call, not cached: the mined ones are written by
        a stage that runs after this context was made, and a context that read them first would miss them."""
        return self.seeds + runs.run_mined_seeds(self.store, self.run_id)

    @cached_property
    def registry(self) -> DomainRegistry:
        """The domain registry the run recorded with its seeds (runs.run_registry), read once per process."""
        return runs.run_registry(self.store, self.run_id, self.settings)


class StageWork(Protocol[R]):
    """A stage: one object with its name, its inputs, its items, the work for one item and its summary."""

    stage: Stage
    reads: tuple[Stage | Folder | str, ...]  # what its items are made from (the stage table of docs/ARCHITECTURE.md)
    in_process: bool  # its items share state of this process (the corpus read once, a model budget): threads only

    def finished(self, ctx: RunContext) -> R | None:
        """The stage's result when an earlier attempt finished it (its done markers), else None."""

    def items(self, ctx: RunContext) -> list[str]:
        """The ids of the items the stage works on, in the order its records are counted."""

    def is_done(self, ctx: RunContext, item: str) -> bool:
        """Whether an earlier attempt wrote the item's records."""

    def needs_pool(self, ctx: RunContext) -> bool:
        """Whether its items run code in the sandbox (the executor then hands `open` its process's pool)."""

    def open(self, ctx: RunContext, pool: Any) -> Any:
        """A context manager for what the items of one process share (a panel, a model client)."""

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> Any:
        """The work for one item: writes its records; returns a small note for `finish` (or None)."""

    def settled(self, ctx: RunContext, item: str) -> bool:
        """Whether the item's records follow from what the run already holds, without the sandbox or a
        model (the gate's report on a candidate an earlier release holds): the driver then runs it at
        once in its own thread, with no pool, instead of handing it to the executor."""

    def waves(self, ctx: RunContext, items: Sequence[str]) -> int:
        """How many items to start at once; the driver asks `enough` after each wave."""

    def enough(self, ctx: RunContext, finished: Sequence[str]) -> bool:
        """Whether the finished items already gave the stage all it needs (no further wave starts)."""

    def finish(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> R:
        """The stage's summary from the written records of `items` (every one finished); marks it done."""


class _OneWave:
    """Defaults every stage shape shares: items run in the sandbox pool as it is, all in one wave, and none
    of them ends the stage early."""

    uses_pool: ClassVar[bool] = True  # whether its items run code in the sandbox

    def needs_pool(self, ctx: RunContext) -> bool:
        return self.uses_pool

    @contextmanager
    def open(self, ctx: RunContext, pool: Any) -> Iterator[Any]:
        yield pool

    def waves(self, ctx: RunContext, items: Sequence[str]) -> int:
        return max(1, len(items))

    def enough(self, ctx: RunContext, finished: Sequence[str]) -> bool:
        return False

    def settled(self, ctx: RunContext, item: str) -> bool:
        return False


class RecordStage(_OneWave):
    """Defaults for a stage counted in the funnel: done markers per funnel step, no shared state, one wave."""

    stage: ClassVar[Stage]
    reads: ClassVar[tuple[Stage | Folder | str, ...]] = ()
    in_process: ClassVar[bool] = False

    def steps(self, ctx: RunContext) -> tuple[str, ...]:
        """The funnel steps it counts (and leaves a done marker for)."""
        return (self.stage,)

    def finished(self, ctx: RunContext) -> Counts | None:
        counts = {step: finished_count(ctx.store, ctx.run_id, step) for step in self.steps(ctx)}
        return counts if all(c is not None for c in counts.values()) else None

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        raise NotImplementedError

    def finish(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        counts = self.count(ctx, items, notes)
        for step, count in counts.items():
            ctx.store.write_run_file(ctx.run_id, done_marker(step), count.to_json() + "\n")
        return counts


class InputStage(_OneWave):
    """Defaults for a stage of a command over inputs it was handed rather than a run's records (the
    `validate`, `judge` and `release faithful` commands): nothing is read from or written to a run, so nothing is resumed; an
    item is an input's position, its work returns the input's result as its note, and the stage's result is
    the notes in input order."""

    stage: ClassVar[Stage]
    reads: ClassVar[tuple[Stage | Folder | str, ...]] = ("the command's input",)
    in_process: ClassVar[bool] = True

    def __init__(self, inputs: Sequence[Any]) -> None:
        self.inputs = list(inputs)

    def input(self, item: str) -> Any:
        return self.inputs[int(item)]

    def finished(self, ctx: RunContext) -> list[Any] | None:
        return None

    def items(self, ctx: RunContext) -> list[str]:
        return [str(position) for position in range(len(self.inputs))]

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return False

    def finish(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> list[Any]:
        return [notes[item] for item in items]


NO_RUN = "no-run"  # the run id of a command's context: its stage reads and writes no run


def command_context(settings: Settings, config: BuildConfig | None = None) -> RunContext:
    """The context of a command's `InputStage`: no run, the settings the command resolved (the artifact
    tree's caches), and the build configuration's defaults unless given."""
    return RunContext(ArtifactStore(settings.artifacts), NO_RUN, config or BuildConfig(), settings)


def finished_count(store: ArtifactStore, run_id: str, step: str) -> StageCount | None:
    """The count a finished stage (or funnel step) left behind, so that a resumed run does not redo it."""
    path = store.runs / run_id / done_marker(step)
    return StageCount.from_json(path.read_bytes()) if path.is_file() else None


class Executor(Protocol):
    """Runs `stage.run_one` over items and hands each item's note to `on_done` as it finishes. Owns only
    where the work runs; the driver owns everything else."""

    def run(self, stage: StageWork, ctx: RunContext, items: Sequence[str],
            on_done: Callable[[str, Any], None]) -> None: ...


def is_retried(exc: BaseException) -> bool:
    """Whether an item's failure is passing (tried again while attempts remain and no stop was asked for)."""
    return stopping.requested() is None and isinstance(exc, (TransientFailure, SandboxUnavailable, RunnerUnavailable))


def with_retries(work: Callable[[bool], R]) -> R:
    """`work(last_attempt)`, tried again after a passing failure (`is_retried`), at most `RETRIES` times."""
    for attempt in range(RETRIES + 1):
        try:
            return work(attempt == RETRIES)
        except Exception as exc:
            if attempt == RETRIES or not is_retried(exc):
                raise
        time.sleep(RETRY_DELAY_S)
    raise AssertionError("unreachable")


@dataclass
class ThreadExecutor:
    """The items in `jobs` threads of this process, on one sandbox pool opened for the stage (or `pool`)."""

    jobs: int | None = None  # default: the configuration's
    pool: Any = None

    def run(self, stage: StageWork, ctx: RunContext, items: Sequence[str],
            on_done: Callable[[str, Any], None]) -> None:
        parse_lock.install()  # the threads below parse code (see core/analysis/parse_lock.py)
        jobs = max(1, self.jobs or ctx.config.jobs)
        with self._pool(stage, ctx) as pool, stage.open(ctx, pool) as kit, \
                stopping.worker_threads(jobs) as threads:
            def one(item: str) -> Any:
                stopping.check()
                return with_retries(lambda last: stage.run_one(ctx, item, kit, last_attempt=last))

            futures = {item: threads.submit(one, item) for item in items}
            for item, future in futures.items():  # a failed item ends the stage, as in every executor
                on_done(item, future.result())

    @contextmanager
    def _pool(self, stage: StageWork, ctx: RunContext) -> Iterator[Any]:
        if self.pool is not None or not stage.needs_pool(ctx):
            yield self.pool
            return
        with ctx.config.sandbox_pool() as pool:
            yield pool


def run_stage(stage: StageWork[R], ctx: RunContext, executor: Executor | None = None) -> R:
    """Run one stage to its end (or return what an earlier attempt finished), on `executor` (default:
    threads of this process)."""
    if (done := stage.finished(ctx)) is not None:
        return done
    executor = executor or ThreadExecutor()
    items = stage.items(ctx)
    notes: dict[str, Any] = {}
    finished: list[str] = []
    wave = max(1, stage.waves(ctx, items))
    reuse = Reuse.open(stage, ctx)  # results an earlier run kept for the same inputs (pipeline/stages/reuse.py)
    with progress.step(stage.stage, total=len(items)) as step:
        for start in range(0, len(items), wave):
            batch = items[start:start + wave]
            todo = [item for item in batch if not stage.is_done(ctx, item)]
            step.resume(len(batch) - len(todo))
            if todo:
                stopping.check()
                if reuse is not None:  # a reused result is counted as resumed: it is not part of the rate
                    reused = reuse.replay(todo)
                    step.resume(len(todo) - len(reused))
                    todo = reused

                def done(item: str, note: Any) -> None:
                    notes[item] = note
                    step.advance()

                todo = settle(stage, ctx, todo, done)
                if todo:
                    executor.run(stage if reuse is None else reuse.recording(todo), ctx, todo, done)
            finished += batch
            if stage.enough(ctx, finished):
                break
    if reuse is not None:
        reuse.record()
    return stage.finish(ctx, finished, notes)


def settle(stage: StageWork, ctx: RunContext, items: Sequence[str], done: Callable[[str, Any], None]) -> list[str]:
    """Run the items whose records follow from what the run holds (`stage.settled`) here, at once: a task
    of the executor each (a Prefect task run, a sandbox pool opened for nothing) cost a rebuild more than
    their work. The others are returned, for the executor."""
    settled = getattr(stage, "settled", None)  # a stage written to the protocol alone may not have it
    if settled is None:
        return list(items)
    rest = []
    for item in items:
        if settled(ctx, item):
            stopping.check()
            done(item, stage.run_one(ctx, item, None, last_attempt=True))
        else:
            rest.append(item)
    return rest


class Driver:
    """A build's run: every stage through `run_stage` on one executor, each stage's counts recorded in
    `funnel.json` as it finishes (and its wall time for `build --profile`)."""

    def __init__(self, ctx: RunContext, executor: Executor | None = None) -> None:
        self.ctx, self.executor = ctx, executor
        self.funnel = Funnel(run_id=ctx.run_id)
        self._clock = time.perf_counter()

    def run(self, stage: StageWork[Counts], executor: Executor | None = None) -> Counts:
        counts = run_stage(stage, self.ctx, executor or self._executor_for(stage))
        self.record(stage.stage, counts)
        return counts

    def _executor_for(self, stage: StageWork) -> Executor | None:
        return None if stage.in_process else self.executor

    def record(self, name: str, counts: Counts) -> None:
        """Add a finished stage's steps to the funnel; a resumed run finds them in funnel.json already and
        leaves the file as it is. A stage with several steps (the judge layers) is timed once, under its name."""
        now = time.perf_counter()
        add_time("build", name, now - self._clock)
        self._clock = now
        for step, count in counts.items():
            self.funnel = self.funnel.with_stage(step, count)
        store, run_id = self.ctx.store, self.ctx.run_id
        recorded = runs.read_funnel(store, run_id).stages
        if any(recorded.get(step) != count for step, count in counts.items()):
            store.write_run_file(run_id, runs.FUNNEL_FILE, self.funnel.to_json() + "\n")
