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
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, NoReturn

import coverage
import pytest

from validation.sandbox.clock import shift_python_clock
from validation.sandbox.integrity import Guard, warm_snapshot
from validation.sandbox.interaction import InteractionTracer
from validation.sandbox.job import MUTANT_SWITCH, Limits, MutantJob, RunRequest, WorkerConfig

MAX_REASON = 300


class SandboxTestTimeout(BaseException):
    """Raised by the per-test timer. A BaseException so that a test's `except Exception` cannot swallow it."""


Send = Callable[[dict[str, Any]], None]


def make_sender(fd: int, nonce: str) -> Send:
    """The run's end of the result channel: one JSON line per message, each carrying the run's nonce (the
    worker drops and reports lines without it). `os.write` and `json.dumps` are bound now, before the code
    under test exists, so rebinding them later cannot reroute or silence the harness's messages."""
    write, dumps = os.write, json.dumps

    def send(message: dict[str, Any]) -> None:
        data = (dumps({**message, "n": nonce}, default=str) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            try:
                written = write(fd, view)
            except InterruptedError:
                continue
            except OSError:
                return  # the worker is gone or the test closed our channel: nothing to report to
            view = view[written:]

    return send


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


class MeasuringWindow:
    """Keeps coverage's tracer and the interaction profile running only where code of the run executes:
    from before pytest starts to the end of collection (conftests and test modules import the solution
    there), then inside each test's setup, call and teardown, never while pytest configures itself or
    reports between phases.

    Why: a trace or profile function slows every line and call the interpreter runs, pytest's own included.
    Measured on an oracle job of 93 scenarios, coverage of a file nobody imports still cost 115 ms of a
    315 ms run; nothing is measured in the reporting between phases, so leaving it out changes no figure.
    Coverage is paused through its collector (its data, contexts and `Coverage.current()` stay as they
    are); a coverage.py without that collector API, or a run whose tests started a thread, keeps measuring
    the whole session, as before.
    """

    def __init__(self, cov: coverage.Coverage | None, tracer: Any) -> None:
        self.cov = cov
        self.tracer = tracer
        if tracer is not None:
            tracer.follow_phases()
        self.measuring = True  # coverage is started before pytest
        self.profiling = False

    @property
    def collector(self) -> Any:
        """Coverage's collector once coverage has started (it makes the collector then), if it can pause."""
        collector = getattr(self.cov, "_collector", None)
        if callable(getattr(collector, "pause", None)) and callable(getattr(collector, "resume", None)):
            return collector
        return None

    def open(self) -> None:
        if not self.measuring and self.collector is not None:
            self.collector.resume()
        self.measuring = True
        if self.tracer is not None and not self.profiling:
            self.tracer.begin_phase()
            self.profiling = True

    def close(self) -> None:
        if self.tracer is not None and self.profiling:
            self.tracer.end_phase()
            self.profiling = False
        collector = self.collector
        if not self.measuring or collector is None:
            return
        if len(getattr(collector, "tracers", ())) > 1 or threading.active_count() > 1:
            # Failure mode: coverage resumes its tracers from the main thread only, so a thread the tests
            # started would lose its lines after a pause. Once there is one, coverage stays on to the end.
            return
        collector.pause()
        self.measuring = False


class RunPlugin:
    """Reports each test's outcome to the worker as it happens, shuffles/selects tests, times tests out,
    and switches coverage contexts so that each line knows which tests ran it."""

    def __init__(self, send: Send, request: RunRequest, cov: coverage.Coverage | None,
                 guard: Guard | None = None, window: MeasuringWindow | None = None) -> None:
        self.send = send
        self.request = request
        self.guard = guard
        self.cov = cov
        self.window = window
        self.outcomes: dict[str, tuple[str, str]] = {}
        self.captured: dict[str, int] = {}  # characters of output pytest captured per test
        self.raised: dict[str, dict[str, Any]] = {}  # per test: the exception's type and the run-folder frames

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        select = self.request.select
        if select is not None:
            wanted = set(select)
            kept = [item for item in items if item.nodeid in wanted]
            dropped = [item for item in items if item.nodeid not in wanted]
            if dropped:
                config.hook.pytest_deselected(items=dropped)
            items[:] = kept
        seed = self.request.shuffle_seed
        if seed is not None:
            random.Random(seed).shuffle(items)
        if not self.request.failure_text:
            for item in items:
                item.repr_failure = _brief_failure
                item._repr_failure_py = _brief_failure

    @pytest.hookimpl(wrapper=True)
    def pytest_collection(self, session: Any) -> Any:
        try:
            return (yield)
        finally:
            if self.window is not None:
                self.window.close()

    # The phases a test's own code runs in (its fixtures, body and finalizers); pytest_runtest_makereport,
    # which follows each of them, closes the window again.
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: Any) -> None:
        if self.window is not None:
            self.window.open()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_call(self, item: Any) -> None:
        if self.window is not None:
            self.window.open()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item: Any, nextitem: Any) -> None:
        if self.window is not None:
            self.window.open()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: Any) -> Any:
        if self.request.mutants is None:
            return None
        if session.testsfailed and not session.config.option.continue_on_collection_errors:
            return None  # collection failed: pytest reports it the usual way
        run_mutants(self.send, self.request, session)
        return True

    def pytest_collection_finish(self, session: Any) -> None:
        if self.guard is not None:  # the code under test has been imported by now
            self.guard.watch_classes({getattr(item, "cls", None) for item in session.items} - {None})
            self.guard.check("after collection")
        self.send({"t": "collected", "ids": [item.nodeid for item in session.items]})

    def pytest_internalerror(self, excrepr: Any, excinfo: Any) -> None:
        if self.guard is not None and excinfo is not None and excinfo.type is SystemExit:
            # pytest aborts the whole session on a SystemExit outside a test: the code under test ended it.
            self.guard.flag("the session was ended by SystemExit raised while the tests were imported")

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.send({"t": "collect_error", "test_id": report.nodeid or self.request.test_file,
                            "outcome": "error", "reason": _short_reason(report)})

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
        self.send({"t": "start", "id": item.nodeid})
        limit = float(self.request.limits.per_test_seconds)

        def on_alarm(signum: int, frame: Any) -> None:
            raise SandboxTestTimeout(f"test exceeded {limit:g} s")

        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
        if self.cov is not None and self.request.per_test_contexts:
            self.cov.switch_context(item.nodeid)
        timed_out = False
        try:
            return (yield)
        except SandboxTestTimeout:
            # Failure mode: the timer fired between pytest's phases (making a report, logging), outside the
            # test's own call, so no report says so; the test was still too slow, and the session goes on.
            timed_out = True
            return True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if self.cov is not None and self.request.per_test_contexts:
                self.cov.switch_context("")
            if self.guard is not None:
                self.guard.check(f"after {item.nodeid}")
            outcome, reason = self.outcomes.get(
                item.nodeid, ("timeout", f"test exceeded {limit:g} s") if timed_out else ("error", "no report"))
            self.send({"t": "test", "test_id": item.nodeid, "outcome": outcome, "reason": reason,
                       "captured": self.captured.get(item.nodeid, 0), "raised": self.raised.get(item.nodeid)})

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: Any, call: Any) -> None:
        """Where a failing test's exception was raised: its type and the frames of the run's own files
        (file, function), outermost first, so a grader can tell a failure inside a chain of the class's
        methods from an assertion in the test. Returns None: pytest still makes the report."""
        if self.window is not None:
            self.window.close()
        if call.excinfo is None or item.nodeid in self.raised:
            return
        run_dir = self.request.run_dir
        frames = []
        test_line = None  # the line of the test file where the failure left the test (1-based)
        for entry in list(call.excinfo.traceback)[-40:]:
            path = str(entry.path)
            if os.path.dirname(path) == run_dir:
                frames.append([os.path.basename(path), entry.frame.code.name])
                if os.path.basename(path) == self.request.test_file:
                    test_line = entry.lineno + 1
        self.raised[item.nodeid] = {"type": call.excinfo.typename[:80], "frames": frames, "test_line": test_line}

    def pytest_runtest_logreport(self, report: Any) -> None:
        try:
            size = len(report.capstdout) + len(report.capstderr)
        except Exception:  # noqa: BLE001 - a report without captured sections
            size = 0
        self.captured[report.nodeid] = max(self.captured.get(report.nodeid, 0), size)
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
            # The timer can fire in a slow teardown too: still the test's time, still a timeout.
            timed_out = "SandboxTestTimeout" in reason or "SandboxTestTimeout" in str(report.longrepr or "")[-2000:]
            self.outcomes[report.nodeid] = ("timeout" if timed_out else "error", "teardown: " + reason)


