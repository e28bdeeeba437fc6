"""Progress reporting: a stage is a `Step` that counts and times itself; a `Reporter` shows it.

Stages call `with progress.step("enhance", total=len(seeds)) as step: ... step.advance()` and never decide
how progress is shown. The command line installs one reporter for the whole process (`reporting(...)`):

- in a terminal, `RichReporter` draws a bar per step with counts, elapsed time and time left;
- otherwise (a build piped into a log file, a scheduled rebuild), `LogReporter` writes plain lines: one when
  a step starts, one when it ends, and one every N records or M seconds in between with the counts, the rate
  and the time left. A log read the next morning shows how far each stage got and how fast it went.

With no reporter installed (library use, tests), steps still count and time themselves but show nothing.
The reporter is process-wide rather than passed down as an argument because stages run inside Prefect tasks
and thread pools; one lock serialises every update, so steps may be advanced from any thread.
Records an earlier attempt already wrote are counted with `Step.resume`: they count as done but not in the
rate, so a resumed run's time left is estimated from the work it actually does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Protocol, TextIO

Clock = Callable[[], float]


class Step:
    """One stage's (or sub-stage's) progress: items done out of a total, and how long it has been running.

    `total` may be None while unknown (a generator whose length is not known yet) and grow later.
    """

    def __init__(self, name: str, total: int | None = None, *, clock: Clock = time.monotonic,
                 on_change: Callable[[Step], None] | None = None) -> None:
        self.name = name
        self.total = total
        self.done = 0
        self.resumed = 0
        self._clock = clock
        self._on_change = on_change
        self.started_at = clock()
        self.finished_at: float | None = None
        self.failed = False

    def advance(self, n: int = 1) -> None:
        """`n` more items finished by this attempt."""
        self.done += n
        self._changed()

    def resume(self, n: int) -> None:
        """`n` items an earlier attempt already finished (done, but not part of the rate)."""
        self.done += n
        self.resumed += n
        self._changed()

    def set_total(self, total: int) -> None:
        self.total = total
        self._changed()

    def finish(self, *, failed: bool = False) -> None:
        """Stop the clock (`failed`: the step was left by an error before its end)."""
        self.finished_at = self._clock()
        self.failed = failed

    @property
    def elapsed(self) -> float:
        end = self.finished_at if self.finished_at is not None else self._clock()
        return max(0.0, end - self.started_at)

    @property
    def rate(self) -> float | None:
        """Items per second done by this attempt; None until one is done."""
        worked = self.done - self.resumed
        return worked / self.elapsed if worked > 0 and self.elapsed > 0 else None

    @property
    def remaining_seconds(self) -> float | None:
        """Time left at the current rate; None when the total or the rate is not known yet."""
        if self.total is None or self.rate is None:
            return None
        return max(0, self.total - self.done) / self.rate

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self)


class Reporter(Protocol):
    """Shows steps. Every call is made under the module's lock, one at a time."""

    def started(self, step: Step) -> None: ...

    def advanced(self, step: Step) -> None: ...

    def finished(self, step: Step) -> None: ...

    def close(self) -> None: ...


