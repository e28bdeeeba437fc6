"""The warm worker: a long-lived process inside the sandbox that has pytest and coverage imported and forks
one run process per job.

Why a worker: starting Python and importing pytest costs far more than the tests of one class take to run
(measured on a 2-core machine: ~650 ms for a fresh `coverage run -m pytest`, ~150-250 ms for a fork of a warm parent). The
worker itself never runs untrusted code; it forks, waits with a deadline, kills the run's process group (and,
inside its own PID namespace, every other process but itself), and reports.

Protocol on the worker's original stdin/stdout: 4-byte big-endian length + JSON, one request (a `RunRequest`),
one reply (a `RunResult`); see `validation.sandbox.job`. The run process reports to the worker on a pipe, one
JSON object a line, each checked here field by field (the code under test can write to that pipe too).
Started by `validation.sandbox.pool` as `python -S -s -B -c <bootstrap> <WorkerConfig-json>` with a clean
environment; its import path is the standard library plus a folder of links to pytest, coverage and their
dependencies, so an undeclared third-party import fails in the run, as it would on a clean machine.
"""

from __future__ import annotations

import errno
import hashlib
import importlib
import json
import os
import pkgutil
import secrets
import select
import signal
import struct
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from validation.sandbox.child import run_child
from validation.sandbox.integrity import prepare
from validation.sandbox.job import Limits, RunRequest, RunResult, TestResult, WorkerConfig
from validation.sandbox.reaping import kill_until_gone

CTL_IN = 0
CTL_OUT = 1
MAX_MESSAGES_BYTES = 64 << 20  # a run that floods the result channel is killed


def _warm_up() -> None:
    """Import, once, everything a run would otherwise import on every fork."""
    import _pytest
    import coverage
    import pytest  # noqa: F401

    for info in pkgutil.walk_packages(_pytest.__path__, "_pytest."):
        try:
            importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - optional parts (e.g. for other platforms)
            pass
    for name in ("coverage.jsonreport", "coverage.results", "coverage.python", "coverage.parser",
                 "coverage.html", "coverage.report"):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001
            pass
    coverage.Coverage  # noqa: B018
    # The worker's own modules, imported only here: the worker process sets its path at boot, and what is
    # imported before prepare() is part of the grading machinery's snapshot, so a forked run starts warm.
    import validation.sandbox.child  # noqa: F401
    import validation.sandbox.clock  # noqa: F401
    import validation.sandbox.interaction  # noqa: F401
    prepare()  # the snapshot of the grading machinery includes everything imported above
    _freeze_heap()


def _freeze_heap() -> None:
    """Move every object of the warm-up into the collector's permanent generation.

    Why: a forked run shares the worker's heap, and every full collection in it walks (and, by touching
    object headers, copies page by page) everything the warm-up imported. pytest collects at the end of
    each session (its unraisable-exception plugin calls `gc.collect()` several times): measured on the
    seeds, that was 40 of a session's 110 ms; frozen, the collections see only what the run itself made.
    The frozen objects live as long as the worker anyway, so nothing that could be freed is kept.
    """
    import gc

    gc.collect()
    gc.freeze()