def _load_into(module: Any, test_modules: dict[int, Any], source: str) -> None:
    """Execute `source` in `module`'s namespace and point the test modules' imported names at the new
    objects (a test module that did `from solution import Cls` holds the old class otherwise)."""
    before = dict(vars(module))
    exec(compile(source, module.__file__ or "<mutant>", "exec"), vars(module))
    replaced = {id(obj): vars(module)[name] for name, obj in before.items()
                if name in vars(module) and vars(module)[name] is not obj}
    for test_module in test_modules.values():
        for name, obj in list(vars(test_module).items()):
            if id(obj) in replaced:
                setattr(test_module, name, replaced[id(obj)])


def _brief_failure(excinfo: Any, style: Any = None) -> str:
    """A failure's exception type and first message line, in place of pytest's formatted traceback (see
    SandboxJob.failure_text). Keeps the type name, which is how a per-test timeout is recognised."""
    try:
        message = str(excinfo.value).strip().splitlines()
    except Exception:  # noqa: BLE001 - an exception whose __str__ fails
        message = []
    return f"E   {excinfo.typename}: {message[0] if message else ''}"[:MAX_REASON]


def _no_failure_text(excinfo: Any, style: Any = None) -> str:
    """Stands in for pytest's failure formatting in a mutant's process: only "did a test fail" is reported,
    and formatting a traceback (reading and parsing source files) cost more than the tests themselves."""
    return "failed"


