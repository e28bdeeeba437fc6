"""Stopping a build cleanly on SIGINT or SIGTERM (or when its Prefect server is lost).

Why a process-wide stop flag, and why the artifact store checks it: a stage runs its records on threads
(synthesis jobs, the gate's candidates), and a sandbox worker killed by the stop makes a run look failed. A
result computed after the stop must never be written as a record, or the resumed build would keep a false
rejection. So the handler sets the flag *before* anything is killed, and every record write checks it: what
was written before the stop is real, nothing after it is written at all. The next run with the same run id
resumes from the records, and so releases exactly what an uninterrupted build releases.

The handler then raises `BuildStopped` in the main thread (as Python's own SIGINT handler raises
KeyboardInterrupt), so `with SandboxPool(...)` blocks unwind and remove their workers and cgroups, and it
closes every live sandbox pool from a helper thread, so threads waiting on a sandbox run return at once and
no queued record starts new work.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

EXIT_CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}


class BuildStopped(BaseException):
    """The build was asked to stop. A BaseException so that no `except Exception` in a stage swallows it."""

    def __init__(self, cause: str, exit_code: int) -> None:
        super().__init__(cause)
        self.cause = cause
        self.exit_code = exit_code


@dataclass(frozen=True)
class StopRequest:
    """Why the build is stopping and which exit code the command ends with."""

    cause: str
    exit_code: int


_lock = threading.Lock()
_request: StopRequest | None = None
_raised = False  # BuildStopped was raised in the main thread already
_on_stop: list[Callable[[], None]] = []
_callbacks: threading.Thread | None = None
_abandoned = False  # a stop left worker threads running (see `worker_threads`)


def requested() -> StopRequest | None:
    """The pending stop request, if any."""
    return _request


def check() -> None:
    """Raise `BuildStopped` if a stop was requested: called before every record write."""
    if _request is not None:
        raise BuildStopped(_request.cause, _request.exit_code)


def request(cause: str, exit_code: int) -> StopRequest:
    """Record a stop (the first one wins) and run the stop callbacks once, on a helper thread (they kill
    processes and may block; a signal handler must not)."""
    global _request, _callbacks
    with _lock:
        first = _request is None
        if first:
            _request = StopRequest(cause, exit_code)
        callbacks = list(_on_stop) if first else []
    if callbacks:
        _callbacks = threading.Thread(target=lambda: [cb() for cb in callbacks], name="build-stop", daemon=True)
        _callbacks.start()
    return _request


def wait_for_callbacks(timeout_s: float = 60.0) -> None:
    """Wait until the stop callbacks finished (pools closed, cgroups removed) before the process may end:
    they run on a daemon thread, which an exiting interpreter would cut short."""
    if _callbacks is not None:
        _callbacks.join(timeout_s)


def reset() -> None:
    """Forget a stop request (a new build in the same process, and tests)."""
    global _request, _raised, _abandoned
    with _lock:
        _request = None
        _raised = False
        _abandoned = False


def on_stop(callback: Callable[[], None]) -> None:
    """Run `callback` (on a helper thread) when a stop is first requested."""
    with _lock:
        if callback not in _on_stop:
            _on_stop.append(callback)


def _handler(signum: int, _frame) -> None:
    global _raised
    if _raised:
        return  # already stopping: a second Ctrl-C must not interrupt the clean-up of the first
    _raised = True
    # A stop requested elsewhere first (the server watch, which interrupts the main thread to deliver it)
    # keeps its own cause and exit code.
    stop = request(f"stopped by {signal.Signals(signum).name}", EXIT_CODES.get(signal.Signals(signum), 128 + signum))
    raise BuildStopped(stop.cause, stop.exit_code)


def interrupt_main(cause: str, exit_code: int) -> None:
    """Stop the build from another thread: record why, then deliver SIGINT's handler to the main thread.

    Failure mode: `_thread.interrupt_main` only schedules the handler for the main thread's next bytecode; a
    main thread blocked in a wait (a future's result while a worker thread waits on a model answer, Prefect's
    client sleeping between retries of a dead server) would not see it until the wait ended, and the server
    watch's grace period then ended the process before the funnel recorded the stop. A real SIGINT sent to
    the main thread interrupts the wait (Python retries it after running the handler, which raises).
    """
    import _thread

    request(cause, exit_code)
    if callable(signal.getsignal(signal.SIGINT)):
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
    else:  # SIGINT ignored or left to the OS: do not kill the process, schedule the handler as Python does
        _thread.interrupt_main(signal.SIGINT)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Handle SIGINT and SIGTERM with `_handler` inside the block (main thread only; elsewhere a no-op),
    restoring the previous handlers after. Prefect installs its own SIGTERM handler when a flow starts, so
    the flow body enters this again to take SIGTERM back for the length of the build."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _handler) for s in EXIT_CODES}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextmanager
def worker_threads(max_workers: int) -> Iterator[ThreadPoolExecutor]:
    """A thread pool that a stop does not wait for.

    Failure mode: leaving a `with ThreadPoolExecutor()` block waits for every running item, and an item
    waiting on a model answer holds the stop for as long as the call's time limit (minutes, with retries).
    On `BuildStopped` the pool is shut down without waiting (queued items cancelled) and marked abandoned:
    what its threads finish later is not written (the store checks the stop), and `abandoned_threads()`
    tells the command to end the process rather than let the interpreter's exit join them.
    """
    global _abandoned
    executor = ThreadPoolExecutor(max_workers=max_workers)
    stopped = False
    try:
        yield executor
    except BuildStopped:
        stopped = _abandoned = True
        raise
    finally:
        executor.shutdown(wait=not stopped, cancel_futures=stopped)


def abandoned_threads() -> bool:
    """Whether a stop left worker threads of a `worker_threads` pool running."""
    return _abandoned
