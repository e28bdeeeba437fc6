"""`SandboxPool`: warm sandbox workers, started on demand per profile, shared by threads.

    with SandboxPool(jobs=2) as pool:
        result = pool.run(SandboxJob(files={...}, test_file="test_x.py", coverage_file="x.py"))

Isolation, strongest first: bubblewrap (`--unshare-all`: own network, PID, IPC, UTS and user namespaces;
read-only system folders; one writable run folder; `--die-with-parent`, `--new-session`), a cgroup per
worker (pids and memory), rlimits and a per-run process group in the run process. What could not be had on
this machine is listed in `protections` (False) and copied into every GateReport.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import select
import shutil
import struct
import subprocess
import tempfile
import threading
import time
import weakref
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from validation.sandbox.cgroups import WorkerCgroup, remove_stale
from validation.sandbox.interpreter import Interpreter, interpreter_for
from validation.sandbox.job import Limits, RunResult, SandboxJob, WorkerConfig
from validation.sandbox.profiles import PROFILES, Profile

SANDBOX_ROOT = "/sandbox"  # where a worker's folder appears inside bubblewrap
FAKETIME_LIBRARY_CANDIDATES = (
    "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
    "/usr/lib/faketime/libfaketime.so.1",
)
# Distributions the run's import path may hold: pytest, coverage and what they import. Nothing else.
ALLOWED_TOP_LEVEL = ("pytest", "_pytest", "py.py", "pluggy", "iniconfig", "packaging", "pygments", "coverage")
ETC_FILES = ("passwd", "group", "hosts", "nsswitch.conf", "localtime", "ld.so.cache", "ld.so.conf", "ld.so.conf.d")
SECRET_MARKERS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL")
# Every pool not yet closed, so that a build being stopped can remove all workers at once (close_all_pools).
_OPEN_POOLS: "weakref.WeakSet[SandboxPool]" = weakref.WeakSet()


def _faketime_library() -> str | None:
    return next((p for p in FAKETIME_LIBRARY_CANDIDATES if os.path.isfile(p)), None)


def _site_packages() -> Path:
    import pytest

    return Path(pytest.__file__).resolve().parent.parent


def clean_environment(profile: Profile, home: str) -> dict[str, str]:
    """The whole environment of a worker and its runs: built from nothing, so no parent secret leaks."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "PYTHONHASHSEED": str(profile.hash_seed),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",  # only pytest's own plugins: no third-party ones from the venv
    }
    assert not any(m in k.upper() for k in env for m in SECRET_MARKERS)
    return env


def _pid_alive(pid: int) -> bool:
    return os.path.exists(f"/proc/{pid}")


def _remove_stale_leftovers() -> None:
    """Cgroups and folders of earlier pools whose process died without closing them (killed, crashed)."""
    remove_stale(_pid_alive)
    for folder in Path(tempfile.gettempdir()).glob("classeval-sandbox-*-*"):
        pid = folder.name.split("-")[2]
        if pid.isdigit() and not _pid_alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


class SandboxUnavailable(RuntimeError):
    """A sandbox worker could not be started: the machine cannot run untrusted code now, which is no
    record's fault (no record's result may say so; the run stops and resumes later)."""