# A mutant's process exits with _KILLED_BY + i when its i-th test failed (the run process counts kills per
# test from it); 0 when every test passed, 3 without the module, 1 for any other death.
_KILLED_BY = 16
_MAX_NAMED_KILLER = 200


def run_mutants(send: Send, request: RunRequest, session: Any) -> None:
    """Run each mutant against its tests without starting pytest again: the suite is collected once, then a
    forked process per mutant runs only the mutant's selected test items, stopping at the first failure.

    With a schema (`request.mutant_schema`, see `validation.schemata`) the module holding every mutant is
    executed once here, before forking, and a mutant's process only sets the switch to the mutant's number
    (and skips pytest's failure formatting). A mutant without a number, or every mutant when there is no
    schema or it does not load, is executed from its own source in its process (the original way).

    Why: a pytest start-up (configuration, plugins, collection, assertion rewriting) costs far more than the
    few tests that cover one line; this makes a mutant cost a fork and those tests. The difference from a
    fresh run: the test module is not re-imported, so module-level code of the tests runs once.

    A mutant's tests run strongest first: those that killed the most earlier mutants of the batch (ties in
    the given order). The verdict does not depend on the order (killed when any selected test fails; the
    gate has already checked that the suite's outcomes do not depend on test order), but most mutants die at
    their first test instead of after several that cannot notice them.
    """
    from _pytest.runner import runtestprotocol

    items = {item.nodeid: item for item in session.items}
    module = sys.modules.get(request.mutant_module or "")
    test_modules = {id(item.module): item.module for item in session.items if getattr(item, "module", None)}
    per_test = float(request.limits.per_test_seconds)
    schema_loaded = _schema_loaded(request, module, test_modules)
    kills: dict[str, int] = {}  # test id -> mutants of this batch it killed
    for mutant in request.mutants or ():
        selected = sorted((items[t] for t in mutant.select if t in items), key=lambda i: -kills.get(i.nodeid, 0))
        switched = schema_loaded and isinstance(mutant.switch, int)
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _mutant_process(runtestprotocol, module, test_modules, mutant, selected, per_test, switched=switched,
                            schema_loaded=schema_loaded)
        status = _wait_until(pid, started + per_test * max(1, len(selected)) + 5)
        killed, why = _mutant_verdict(pid, status, selected, kills)
        send({"t": "mutant", "id": mutant.id, "killed": killed, "why": why, "switched": switched})


