"""The code that runs inside a forked run process: limits, clean environment, then pytest (and coverage).

This module is imported by the warm worker before it forks, so that a run pays no import cost; it uses only
the standard library, pytest and coverage, which is all the sandbox's import path holds. Everything here
runs in the same process as the untrusted code once `pytest.main` starts: the messages it writes to the
worker are treated by the worker as untrusted input.
"""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import sys
import time
from typing import Any

import coverage
import pytest

MAX_REASON = 300


class SandboxTestTimeout(BaseException):
    """Raised by the per-test timer. A BaseException so that a test's `except Exception` cannot swallow it."""


def _send(fd: int, message: dict[str, Any]) -> None:
    data = (json.dumps(message, default=str) + "\n").encode("utf-8")
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except InterruptedError:
            continue
        except OSError:
            return  # the worker is gone or the test closed our channel: nothing to report to
        view = view[written:]


def _short_reason(report: Any) -> str:
    longrepr = report.longrepr
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (path, line, message)
        return str(longrepr[2])[:MAX_REASON]
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return str(crash.message).splitlines()[0][:MAX_REASON] if str(crash.message) else ""
    text = str(longrepr)
    # Collection errors carry only text: the last "E   ..." line names the exception.
    error_lines = [line[1:].strip() for line in text.splitlines() if line.startswith("E ")]
    return (error_lines[-1] if error_lines else text.strip().splitlines()[-1] if text.strip() else "")[:MAX_REASON]


class RunPlugin:
    """Reports each test's outcome to the worker as it happens, shuffles/selects tests, times tests out,
    and switches coverage contexts so that each line knows which tests ran it."""

    def __init__(self, fd: int, request: dict[str, Any], cov: coverage.Coverage | None) -> None:
        self.fd = fd
        self.request = request
        self.cov = cov
        self.outcomes: dict[str, tuple[str, str]] = {}

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        select = self.request.get("select")
        if select is not None:
            wanted = set(select)
            kept = [item for item in items if item.nodeid in wanted]
            dropped = [item for item in items if item.nodeid not in wanted]
            if dropped:
                config.hook.pytest_deselected(items=dropped)
            items[:] = kept
        seed = self.request.get("shuffle_seed")
        if seed is not None:
            random.Random(seed).shuffle(items)

    def pytest_collection_finish(self, session: Any) -> None:
        _send(self.fd, {"t": "collected", "ids": [item.nodeid for item in session.items]})

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            _send(self.fd, {"t": "collect_error", "test_id": report.nodeid or self.request["test_file"],
                            "outcome": "error", "reason": _short_reason(report)})

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
        _send(self.fd, {"t": "start", "id": item.nodeid})
        limit = float(self.request["limits"]["per_test_seconds"])

        def on_alarm(signum: int, frame: Any) -> None:
            raise SandboxTestTimeout(f"test exceeded {limit:g} s")

        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
        if self.cov is not None and self.request.get("per_test_contexts"):
            self.cov.switch_context(item.nodeid)
        try:
            return (yield)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if self.cov is not None and self.request.get("per_test_contexts"):
                self.cov.switch_context("")
            outcome, reason = self.outcomes.get(item.nodeid, ("error", "no report"))
            _send(self.fd, {"t": "test", "test_id": item.nodeid, "outcome": outcome, "reason": reason})

    def pytest_runtest_logreport(self, report: Any) -> None:
        previous = self.outcomes.get(report.nodeid)
        reason = _short_reason(report)
        if report.when == "call" or (report.when == "setup" and not report.passed):
            if report.passed:
                outcome = "passed"
            elif report.skipped:
                outcome = "skipped"
            elif report.when == "setup":
                outcome = "error"
            else:
                outcome = "failed"
            if "SandboxTestTimeout" in reason or "SandboxTestTimeout" in str(report.longrepr or "")[-2000:]:
                outcome = "timeout"
            self.outcomes[report.nodeid] = (outcome, reason)
        elif report.when == "teardown" and report.failed and (previous is None or previous[0] == "passed"):
            self.outcomes[report.nodeid] = ("error", "teardown: " + reason)