class _Worker:
    """One warm worker process of one profile."""

    def __init__(self, pool: "SandboxPool", profile: Profile, index: int) -> None:
        self.pool = pool
        self.profile = profile
        self.host_dir = Path(tempfile.mkdtemp(prefix=f"{profile.name}-{index}-", dir=pool.base_dir))
        os.chmod(self.host_dir, 0o755)
        self.inner_dir = SANDBOX_ROOT if pool.use_bwrap else str(self.host_dir)
        self.cgroup: WorkerCgroup | None = None
        if pool.try_cgroups:
            cg = WorkerCgroup(f"{pool.pool_id}-{profile.name}-{index}", pool.limits.processes + 8,
                              pool.limits.memory_bytes * 2 + (512 << 20))
            self.cgroup = cg if cg.available else None
        self.fallback_setuid = None
        if profile.non_root and not pool.use_bwrap and os.getuid() == 0:
            self.fallback_setuid = 65534
        self.proc = self._start()
        self.baseline: set[int] = set()
        self.uid: int | None = None

    def wait_ready(self) -> None:
        """Wait for the worker's warm-up to finish (raises SandboxUnavailable when it does not start).

        Called by the thread that asked for the worker, not the pool's spawner thread: only the process must
        start from the long-lived thread (see `SandboxPool._spawn`), so several workers warm up at once."""
        ready = self._read(timeout=60.0)
        if not ready or ready.get("t") != "ready":
            try:  # its stdout closed as it died: give it a moment to end, so that its last words can be read
                self.proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                pass
            err = self.proc.stderr.read().decode(errors="replace")[-2000:] if self.proc.poll() is not None else ""
            self.kill()
            raise SandboxUnavailable(f"sandbox worker {self.profile.name} did not start: {err or ready}")
        said = tuple(ready.get("python") or ())
        if said != self.pool.interpreter.version:  # started something else than was asked (a moved symlink)
            self.kill()
            raise SandboxUnavailable(f"sandbox worker {self.profile.name} runs Python {said}, not the "
                                     f"{self.pool.interpreter.label} at {self.pool.interpreter.executable}")
        self.baseline = self.cgroup.pids() if self.cgroup else set()
        self.uid = ready.get("uid")

    def _command(self) -> tuple[list[str], dict[str, str]]:
        pool, profile = self.pool, self.profile
        python = pool.interpreter.executable
        home = self.inner_dir
        env = clean_environment(profile, home)
        clock_offset = None
        preload: dict[str, str] = {}
        if profile.clock_shift:
            if pool.faketime:
                preload = {"LD_PRELOAD": pool.faketime, "FAKETIME": f"{profile.clock_shift:+d}y",
                           "FAKETIME_DONT_RESET": "1"}  # faking monotonic too: DONT_FAKE_MONOTONIC breaks sleep
            else:
                clock_offset = profile.clock_shift * 365.25 * 86400
        config = WorkerConfig(env={**env, **preload}, pid_namespace=pool.use_bwrap, setuid=self.fallback_setuid,
                              clock_offset_seconds=clock_offset, native_code_dirs=list(pool.packages))
        boot = ("import sys, json; sys.path[:] = json.loads(sys.argv[2]); "
                "from validation.sandbox.worker import main; main()")
        path = [*pool.interpreter.stdlib_path, str(pool.site_dir), *pool.packages]
        argv = [python, "-S", "-s", "-B", "-c", boot, json.dumps(config.to_message()), json.dumps(path)]
        if not pool.use_bwrap:
            return argv, {**env, **preload}
        cmd = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session",
               "--hostname", profile.hostname]
        if profile.non_root:
            cmd += ["--unshare-user", "--uid", "65534", "--gid", "65534"]
        # /tmp first: later mounts land on top of it (the links folder lives under the host's /tmp).
        # /tmp is private to the worker and capped (a test writing to /tmp/x must work, not fill the host).
        cmd += ["--proc", "/proc", "--dev", "/dev", "--size", str(pool.limits.file_size_bytes * 4), "--tmpfs", "/tmp",
                "--ro-bind", "/usr", "/usr"]
        for name in ("bin", "sbin", "lib", "lib64", "lib32"):
            p = Path("/") / name
            if p.is_symlink():
                cmd += ["--symlink", os.readlink(p), str(p)]
            elif p.is_dir():
                cmd += ["--ro-bind", str(p), str(p)]
        for name in ETC_FILES:
            if os.path.exists(f"/etc/{name}"):
                cmd += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
        interpreter = pool.interpreter
        for ro in sorted({interpreter.base_prefix, interpreter.prefix, str(pool.venv_site), str(pool.validation_dir),
                          str(pool.site_dir), *pool.packages}):
            cmd += ["--ro-bind", ro, ro]
        cmd += ["--bind", str(self.host_dir), SANDBOX_ROOT, "--chdir", SANDBOX_ROOT,
                # bubblewrap builds "/" on a tmpfs; without this, writes to /etc/x or /home/x would succeed
                # (privately, and vanish) instead of failing as writes outside the sandbox should.
                "--remount-ro", "/"]
        for key, value in preload.items():
            cmd += ["--setenv", key, value]
        return cmd + argv, env

    def _start(self) -> subprocess.Popen[bytes]:
        cmd, env = self._command()
        procs = self.cgroup.procs_files() if self.cgroup else []

        def join_cgroups() -> None:  # runs in the child before exec: plain os calls only, no locks
            for path in procs:
                fd = os.open(path, os.O_WRONLY)
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)

        return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, cwd=str(self.host_dir), start_new_session=True,
                                preexec_fn=join_cgroups if procs else None)

    def _read(self, timeout: float) -> dict[str, Any] | None:
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        data = b""
        need = 4
        header_done = False
        while len(data) < need:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(fd, need - len(data))
            if not chunk:
                return None
            data += chunk
            if not header_done and len(data) == 4:
                need = 4 + struct.unpack(">I", data)[0]
                header_done = True
        return json.loads(data[4:])

    def alive(self) -> bool:
        return self.proc.poll() is None

    def run(self, job: SandboxJob) -> RunResult:
        run_host = self.host_dir / "run"
        shutil.rmtree(run_host, ignore_errors=True)
        run_host.mkdir()
        for name, text in {**job.files, "pytest.ini": "[pytest]\n"}.items():
            if "/" in name or name.startswith("."):
                raise ValueError(f"sandbox file name {name!r} must be a plain file name")
            (run_host / name).write_text(text, encoding="utf-8")
        if self.fallback_setuid is not None:
            for p in [run_host, *run_host.iterdir()]:
                os.chown(p, 65534, 65534)
        request = job.to_request(f"{self.inner_dir}/run")
        events_before = self.cgroup.max_events() if self.cgroup else 0
        body = json.dumps(request.to_message()).encode()
        try:
            self.proc.stdin.write(struct.pack(">I", len(body)) + body)
            self.proc.stdin.flush()
            reply = self._read(timeout=job.limits.wall_seconds + 30.0)
        except (BrokenPipeError, OSError):
            reply = None
        if reply is None:
            # The worker died (a run killed its parent) or stopped answering: either way it is replaced.
            code = self.proc.poll()
            stderr = b""
            if code is not None:
                try:
                    stderr = self.proc.stderr.read()
                except (OSError, ValueError):
                    pass
            self.kill()
            result = RunResult(status="worker_died", profile=self.profile.name,
                               notes=[f"the sandbox worker died or stopped answering during the run (exit {code})",
                                      stderr.decode("utf-8", "replace")[-1500:]])
        else:
            result = RunResult.from_reply(reply, self.profile.name)
        if self.cgroup:
            swept = self.cgroup.kill_except(self.baseline) if self.alive() else 0
            if swept:
                result.notes.append(f"{swept} escaped process(es) killed by cgroup sweep")
            if self.cgroup.max_events() > events_before:
                result.notes.append("process limit reached (cgroup pids.max refused a fork)")
        shutil.rmtree(run_host, ignore_errors=True)
        return result

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, 9)
        except OSError:
            pass
        try:
            self.proc.kill()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        if self.cgroup:
            self.cgroup.remove()
        shutil.rmtree(self.host_dir, ignore_errors=True)


