"""`classeval-pro serve` against a real `prefect server start` on loopback: the deployment's schedule makes a
run, the run completes on the server, and the release it makes appears in the artifact tree."""

from __future__ import annotations

import os
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
    finally:
        serve.send_signal(signal.SIGINT)
        try:
            serve.communicate(timeout=120)
        finally:
            if serve.poll() is None:
                os.killpg(serve.pid, signal.SIGKILL)
    assert serve.returncode == 0


def test_the_ui_of_a_server_on_another_port_is_told_that_port(prefect_server):
    """`serve --port N` announced a UI that asked the default port's API (`/ui-settings` named
    http://127.0.0.1:4200/api) and showed "Can't connect to Server API"."""
    base = prefect_server.api_url.removesuffix("/api")
    assert not base.endswith(":4200")  # the fixture's server listens on a free port
    settings = httpx.get(f"{base}/ui-settings", timeout=30).json()
    assert settings["api_url"] == prefect_server.api_url