def _apply_limits(limits: dict[str, Any]) -> None:
    def cap(kind: int, value: int) -> None:
        try:
            hard = resource.getrlimit(kind)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):
            pass  # the limit stays as inherited; the pool-level protections still hold

    cap(resource.RLIMIT_AS, int(limits["memory_bytes"]))
    cpu = int(limits["cpu_seconds"])
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))  # SIGXCPU first, SIGKILL two seconds later
    except (ValueError, OSError):
        pass
    cap(resource.RLIMIT_FSIZE, int(limits["file_size_bytes"]))
    cap(resource.RLIMIT_NOFILE, int(limits["open_files"]))
    cap(resource.RLIMIT_NPROC, int(limits["processes"]))  # effective only for a non-root real uid
    cap(resource.RLIMIT_CORE, 0)


def _make_tracer(module: str, class_name: str) -> Any:
    """The cross-method interaction tracer (a pytest plugin, `validation.interaction`)."""
    from validation.interaction import InteractionTracer

    return InteractionTracer(module, class_name)


def run_child(request: dict[str, Any], fd: int) -> None:
    """Body of the forked run process. Never returns: ends with os._exit."""
    code = 70
    try:
        os.setsid()  # own session and process group: the worker kills the whole group on timeout
        run_dir = request["run_dir"]
        os.chdir(run_dir)
        tmp = os.path.join(run_dir, "tmp")
        os.makedirs(tmp, exist_ok=True)
        env = dict(request.get("env") or {})
        env.update({"HOME": run_dir, "TMPDIR": tmp, "TMP": tmp, "TEMP": tmp})
        os.environ.clear()
        os.environ.update(env)
        time.tzset()
        import tempfile

        tempfile.tempdir = None  # recomputed from TMPDIR on next use
        sys.path[:] = [run_dir] + [p for p in sys.path if p and p != run_dir]
        sys.dont_write_bytecode = True
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        out = os.open(os.path.join(run_dir, ".output"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(devnull)
        os.close(out)
        sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)
        sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)
        if request.get("setuid") is not None:  # fallback non-root run when there is no user namespace
            os.setgroups([])
            os.setgid(int(request["setuid"]))
            os.setuid(int(request["setuid"]))
        _apply_limits(request["limits"])
        if request.get("clock_offset_seconds"):
            from validation.sandbox.clock import shift_python_clock

            shift_python_clock(float(request["clock_offset_seconds"]))

        cov = None
        if request.get("coverage_file"):
            target = os.path.join(run_dir, request["coverage_file"])
            cov = coverage.Coverage(data_file=None, branch=True, include=[target], config_file=False)
        tracer = _make_tracer(*request["trace_class"]) if request.get("trace_class") else None
        plugin = RunPlugin(fd, request, cov)
        args = [request["test_file"], "-q", "--tb=short", "-p", "no:cacheprovider", "-p", "no:stepwise",
                "--rootdir", run_dir, "-c", os.path.join(run_dir, "pytest.ini"), "-W", "default"]
        if request.get("stop_on_failure"):
            args.append("-x")
        if cov is not None:
            cov.start()
        try:
            exit_code = int(pytest.main(args, plugins=[plugin] + ([tracer] if tracer is not None else [])))
        finally:
            if cov is not None:
                cov.stop()
        message: dict[str, Any] = {"t": "done", "exit_code": exit_code}
        if cov is not None:
            report_path = os.path.join(tmp, ".coverage.json")
            try:
                cov.json_report(outfile=report_path, show_contexts=bool(request.get("per_test_contexts")))
                with open(report_path, encoding="utf-8") as handle:
                    data = json.load(handle)
                message["coverage"] = next(iter(data.get("files", {}).values()), None) or {"not_imported": True}
                message["coverage_totals"] = data.get("totals")
            except Exception as exc:  # noqa: BLE001 - e.g. the solution was never imported
                message["coverage"] = {"error": f"{type(exc).__name__}: {exc}"[:MAX_REASON]}
        if tracer is not None:
            try:
                message["trace"] = tracer.result()
            except Exception as exc:  # noqa: BLE001 - a broken trace must not hide the test outcomes
                message["trace"] = {"error": f"{type(exc).__name__}: {exc}"[:MAX_REASON]}
        _send(fd, message)
        code = 0
    except BaseException as exc:  # noqa: BLE001 - report anything, then leave without running atexit hooks
        _send(fd, {"t": "crash", "reason": f"{type(exc).__name__}: {exc}"[:MAX_REASON]})
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # os._exit skips the flush: without this the report's tail is lost
            except Exception:  # noqa: BLE001 - a test may have replaced or closed the stream
                pass
        os._exit(code)