class SandboxPool:
    """Warm sandbox workers, at most `jobs` per profile, safe to share between threads.

    `isolation`: "auto" uses bubblewrap when it runs here, "bwrap" requires it, "none" uses only rlimits,
    process groups and cgroups (for machines without user namespaces). `python`: the interpreter that runs
    the code (a path; None: this process's own), asked what it is once (`interpreter`, raises
    InterpreterError when it cannot be asked). `packages`: the code may import what that interpreter has
    installed (its site-packages folders, read-only), as evaluators running ClassEval's numpy and pandas
    tasks need; off by default, where only the standard library, pytest and coverage can be imported, so
    that a task can never come to depend on the machine that built it.
    """

    def __init__(self, jobs: int = 1, *, limits: Limits | None = None, isolation: str = "auto",
                 cgroups: bool = True, python: str | Path | None = None, packages: bool = False) -> None:
        self.jobs = max(1, int(jobs))
        self.limits = limits or Limits()
        self.interpreter: Interpreter = interpreter_for(python)
        self.packages = tuple(p for p in self.interpreter.installed if os.path.isdir(p)) if packages else ()
        self.pool_id = f"p{os.getpid()}-{int(time.time() * 1000) % 10**8}"
        _remove_stale_leftovers()
        self.base_dir = Path(tempfile.mkdtemp(prefix=f"classeval-sandbox-{os.getpid()}-"))
        os.chmod(self.base_dir, 0o755)
        self.venv_site = Path(self.interpreter.site_packages or _site_packages())
        self.validation_dir = Path(__file__).resolve().parent.parent  # the `validation` package
        self.site_dir = self._make_site_dir()
        self.faketime = _faketime_library()
        self.try_cgroups = cgroups
        self.use_bwrap = self._bwrap_works() if isolation in ("auto", "bwrap") else False
        if isolation == "bwrap" and not self.use_bwrap:
            raise RuntimeError("bubblewrap was required but does not run on this machine")
        self._lock = threading.Condition()
        self._idle: dict[str, list[_Worker]] = {name: [] for name in PROFILES}
        self._alive: dict[str, int] = {name: 0 for name in PROFILES}
        self._all: list[_Worker] = []
        self._counter = 0
        self._closed = False
        self._spawn_queue: queue.Queue[Any] = queue.Queue()
        self._spawn_thread = threading.Thread(target=self._spawner, name="sandbox-spawner", daemon=True)
        self._spawn_thread.start()
        probe = WorkerCgroup(f"{self.pool_id}-probe", 8, 1 << 30) if cgroups else None
        self._cgroups_ok = bool(probe and probe.available)
        self._cgroup_memory_ok = bool(probe and probe.memory_limited)
        if probe:
            probe.remove()
        _OPEN_POOLS.add(self)

    def _make_site_dir(self) -> Path:
        """A folder of links to pytest, coverage and their dependencies (plus this package, for the runner):
        the only non-standard-library entries of the run's import path."""
        site = self.base_dir / "site"
        site.mkdir()
        for name in ALLOWED_TOP_LEVEL:
            target = self.venv_site / name
            if target.exists():
                (site / name).symlink_to(target)
        (site / "validation").symlink_to(self.validation_dir)
        return site

    def _bwrap_works(self) -> bool:
        if shutil.which("bwrap") is None:
            return False
        try:
            done = subprocess.run(["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/",
                                   "--proc", "/proc", "--dev", "/dev", "true"],
                                  capture_output=True, timeout=20)
            return done.returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            return False

    @property
    def protections(self) -> dict[str, bool]:
        """Which protections runs of this pool have (False: missing on this machine)."""
        root = os.getuid() == 0
        return {
            "bubblewrap": self.use_bwrap,
            "network_isolated": self.use_bwrap,
            "pid_namespace": self.use_bwrap,
            "read_only_system": self.use_bwrap,
            "cgroup_pids_limit": self._cgroups_ok,
            "cgroup_memory_limit": self._cgroup_memory_ok,
            "fork_bomb_stopped": self._cgroups_ok or not root,
            "rlimits": True,
            "process_group_kill": True,
            "clean_environment": True,
            "non_root_run": self.use_bwrap or root,
            "hostname_varied": self.use_bwrap,
            "clock_shift_libfaketime": self.faketime is not None,
            "clock_shift_python_only": self.faketime is None,
            "third_party_imports_blocked": not self.packages,
        }

    def __enter__(self) -> "SandboxPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _acquire(self, profile: str) -> _Worker:
        if profile not in PROFILES:
            raise ValueError(f"unknown sandbox profile {profile!r}; known: {', '.join(PROFILES)}")
        with self._lock:
            while True:
                if self._closed:
                    raise RuntimeError("sandbox pool is closed")
                if self._idle[profile]:
                    return self._idle[profile].pop()
                if self._alive[profile] < self.jobs:
                    self._alive[profile] += 1
                    self._counter += 1
                    index = self._counter
                    break
                self._lock.wait()
        try:
            worker = self._spawn(PROFILES[profile], index)
            worker.wait_ready()
        except BaseException:
            with self._lock:
                self._alive[profile] -= 1
                self._lock.notify_all()
            raise
        with self._lock:
            if self._closed:  # closed while it started (a stopping build): it must not outlive the pool
                self._alive[profile] -= 1
                worker.kill()
                raise RuntimeError("sandbox pool is closed")
            self._all.append(worker)
        return worker

    def _spawn(self, profile: Profile, index: int) -> _Worker:
        """Start a worker from the pool's own long-lived thread.

        Failure mode this avoids: bubblewrap's --die-with-parent is PR_SET_PDEATHSIG, which fires when the
        *thread* that started the process ends; a worker started from a short-lived executor thread would
        be killed (SIGKILL) as soon as that thread finished.
        """
        future: Future[_Worker] = Future()
        self._spawn_queue.put((profile, index, future))
        return future.result()

    def _spawner(self) -> None:
        while True:
            item = self._spawn_queue.get()
            if item is None:
                return
            profile, index, future = item
            try:
                future.set_result(_Worker(self, profile, index))
            except BaseException as exc:  # noqa: BLE001 - handed to the thread that asked
                future.set_exception(exc)

    def _release(self, worker: _Worker) -> None:
        with self._lock:
            if worker.alive() and not self._closed:
                self._idle[worker.profile.name].append(worker)
            else:
                self._alive[worker.profile.name] -= 1
                if worker in self._all:
                    self._all.remove(worker)
                worker.kill()
            self._lock.notify_all()

    def spare(self, profile: str = "base") -> int:
        """How many more jobs of `profile` could start now without waiting (idle or not yet started workers)."""
        with self._lock:
            busy = self._alive[profile] - len(self._idle[profile])
            return max(0, self.jobs - busy)

    def run(self, job: SandboxJob) -> RunResult:
        """Run one job in a warm worker of its profile; blocks while all such workers are busy."""
        worker = self._acquire(job.profile)
        try:
            return worker.run(job)
        finally:
            self._release(worker)

    def close(self) -> None:
        """Kill every worker and remove its cgroup and folders; runs in flight end as `worker_died`, and
        later `run` calls raise. Safe to call twice and from another thread."""
        _OPEN_POOLS.discard(self)
        with self._lock:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
            self._lock.notify_all()
        for worker in workers:
            worker.kill()
        self._spawn_queue.put(None)
        shutil.rmtree(self.base_dir, ignore_errors=True)


def close_all_pools() -> int:
    """Close every open pool of this process (a build being stopped); returns how many were open."""
    pools = list(_OPEN_POOLS)
    for pool in pools:
        pool.close()
    return len(pools)


EXIT_SWEEP_SECONDS = 60.0


@atexit.register
def remove_own_leftovers(seconds: float = EXIT_SWEEP_SECONDS) -> None:
    """At exit: close what is still open and remove every cgroup and folder of this process's pools.

    Failure modes this covers: a stopped build's thread opened a pool after the stop closed the others (it
    is abandoned, not joined), and on a loaded machine a killed worker's processes took longer to exit than
    a pool's close waited, so its cgroup outlived the pool. The process is ending: it can wait longer.
    """
    close_all_pools()
    me = os.getpid()
    remove_stale(lambda pid: pid != me and _pid_alive(pid), seconds)
    for folder in Path(tempfile.gettempdir()).glob(f"classeval-sandbox-{me}-*"):
        shutil.rmtree(folder, ignore_errors=True)