def _read_exact(fd: int, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = os.read(fd, n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def read_message(fd: int) -> dict[str, Any] | None:
    header = _read_exact(fd, 4)
    if header is None:
        return None
    body = _read_exact(fd, struct.unpack(">I", header)[0])
    return None if body is None else json.loads(body)


def write_message(fd: int, message: dict[str, Any]) -> None:
    body = json.dumps(message, default=str).encode("utf-8")
    data = struct.pack(">I", len(body)) + body
    while data:
        data = data[os.write(fd, data):]


def _sweep_namespace() -> int:
    """Kill every process of this PID namespace except its init and this worker (a fork bomb's children
    may have left the run's process group with setsid). Returns how many were killed."""
    return kill_until_gone(lambda: {int(p) for p in os.listdir("/proc") if p.isdigit()}, {1, os.getpid()}, rounds=50)


def _read_output(path: str, limit: int) -> tuple[str, int]:
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            if size <= limit:
                return handle.read().decode("utf-8", "replace"), size
            head = handle.read(limit // 2)
            handle.seek(size - limit // 2)
            tail = handle.read()
        return (head.decode("utf-8", "replace") + f"\n[... {size - limit} bytes cut ...]\n"
                + tail.decode("utf-8", "replace")), size
    except OSError:
        return "", 0


def run_job(request: RunRequest, config: WorkerConfig) -> RunResult:
    nonce = secrets.token_hex(16)
    hashes = _hashes(request.run_dir, request.protected_files)
    limits = request.limits
    started = time.monotonic()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.close(CTL_IN)
        os.close(CTL_OUT)
        run_child(request, config, nonce, write_end)  # never returns
    os.close(write_end)
    deadline = started + float(limits.wall_seconds)
    buffer = bytearray()
    eof = False
    status: int | None = None
    timed_out = flooded = False
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        if not eof:
            ready, _, _ = select.select([read_end], [], [], min(remaining, 0.2))
            if ready:
                chunk = os.read(read_end, 1 << 16)
                if chunk:
                    buffer += chunk
                    if len(buffer) > MAX_MESSAGES_BYTES:
                        flooded = True
                        break
                else:
                    eof = True
        else:
            time.sleep(0.002)
        done, wait_status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            status = wait_status
            break
    if status is None:
        for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                target()
            except OSError:
                pass
        _, status, usage = os.wait4(pid, 0)
    # Drain what the run wrote before it ended (it may not have closed its end if a grandchild kept it).
    while not flooded:
        ready, _, _ = select.select([read_end], [], [], 0)
        if not ready:
            break
        chunk = os.read(read_end, 1 << 16)
        if not chunk:
            break
        buffer += chunk
        flooded = len(buffer) > MAX_MESSAGES_BYTES
    os.close(read_end)
    try:
        os.killpg(pid, signal.SIGKILL)  # background processes the run left in its group
    except OSError:
        pass
    swept = _sweep_namespace() if config.pid_namespace else 0
    result = _assemble(bytes(buffer), status, timed_out, flooded, swept, request, time.monotonic() - started, nonce)
    # CPU seconds of the run's process and of what it forked and waited for (a mutant run's per-mutant
    # processes): unlike wall time, a figure that other load on a shared machine barely moves.
    result.cpu_seconds = round(usage.ru_utime + usage.ru_stime, 4)
    after = _hashes(request.run_dir, request.protected_files)
    result.tampering += [f"the harness's file {name} was changed during the run"
                         for name in sorted(hashes) if after.get(name) != hashes[name]]
    return result


def _hashes(run_dir: str, names: tuple[str, ...]) -> dict[str, str | None]:
    """sha256 of each protected file of the run (None: absent). Taken by the worker, outside the tested
    process, before and after the run: an edited test file is noticed even if every message looked right."""
    out: dict[str, str | None] = {}
    for name in names:
        try:
            with open(os.path.join(run_dir, str(name)), "rb") as handle:
                out[str(name)] = hashlib.sha256(handle.read()).hexdigest()
        except OSError:
            out[str(name)] = None
    return out


@dataclass
class _Messages:
    """What the run's messages said, read in the order they came."""

    collected: list[str] = field(default_factory=list)
    tests: dict[str, TestResult] = field(default_factory=dict)
    collection_errors: list[TestResult] = field(default_factory=list)
    running: str | None = None  # the test started and not reported
    done: dict[str, Any] | None = None  # the session-complete record
    crash: str = ""
    mutants: list[dict[str, Any]] = field(default_factory=list)
    floods: list[str] = field(default_factory=list)  # tests whose captured output neared the file size limit
    tampering: list[str] = field(default_factory=list)

    def take(self, kind: Any, msg: dict[str, Any], request: RunRequest) -> None:
        """One message of the harness (its nonce already checked)."""
        if self.done is not None:
            self.tampering.append(f"a {kind!s:.20} message arrived after the session-complete record")
            return
        if kind == "tamper":
            self.tampering.append(str(msg.get("what", ""))[:300])
            return
        if kind == "test" and str(msg.get("test_id")) in self.tests:
            self.tampering.append(f"two reports for one test: {str(msg.get('test_id'))[:200]}")
        if kind == "collected" and isinstance(msg.get("ids"), list):
            self.collected = [str(i) for i in msg["ids"]]
        elif kind == "start":
            self.running = str(msg.get("id"))
        elif kind == "test":
            self.tests[str(msg.get("test_id"))] = TestResult(str(msg.get("test_id")), str(msg.get("outcome")),
                                                             str(msg.get("reason", "")), msg.get("raised"))
            if isinstance(msg.get("captured"), int) and msg["captured"] >= int(request.limits.file_size_bytes) // 2:
                self.floods.append(str(msg.get("test_id")))
            if self.running == msg.get("test_id"):
                self.running = None
        elif kind == "collect_error":
            self.collection_errors.append(TestResult(str(msg.get("test_id")), "error", str(msg.get("reason", ""))))
        elif kind == "mutant":
            self.mutants.append({"id": str(msg.get("id")), "killed": bool(msg.get("killed")),
                                 "why": str(msg.get("why")), "switched": bool(msg.get("switched"))})
        elif kind == "done":
            self.done = msg
        elif kind == "crash":
            self.crash = str(msg.get("reason", ""))


def _read_messages(buffer: bytes, nonce: str, request: RunRequest) -> _Messages:
    """The harness's messages in the result channel. Only the harness knows the run's nonce: a message
    without it was written by the code under test, and is counted as tampering, never read."""
    messages = _Messages()
    forged = 0
    for line in buffer.split(b"\n"):
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue  # a test wrote garbage into the channel; its outcome is judged by what is missing
        if not isinstance(msg, dict):
            continue
        if msg.get("n") != nonce:
            forged += 1
            continue
        messages.take(msg.get("t"), msg, request)
    if forged:
        messages.tampering.append(f"{forged} message(s) on the result channel did not come from the harness")
    return messages


def _run_status(messages: _Messages, status: int, timed_out: bool, flooded: bool,
                limits: Limits) -> tuple[str, str]:
    """The run's status and why it is not `completed` (empty when it is)."""
    if flooded:
        return "killed", "run flooded the result channel"
    if timed_out:
        return "timeout", f"run exceeded the wall limit of {float(limits.wall_seconds):g} s"
    if messages.done is not None:
        return "completed", ""
    if os.WIFSIGNALED(status):
        signal_number = os.WTERMSIG(status)
        name = signal.Signals(signal_number).name if signal_number in signal.valid_signals() else str(signal_number)
        hint = {"SIGXCPU": " (CPU limit)", "SIGKILL": " (killed: memory or process limit?)",
                "SIGXFSZ": " (file size limit)"}.get(name, "")
        why = f"run process killed by {name}{hint}"
    else:
        exit_code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        why = f"run process exited with status {exit_code} before pytest finished"
    if messages.crash:
        why += f": {messages.crash}"
    return "killed", why


def _assemble(buffer: bytes, status: int, timed_out: bool, flooded: bool, swept: int,
              request: RunRequest, duration: float, nonce: str = "") -> RunResult:
    messages = _read_messages(buffer, nonce, request)
    done, tests = messages.done, messages.tests
    if done is None and not messages.crash and not timed_out and not flooded and os.WIFEXITED(status):
        # The harness ends a run only after its session-complete record (or a crash report): a process that
        # exited without either was ended by the code under test (os._exit, an exec'd program).
        messages.tampering.append(f"the run process exited with status {os.WEXITSTATUS(status)} before the "
                                  "session completed")
    limits = request.limits
    notes: list[str] = []
    signal_number = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    exit_code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    run_status, why = _run_status(messages, status, timed_out, flooded, limits)
    if messages.running is not None and messages.running not in tests:
        outcome = "timeout" if run_status == "timeout" else "killed"
        tests[messages.running] = TestResult(messages.running, outcome, why)
    if why:
        notes.append(why)
    if swept:
        notes.append(f"{swept} leftover process(es) killed after the run")
    output, size = _read_output(os.path.join(request.run_dir, ".output"), int(limits.output_bytes))
    if size > int(limits.output_bytes):
        notes.append(f"output truncated ({size} bytes)")
    if size >= int(limits.file_size_bytes) or messages.floods:
        notes.append("output reached the file size limit"
                     + (f" ({', '.join(messages.floods[:5])})" if messages.floods else ""))
    return RunResult(
        status=run_status,
        exit_code=done.get("exit_code") if done else exit_code,
        signal=signal_number,
        collected=messages.collected,
        tests=list(tests.values()),
        collection_errors=messages.collection_errors,
        coverage=done.get("coverage") if done else None,
        trace=done.get("trace") if done else None,
        output=output,
        duration_seconds=duration,
        notes=notes,
        mutants=messages.mutants,
        tampering=messages.tampering,
    )


def main() -> None:
    config = WorkerConfig.from_message(json.loads(sys.argv[1]))
    # Keep the control channel on private descriptors; stray prints of the worker go to stderr.
    global CTL_IN, CTL_OUT
    CTL_IN, CTL_OUT = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    _warm_up()
    write_message(CTL_OUT, {"t": "ready", "pid": os.getpid(), "uid": os.getuid(), "python": list(sys.version_info[:3])})
    while True:
        try:
            message = read_message(CTL_IN)
        except OSError as exc:
            if exc.errno == errno.EINTR:
                continue
            return
        if message is None:
            return
        try:
            reply = run_job(RunRequest.from_message(message), config)
        except Exception as exc:  # noqa: BLE001 - the worker must answer every request
            import traceback

            reply = RunResult(status="error", notes=[f"worker: {type(exc).__name__}: {exc}",
                                                     traceback.format_exc()[-1500:]])
        write_message(CTL_OUT, reply.to_message())


if __name__ == "__main__":
    main()