def _schema_loaded(request: RunRequest, module: Any, test_modules: dict[int, Any]) -> bool:
    """Whether the module holding every mutant (`request.mutant_schema`) was executed into the solution's
    module, its switch at 0 (the reference); when it fails to load, every mutant runs from its own source."""
    if not request.mutant_schema or module is None:
        return False
    try:
        vars(module)[MUTANT_SWITCH] = 0
        _load_into(module, test_modules, request.mutant_schema)
        return True
    except BaseException:  # noqa: BLE001 - then every mutant runs from its own source
        return False


def _mutant_process(runtestprotocol: Any, module: Any, test_modules: dict[int, Any], mutant: MutantJob, selected: list[Any],
                    per_test: float, *, switched: bool, schema_loaded: bool) -> NoReturn:
    """Body of a mutant's forked process: the mutant in place, its selected tests until the first failure;
    the verdict is the exit status (see `_KILLED_BY`). `runtestprotocol` is pytest's, as the run process
    bound it. Never returns: ends with os._exit."""
    code = 1
    try:
        os.setpgid(0, 0)
        if module is None:
            os._exit(3)
        if switched:
            vars(module)[MUTANT_SWITCH] = mutant.switch
        else:
            _load_into(module, test_modules, mutant.source)
        code = 0
        for index, item in enumerate(selected):
            if schema_loaded:
                item.repr_failure = _no_failure_text
                item._repr_failure_py = _no_failure_text
            signal.signal(signal.SIGALRM, _alarm(per_test))
            signal.setitimer(signal.ITIMER_REAL, per_test)
            reports = runtestprotocol(item, nextitem=None, log=False)
            signal.setitimer(signal.ITIMER_REAL, 0)
            if any(r.failed for r in reports):
                code = _KILLED_BY + index if index < _MAX_NAMED_KILLER else 1
                break
    except BaseException:  # noqa: BLE001 - the mutant broke the module or a test: killed
        code = 1
    finally:
        os._exit(code)


def _mutant_verdict(pid: int, status: int | None, selected: list[Any], kills: dict[str, int]) -> tuple[bool, str]:
    """(killed, why) from the mutant process's wait status (None: still running at its deadline, then killed
    with its process group); counts the kill for the test that made it."""
    if status is None:
        for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                kill()
            except OSError:
                pass
        os.waitpid(pid, 0)
        return True, "timeout"
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return False, "all selected tests pass"
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
        return False, "solution module was not imported by the tests"
    if os.WIFEXITED(status) and _KILLED_BY <= os.WEXITSTATUS(status) < _KILLED_BY + len(selected):
        killer = selected[os.WEXITSTATUS(status) - _KILLED_BY].nodeid
        kills[killer] = kills.get(killer, 0) + 1
    return True, "a test failed" if os.WIFEXITED(status) else f"killed by signal {os.WTERMSIG(status)}"

def _wait_until(pid: int, deadline: float) -> int | None:
    """The wait status of child `pid`, or None if it is still running at `deadline` (monotonic clock).

    Sleeps on a pidfd, which becomes readable when the child ends, instead of polling: a mutant's process
    lives a few milliseconds, and a 1 ms polling step added about a tenth to each. Polls where pidfds are
    missing (kernels before 5.3)."""
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            if fd is not None:
                select.select([fd], [], [], remaining)
            else:
                time.sleep(min(0.001, remaining))
    finally:
        if fd is not None:
            os.close(fd)


def _alarm(limit: float) -> Any:
    def on_alarm(signum: int, frame: Any) -> None:
        raise SandboxTestTimeout(f"test exceeded {limit:g} s")

    return on_alarm


def _apply_limits(limits: Limits) -> None:
    def cap(kind: int, value: int) -> None:
        try:
            hard = resource.getrlimit(kind)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):
            pass  # the limit stays as inherited; the pool-level protections still hold

    cap(resource.RLIMIT_AS, int(limits.memory_bytes))
    cpu = int(limits.cpu_seconds)
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 2))  # SIGXCPU first, SIGKILL two seconds later
    except (ValueError, OSError):
        pass
    cap(resource.RLIMIT_FSIZE, int(limits.file_size_bytes))
    cap(resource.RLIMIT_NOFILE, int(limits.open_files))
    cap(resource.RLIMIT_NPROC, int(limits.processes))  # effective only for a non-root real uid
    cap(resource.RLIMIT_CORE, 0)


