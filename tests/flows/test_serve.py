"""`classeval-pro serve` against a real `prefect server start` on loopback: the deployment's schedule makes a
run, the run completes on the server, and the release it makes appears in the artifact tree."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time

import httpx
import pytest
from build_workspace import CLI, released_tasks

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # server start and the reference build included

WAIT_S = 900


def _deployment_runs(api_url: str) -> list[dict]:
    runs = httpx.post(f"{api_url}/flow_runs/filter", json={}, timeout=30).json()
    return [r for r in runs if r.get("deployment_id")]


def test_a_scheduled_run_completes_and_its_release_appears(prefect_server, reference_build, tmp_path):
    # The session reference build's records up to its judges, without its release: the scheduled run resumes
    # that run and makes the release (the whole chain is the reference build's; a scheduled run is the same
    # build flow, run by the deployment).
    artifacts, config = tmp_path / "artifacts", reference_build.config
    shutil.copytree(reference_build.artifacts, artifacts, ignore=shutil.ignore_patterns("release*", ".prefect"))
    env = {**reference_build.env, "CLASSEVAL_PRO_ARTIFACTS": str(artifacts)}
    assert released_tasks(artifacts) == {} and not list(artifacts.glob("runs/*/release.done.json"))
    env = {**env, "PREFECT_API_URL": prefect_server.api_url, "PREFECT_RUNNER_POLL_FREQUENCY": "2"}
    serve = subprocess.Popen([*CLI, "serve", "--interval", "15", "--config", str(config), "--name", "test-schedule"],
                             env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + WAIT_S
        completed: list[dict] = []
        while not completed:
            assert serve.poll() is None, serve.stderr.read()[-3000:]
            assert time.monotonic() < deadline, "no scheduled run completed in time"
            time.sleep(2)
            completed = [r for r in _deployment_runs(prefect_server.api_url) if r["state_type"] == "COMPLETED"]
        run = completed[0]
        assert run["parameters"] == {"config_path": str(config.resolve()), "publish_repo": None}
        assert run["auto_scheduled"] is True  # made by the schedule, not triggered by hand
        assert released_tasks(artifacts) == reference_build.released
        by_hand = _the_printed_command_starts_a_run_from_another_shell(serve, prefect_server.api_url)
        # Stopped once that run has completed: serve's own stop is what is checked here (a build stopped mid-run
        # is tests/flows/test_build_stop.py's). That run, resumed from a finished build, ends within a second,
        # and a signal caught while its process still started or ended (before Prefect recorded its state)
        # could print a traceback from Prefect's or Python's own handler.
        seen = _lines_until(serve, f"UTC run {by_hand} ended")
        while not any(r["name"] == by_hand and r["state_type"] == "COMPLETED"
                      for r in _deployment_runs(prefect_server.api_url)):
            assert time.monotonic() < deadline, f"run {by_hand} ended but never completed"
            time.sleep(0.5)
    finally:
        os.killpg(serve.pid, signal.SIGINT)  # as a terminal's Ctrl-C: serve and every run it started
        try:
            out, err = serve.communicate(timeout=120)
        finally:
            if serve.poll() is None:
                os.killpg(serve.pid, signal.SIGKILL)
    out = "".join(seen) + out
    assert serve.returncode == 130, err[-3000:]
    # One line when a run starts and one when it ends, with its release (or why none) and its funnel.
    name = run["name"]
    assert re.search(rf"UTC run {name} started\n", out), out[-3000:]
    version = next(iter(reference_build.released))
    assert re.search(rf"UTC run {name} ended after \d+ s: release {version} at .*; funnel: seeds \d+/\d+, ", out), out
    assert "stopped by SIGINT" in out and "Traceback" not in err and "| ERROR" not in err, (out + err)[-3000:]


def _lines_until(serve: subprocess.Popen[str], text: str) -> list[str]:
    """serve's stdout lines up to and including the first holding `text`."""
    lines: list[str] = []
    while not lines or text not in lines[-1]:
        line = serve.stdout.readline()
        assert line, "".join(lines)[-3000:]
        lines.append(line)
    return lines


def _the_printed_command_starts_a_run_from_another_shell(serve: subprocess.Popen[str], api_url: str) -> str:
    """The command `serve` prints for starting a run by hand works as printed, from a shell that has none of
    this process's Prefect settings (Prefect's own hint lacked PREFECT_API_URL: "Deployment not found")."""
    line = ""
    while "start a run now from another shell: " not in line:
        line = serve.stderr.readline()
        assert line, "serve printed no command for starting a run by hand"
    command = line.split("start a run now from another shell: ", 1)[1].strip()
    shell_env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    done = subprocess.run(["bash", "-c", command], env=shell_env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    # It names the run it created ("UUID: ..."): that run is on serve's server, made by hand for the deployment.
    found = re.search(r"UUID: ([0-9a-f-]{36})", done.stdout)
    assert found, done.stdout[-2000:]
    created = httpx.get(f"{api_url}/flow_runs/{found.group(1)}", timeout=30).json()
    assert created["deployment_id"] and created["auto_scheduled"] is False
    return created["name"]


def test_the_ui_of_a_server_on_another_port_is_told_that_port(prefect_server):
    """`serve --port N` announced a UI that asked the default port's API (`/ui-settings` named
    http://127.0.0.1:4200/api) and showed "Can't connect to Server API"."""
    base = prefect_server.api_url.removesuffix("/api")
    assert not base.endswith(":4200")  # the fixture's server listens on a free port
    settings = httpx.get(f"{base}/ui-settings", timeout=30).json()
    assert settings["api_url"] == prefect_server.api_url