def duration(seconds: float) -> str:
    """`42s`, `3m05s`, `1h02m`: short enough for a log line, exact enough for an estimate."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def counts(step: Step) -> str:
    """`12/51 (23%)`, or `12` while the total is unknown."""
    if step.total is None:
        return str(step.done)
    share = f" ({100 * step.done // step.total}%)" if step.total else ""
    return f"{step.done}/{step.total}{share}"


class LogReporter:
    """Plain lines for a log: a step's start and end, and every `every_records` items or `every_seconds`.

    `every_records=None` means a tenth of the step's total (at least one; 10 while the total is unknown).
    The time-based line is written when an item finishes, so a step whose single item takes minutes is
    silent until that item ends.
    """

    def __init__(self, stream: TextIO, *, every_records: int | None = None, every_seconds: float = 30.0,
                 clock: Clock = time.monotonic, now: Callable[[], datetime] | None = None) -> None:
        self.stream = stream
        self.every_records = every_records
        self.every_seconds = every_seconds
        self._clock = clock
        self._now = now or (lambda: datetime.now().astimezone())
        self._last: dict[int, tuple[int, float]] = {}  # id(step) -> (done, clock) at its last line

    def _line(self, step: Step, text: str) -> None:
        stamp = self._now().strftime("%Y-%m-%d %H:%M:%S")
        self.stream.write(f"{stamp} {step.name}: {text}\n")
        self.stream.flush()
        self._last[id(step)] = (step.done, self._clock())

    def started(self, step: Step) -> None:
        total = "" if step.total is None else f" ({step.total} to do)"
        self._line(step, f"started{total}")

    def advanced(self, step: Step) -> None:
        last_done, last_time = self._last.get(id(step), (0, step.started_at))
        # A tenth of the total; while the total is unknown, every 10 items (and the time-based line).
        every = self.every_records or (max(1, step.total // 10) if step.total is not None else 10)
        if step.done - last_done < every and self._clock() - last_time < self.every_seconds:
            return
        parts = [counts(step)]
        if step.resumed:
            parts.append(f"{step.resumed} from an earlier attempt")
        if step.rate is not None:
            parts.append(f"{step.rate:.2f}/s")
        if step.remaining_seconds is not None:
            parts.append(f"{duration(step.remaining_seconds)} left")
        self._line(step, ", ".join(parts))

    def finished(self, step: Step) -> None:
        verb = "stopped by an error at" if step.failed else "finished"
        done = "" if step.total is None and step.done == 0 else f" {counts(step)}"  # a step that counts nothing
        self._line(step, f"{verb}{done} in {duration(step.elapsed)}")
        self._last.pop(id(step), None)

    def close(self) -> None:
        pass


class RichReporter:
    """A bar per step in a terminal: name, bar, done/total, elapsed time, time left."""

    def __init__(self, console) -> None:  # noqa: ANN001 - a rich Console; rich is imported lazily
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bars = Progress(TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
                              TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                              console=console, transient=False)
        self._ids: dict[int, object] = {}
        self._live = False  # the bars start with the first step: a command with no step draws nothing

    def started(self, step: Step) -> None:
        if not self._live:
            self._bars.start()
            self._live = True
        self._ids[id(step)] = self._bars.add_task(step.name, total=step.total, completed=step.done)

    def advanced(self, step: Step) -> None:
        self._bars.update(self._ids[id(step)], completed=step.done, total=step.total)

    def finished(self, step: Step) -> None:
        task_id = self._ids.pop(id(step))
        total = step.total if step.total is not None else step.done
        self._bars.update(task_id, completed=step.done, total=total)
        self._bars.stop_task(task_id)

    def close(self) -> None:
        if self._live:
            self._bars.stop()


class _Silent:
    def started(self, step: Step) -> None: ...

    def advanced(self, step: Step) -> None: ...

    def finished(self, step: Step) -> None: ...

    def close(self) -> None: ...


_lock = threading.RLock()
_reporter: Reporter = _Silent()


def _notify(step: Step) -> None:
    with _lock:
        _reporter.advanced(step)


@contextmanager
def step(name: str, total: int | None = None) -> Iterator[Step]:
    """Report a step's start now, its progress as it advances, and its end when the block leaves
    (marked failed when an exception leaves it, so a log shows where a build stopped)."""
    current = Step(name, total, on_change=_notify)
    with _lock:
        _reporter.started(current)
    try:
        yield current
    except BaseException:
        with _lock:
            current.finish(failed=True)
            _reporter.finished(current)
        raise
    with _lock:
        current.finish()
        _reporter.finished(current)


def current_reporter() -> Reporter:
    """The reporter installed now (a wrapper installed over it forwards to it)."""
    with _lock:
        return _reporter


@contextmanager
def reporting(reporter: Reporter) -> Iterator[Reporter]:
    """Install `reporter` for the whole process while the block runs (the command line does this once)."""
    global _reporter
    with _lock:
        previous, _reporter = _reporter, reporter
    try:
        yield reporter
    finally:
        with _lock:
            _reporter = previous
            reporter.close()


def reporter_for(console, *, every_records: int | None = None,  # noqa: ANN001 - a rich Console
                 every_seconds: float = 30.0) -> Reporter:
    """Bars when `console` is a terminal, plain log lines on its file otherwise."""
    if console.is_terminal:
        return RichReporter(console)
    return LogReporter(console.file, every_records=every_records, every_seconds=every_seconds)
