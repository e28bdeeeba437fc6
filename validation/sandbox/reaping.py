"""Killing a changing set of processes until none of it is left.

Standard library only: the warm worker imports it inside the sandbox, where nothing else is on the path.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable


def kill_until_gone(listed: Callable[[], set[int]], keep: set[int], rounds: int) -> int:
    """SIGKILL every process `listed()` names that is not in `keep`, then list again, until none is left or
    `rounds` listings have passed; returns how many kills were sent.

    Failure mode: a fork bomb adds processes between one listing and the kills, so one pass is not enough;
    a process that ends on its own between listing and kill is simply gone.
    """
    killed = 0
    for _ in range(rounds):
        victims = listed() - keep
        if not victims:
            break
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
        time.sleep(0.01)
    return killed
