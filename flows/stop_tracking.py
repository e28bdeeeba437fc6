"""Where a build was when it stopped, for the funnel's stop note.

The stages report their steps to the process's progress reporter (core/progress.py). While a build
runs, this reporter sits in front of that one: it passes every event on unchanged and remembers the first
step that ended in failure once a stop was requested. That is the innermost step the stop interrupted
(steps unwind inside out), or the innermost step still open, with how many of its records were done.
"""

from __future__ import annotations

from core import progress, stopping
from core.funnel import StopNote
from core.progress import Step


class StopTracker:
    """A progress reporter that forwards to the one installed before it and notes where a stop landed."""

    def __init__(self) -> None:
        self._inner = progress.current_reporter()
        self._interrupted: Step | None = None
        self._open: list[Step] = []
        self._context = None

    def __enter__(self) -> StopTracker:
        self._context = progress.reporting(self)
        self._context.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._context.__exit__(*exc)

    def started(self, step: Step) -> None:
        self._open.append(step)
        self._inner.started(step)

    def advanced(self, step: Step) -> None:
        self._inner.advanced(step)

    def finished(self, step: Step) -> None:
        if step.failed and self._interrupted is None and stopping.requested() is not None:
            self._interrupted = step
        if step in self._open:
            self._open.remove(step)
        self._inner.finished(step)

    def close(self) -> None:
        """The caller that installed the inner reporter closes it; this one holds nothing of its own."""

    def note(self, cause: str) -> StopNote:
        # A stage running in a task thread may not have unwound yet when the flow records the stop: then
        # the innermost step still open is where it stopped.
        step = self._interrupted or (self._open[-1] if self._open else None)
        if step is None:
            return StopNote(cause=cause)
        return StopNote(cause=cause, stage=step.name, done=step.done, total=step.total)
