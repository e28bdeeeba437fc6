"""Stopping a build with SIGINT or SIGTERM, then resuming it, releases exactly what an uninterrupted build
releases; a build whose Prefect server dies ends with a clear error instead of hanging.

One artifact tree is stopped three times, at synthesis, at the gate and at the release, and resumed after
each stop, so that one test covers every point for about the cost of one build plus three start-ups.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from build_workspace import make_workspace, released_tasks, run_build, start_build, started, wait_for

from tests.emulators.chat import ChatEmulator, Reply

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # the reference build is part of the first test

SLOW_MODEL = """
[models]
backend = "model"
model = "openai/slow-1"
api_base = "{api_base}"
max_retries = 0
timeout_s = 900
"""


def _run_dir(artifacts: Path) -> Path | None:
    runs = sorted((artifacts / "runs").glob("run-*")) if (artifacts / "runs").is_dir() else []
    return runs[0] if runs else None


def _funnel_stages(artifacts: Path) -> list[str]:
    run = _run_dir(artifacts)
    path = run / "funnel.json" if run else None
    try:
        return list(json.loads(path.read_text())["stages"]) if path and path.is_file() else []
    except (ValueError, OSError):
        return []


def _sandbox_leftovers(pid: int) -> list[str]:
    """Folders, cgroups and processes of the sandbox pools the build with `pid` started."""
    left = [str(p) for p in Path("/tmp").glob(f"classeval-sandbox-{pid}-*")]
    for pattern in (f"*/classeval-pro-sandbox/p{pid}-*", f"classeval-pro-sandbox/p{pid}-*"):  # cgroup v1, v2
        left += [str(p) for p in Path("/sys/fs/cgroup").glob(pattern)]
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and f"classeval-sandbox-{pid}-".encode() in (proc / "cmdline").read_bytes():
                left.append(f"process {proc.name}")
        except OSError:
            continue
    return left


def _stop(env, config, artifacts: Path, log: Path, ready: Callable[[], bool], what: str, signum: int,
          sigint_ignored: bool = False) -> dict:
    """Stop a build the way a terminal does: the signal goes to its whole process group (the build, the
    Prefect server it started, every child), then check that it says so and leaves nothing behind."""
    process = start_build(env, config, log, sigint_ignored=sigint_ignored)
    wait_for(process, ready, what)
    server = _build_server_pid(process.pid)
    os.killpg(process.pid, signum)
    process.communicate(timeout=120)
    stderr = log.read_text()
    assert process.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum], stderr[-3000:]
    name = signal.Signals(signum).name
    assert f"stopped by {name}" in stderr and "rerun the same command to resume" in stderr, stderr[-3000:]
    assert "lost the Prefect server" not in stderr and "Error logging to API" not in stderr, stderr[-3000:]
    assert " ERROR " not in stderr and "| ERROR" not in stderr and "Traceback" not in stderr, stderr[-3000:]
    assert _sandbox_leftovers(process.pid) == []
    assert _processes_of_group(process.pid) == []
    assert server is not None and not Path(f"/proc/{server}").exists()  # the Prefect server it started is gone too
    funnel = json.loads((_run_dir(artifacts) / "funnel.json").read_text())
    assert funnel["stopped"]["cause"] == f"stopped by {name}"
    assert (_run_dir(artifacts) / "report.html").is_file()
    return funnel


def test_stops_at_synthesis_gate_and_release_then_resume_to_the_uninterrupted_release(tmp_path, reference_release):
    env, config = make_workspace(tmp_path)
    artifacts = Path(env["CLASSEVAL_PRO_ARTIFACTS"])

    # Synthesis: enhance running (its sandbox oracle runs take seconds). Started as a background job of a
    # shell without job control is (SIGINT ignored): the build installs its own handler, so it still stops.
    log = tmp_path / "build.log"
    funnel = _stop(env, config, artifacts, log, started(log, "enhance"), "enhance to start", signal.SIGINT,
                   sigint_ignored=True)
    assert funnel["stopped"]["stage"] == "enhance" and "enhance" not in funnel["stages"]
    assert released_tasks(artifacts) == {}

    # Gate: stopped once the first gate report is on disk, while others are still running.
    def gate_running() -> bool:
        run = _run_dir(artifacts)
        return run is not None and any((run / "validate").glob("*.json"))

    funnel = _stop(env, config, artifacts, log, gate_running, "the first gate report", signal.SIGTERM)
    assert funnel["stopped"]["stage"] in ("validate", "repair") and "release" not in funnel["stages"]
    assert released_tasks(artifacts) == {}

    # Release: every stage before it is recorded (the judges too), the release is being assembled.
    funnel = _stop(env, config, artifacts, log, started(log, "release"), "the release stage", signal.SIGINT)
    assert funnel["stopped"]["stage"] == "release"  # building its tasks or assembling them
    assert "release" not in funnel["stages"]
    assert released_tasks(artifacts) == {}
    assert list((artifacts / "releases").glob(".*")) == []  # no half-written release folder is left either

    resumed = run_build(env, "--config", str(config))
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert released_tasks(artifacts) == reference_release
    funnel = json.loads((_run_dir(artifacts) / "funnel.json").read_text())
    assert funnel["stopped"] is None and list(funnel["stages"])[-1] == "release"


def _stat_fields(proc: Path) -> list[str]:
    return (proc / "stat").read_text().rsplit(")", 1)[1].split()


def _processes_of_group(pgid: int) -> list[str]:
    """Processes still in the process group `pgid` (the build's own group), zombies aside."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            fields = _stat_fields(proc) if proc.name.isdigit() else None
            if fields and int(fields[2]) == pgid and fields[0] != "Z":
                found.append(f"{proc.name}: {(proc / 'cmdline').read_bytes()[:200]!r}")
        except (OSError, ValueError, IndexError):
            continue
    return found


def _build_server_pid(build_pid: int) -> int | None:
    """The Prefect server the build started for itself (a child of the build)."""
    for proc in Path("/proc").iterdir():
        try:
            if not proc.name.isdigit():
                continue
            cmdline = (proc / "cmdline").read_bytes()
            if int(_stat_fields(proc)[1]) == build_pid and b"server\x00start" in cmdline:
                return int(proc.name)
        except (OSError, ValueError, IndexError):
            continue
    return None


@contextmanager
def _build_at_a_slow_model_call(env, config, artifacts: Path) -> Iterator[subprocess.Popen[str]]:
    """A build waiting on its first model answer, which comes only after ten minutes: whatever the test does
    next surely happens while the build's main thread waits on that call (a build left to run freely could
    finish first on a fast machine)."""
    with ChatEmulator(lambda call: Reply(text="no answer in time", delay_s=600)) as model:
        config.write_text(config.read_text() + SLOW_MODEL.format(api_base=model.base_url))
        process = start_build({**env, "OPENAI_API_KEY": "test-key"}, config)
        wait_for(process, lambda: _funnel_stages(artifacts) == ["seeds"] and bool(model.calls), "the first model call")
        yield process


def test_a_lost_prefect_server_ends_the_build_with_a_clear_error(workspace, tmp_path):
    env, config = workspace
    artifacts = Path(env["CLASSEVAL_PRO_ARTIFACTS"])
    with _build_at_a_slow_model_call(env, config, artifacts) as process:
        server = _build_server_pid(process.pid)
        assert server is not None, "the build's Prefect server is not a child of the build"
        os.kill(server, signal.SIGKILL)
        _, stderr = process.communicate(timeout=300)
    assert process.returncode == 1, stderr[-3000:]
    assert "lost the Prefect server at http://127.0.0.1:" in stderr, stderr[-3000:]
    assert _sandbox_leftovers(process.pid) == []
    funnel = json.loads((_run_dir(artifacts) / "funnel.json").read_text())
    assert funnel["stopped"]["cause"].startswith("lost the Prefect server")
    assert funnel["stopped"]["stage"] == "enhance"


def test_a_stop_during_a_model_call_does_not_wait_for_the_answer(workspace, tmp_path):
    env, config = workspace
    artifacts = Path(env["CLASSEVAL_PRO_ARTIFACTS"])
    with _build_at_a_slow_model_call(env, config, artifacts) as process:
        server = _build_server_pid(process.pid)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, stderr = process.communicate(timeout=300)  # the answer would come after 600 s
    assert process.returncode == 130, stderr[-3000:]
    assert server is not None and not Path(f"/proc/{server}").exists()  # the build's server went with the build
    assert _sandbox_leftovers(process.pid) == [] and _processes_of_group(process.pid) == []
    assert "stopped by SIGINT during enhance" in stderr and "rerun the same command to resume" in stderr, stderr[-3000:]
    funnel = json.loads((_run_dir(artifacts) / "funnel.json").read_text())
    assert (funnel["stopped"]["cause"], funnel["stopped"]["stage"]) == ("stopped by SIGINT", "enhance")