def _make_tracer(module: str, class_name: str) -> Any:
    """The cross-method interaction tracer (a pytest plugin, `validation.sandbox.interaction`)."""
    return InteractionTracer(module, class_name)


def _enter_run(request: RunRequest, config: WorkerConfig) -> tuple[str, str]:
    """Make this process the run's: its own session, its folder, a clean environment, its streams on the
    run's output, its user and limits, the clock moved. Runs before any code under test is imported, so
    nothing here can be reached by it; returns the run's folder and its temporary folder."""
    os.setsid()  # own session and process group: the worker kills the whole group on timeout
    run_dir = request.run_dir
    os.chdir(run_dir)
    tmp = os.path.join(run_dir, "tmp")
    os.makedirs(tmp, exist_ok=True)
    env = dict(config.env)
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
    if config.setuid is not None:  # fallback non-root run when there is no user namespace
        os.setgroups([])
        os.setgid(int(config.setuid))
        os.setuid(int(config.setuid))
    _apply_limits(request.limits)
    if config.clock_offset_seconds:
        shift_python_clock(float(config.clock_offset_seconds))
    return run_dir, tmp


def _pytest_args(request: RunRequest, run_dir: str) -> list[str]:
    """pytest's command line for the run."""
    # Built-in plugins a run never needs cost start-up time on every fork: off.
    args = [request.test_file, "-q", "--tb=short", "-p", "no:cacheprovider", "-p", "no:stepwise",
            "-p", "no:doctest", "-p", "no:junitxml", "-p", "no:pastebin", "-p", "no:setupplan",
            "-p", "no:setuponly", "-p", "no:faulthandler",
            "--rootdir", run_dir, "-c", os.path.join(run_dir, "pytest.ini"), "-W", "default"]
    if request.stop_on_failure:
        args.append("-x")
    return args


def run_child(request: RunRequest, config: WorkerConfig, nonce: str, fd: int) -> None:
    """Body of the forked run process: runs `request` under the worker's `config`, reporting on `fd` with
    every message marked by `nonce`. Never returns: ends with os._exit."""
    code = 70
    send = make_sender(fd, nonce)
    try:
        run_dir, tmp = _enter_run(request, config)
        cov = None
        if request.coverage_file:
            target = os.path.join(run_dir, request.coverage_file)
            cov = coverage.Coverage(data_file=None, branch=True, include=[target], config_file=False)
        tracer = _make_tracer(*request.trace_class) if request.trace_class else None
        # Last step before pytest imports the tests (and through them the code under test): from here on,
        # tampering with the grading machinery is refused or noticed (validation.sandbox.integrity).
        guard = Guard(warm_snapshot(), lambda what: send({"t": "tamper", "what": what}),
                      [os.path.join(run_dir, name) for name in request.protected_files]
                      + [os.path.join(run_dir, ".output")], config.native_code_dirs)
        guard.install_audit_hook()
        plugin = RunPlugin(send, request, cov, guard, MeasuringWindow(cov, tracer)
                           if cov is not None or tracer is not None else None)
        args = _pytest_args(request, run_dir)
        if cov is not None:
            cov.start()
        try:
            exit_code = int(pytest.main(args, plugins=[plugin] + ([tracer] if tracer is not None else [])))
        finally:
            if cov is not None:
                cov.stop()
        guard.check("end of session")
        message: dict[str, Any] = {"t": "done", "exit_code": exit_code}
        if cov is not None:
            report_path = os.path.join(tmp, ".coverage.json")
            try:
                cov.json_report(outfile=report_path, show_contexts=request.per_test_contexts)
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
        send(message)
        code = 0
    except BaseException as exc:  # noqa: BLE001 - report anything, then leave without running atexit hooks
        send({"t": "crash", "reason": f"{type(exc).__name__}: {exc}"[:MAX_REASON]})
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # os._exit skips the flush: without this the report's tail is lost
            except Exception:  # noqa: BLE001 - a test may have replaced or closed the stream
                pass
        os._exit(code)
