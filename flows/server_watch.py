"""Ending a build whose Prefect server went away, instead of letting it hang.

Failure mode: the flow's state reports go to the Prefect API, and its client retries a refused connection
with exponential back-off (about a minute per request, for every request that follows). When that server
dies (the temporary server killed with its process group, a real one restarted), a build once hung there
until it was killed with SIGKILL. A watch thread asks the server's health endpoint every few seconds; after
several failures in a row it stops the build like a signal would (records so far kept, sandbox workers
removed) with exit code 1 and a message naming the server. If Prefect's own clean-up then keeps retrying
the dead server, the watch ends the process after a grace period: the records are already safe on disk.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from core import stopping
from flows.server import is_healthy
from validation.sandbox.pool import remove_own_leftovers

LOST_SERVER_EXIT = 1
GRACE_S = 30.0  # time the main thread gets to unwind (close pools, write the funnel) after the stop

_watch: threading.Event | None = None


def api_url() -> str | None:
    """The API the flow is talking to: PREFECT_API_URL, or the temporary server Prefect started."""
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        return str(client.api_url)


def start_watch(url: str | None, *, interval_s: float = 3.0, failures: int = 5, timeout_s: float = 10.0) -> None:
    """Watch `url` until `stop_watch()` (or the process ends); a second call while watching is a no-op.

    A dead server refuses connections at once (stopped after about `failures * interval_s`); a busy one on
    a loaded machine may be slow, so one slow answer is not a loss: only `failures` misses in a row are.
    """
    global _watch
    if not url or _watch is not None:
        return
    done = _watch = threading.Event()

    def watch() -> None:
        import httpx

        with httpx.Client() as client:
            _watch_with(client)

    def _watch_with(client: Any) -> None:
        misses = 0
        while not done.wait(interval_s):
            misses = 0 if is_healthy(url, timeout_s=timeout_s, client=client) else misses + 1
            if misses >= failures:
                cause = f"lost the Prefect server at {url} (it failed {failures} health checks in a row)"
                stopping.interrupt_main(cause, LOST_SERVER_EXIT)
                if not done.wait(GRACE_S):
                    print(f"error: {cause}; finished records are kept: rerun the same command to resume",
                          file=sys.stderr, flush=True)
                    remove_own_leftovers()  # os._exit runs no exit handler: the sandbox's is run here
                    os._exit(LOST_SERVER_EXIT)
                return

    threading.Thread(target=watch, name="prefect-server-watch", daemon=True).start()


def stop_watch() -> None:
    global _watch
    if _watch is not None:
        _watch.set()
        _watch = None
