"""A cgroup per warm worker: caps the number of processes (a fork bomb stops even when it runs as root,
where RLIMIT_NPROC is ignored) and the memory of all of a worker's processes together, and lists every
process the worker's runs left behind so that they can be killed.

Written by hand because no maintained library drives cgroup v1 controllers from Python; the files used
are the kernel's documented interface. cgroup v1 (`/sys/fs/cgroup/pids`, `/sys/fs/cgroup/memory`) is what
this project's machines have; cgroup v2 (one unified tree) is used when it is the mounted one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from validation.sandbox.reaping import kill_until_gone

ROOT = Path("/sys/fs/cgroup")
GROUP = "classeval-pro-sandbox"
REMOVE_SECONDS = 10.0


class WorkerCgroup:
    """The pids (and memory) cgroup of one worker. `available` is False when it could not be made."""

    def __init__(self, name: str, max_pids: int, memory_bytes: int) -> None:
        self.dirs: list[Path] = []
        self.pids_dir: Path | None = None
        self.memory_limited = False
        self.v2 = (ROOT / "cgroup.controllers").is_file()
        try:
            if self.v2:
                d = ROOT / GROUP / name
                d.mkdir(parents=True, exist_ok=True)
                (d / "pids.max").write_text(str(max_pids))
                self.pids_dir = d
                self.dirs.append(d)
                try:
                    (d / "memory.max").write_text(str(memory_bytes))
                    self.memory_limited = True
                except OSError:
                    pass
            else:
                d = ROOT / "pids" / GROUP / name
                d.mkdir(parents=True, exist_ok=True)
                (d / "pids.max").write_text(str(max_pids))
                self.pids_dir = d
                self.dirs.append(d)
                try:
                    m = ROOT / "memory" / GROUP / name
                    m.mkdir(parents=True, exist_ok=True)
                    (m / "memory.limit_in_bytes").write_text(str(memory_bytes))
                    self.dirs.append(m)
                    self.memory_limited = True
                except OSError:
                    pass
        except OSError:
            self.pids_dir = None

    @property
    def available(self) -> bool:
        return self.pids_dir is not None

    def procs_files(self) -> list[str]:
        """Paths to write a pid into to join every controller (used from a child before exec)."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    def pids(self) -> set[int]:
        if self.pids_dir is None:
            return set()
        try:
            return {int(x) for x in (self.pids_dir / "cgroup.procs").read_text().split()}
        except OSError:
            return set()

    def max_events(self) -> int:
        """How often the pids limit refused a fork so far."""
        if self.pids_dir is None:
            return 0
        try:
            for line in (self.pids_dir / "pids.events").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "max":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def kill_except(self, keep: set[int]) -> int:
        """SIGKILL every process in the group that is not in `keep`, until none is left."""
        return kill_until_gone(self.pids, keep, rounds=100)

    def remove(self, seconds: float = REMOVE_SECONDS) -> None:
        """Kill what is left in the group and remove its folders. A group cannot be removed while a killed
        process is still exiting, which on a loaded machine takes seconds, not the moment it took when idle:
        retried (killing again) until `seconds` have passed, else the group outlives the pool."""
        deadline = time.monotonic() + seconds
        for d in reversed(self.dirs):
            while True:
                self.kill_except(set())
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.05)  # processes still exiting


def remove_stale(alive: Callable[[int], bool], seconds: float = REMOVE_SECONDS) -> int:
    """Remove the cgroups of pools whose process is gone (a pool killed before it could close): their
    leftover processes are killed first. Group names start with `p<pid>-`. Returns how many were removed."""
    removed = 0
    for hierarchy in (ROOT / "pids" / GROUP, ROOT / "memory" / GROUP, ROOT / GROUP):
        if not hierarchy.is_dir():
            continue
        for d in hierarchy.iterdir():
            head = d.name.split("-", 1)[0]
            if not d.is_dir() or not head.startswith("p") or not head[1:].isdigit() or alive(int(head[1:])):
                continue
            stale = WorkerCgroup.__new__(WorkerCgroup)
            stale.dirs, stale.pids_dir, stale.memory_limited, stale.v2 = [d], d, False, False
            stale.remove(seconds)
            removed += not d.exists()
    return removed
