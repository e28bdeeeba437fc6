"""`build --task-runner dask`: the per-record tasks run on a local Dask cluster of two worker processes (each
with its own sandbox pool) and report to the build's own Prefect API; a build stopped while the workers
gate resumes to exactly what the default runner releases; nothing it started is left running."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
from pathlib import Path

import pytest
from build_workspace import released_tasks, run_build, start_build, started, wait_for

pytest.importorskip("prefect_dask", reason="prefect-dask is not installed (pip install -e '.[dask]')")
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # the reference build is part of it


def _processes_with(text: str) -> list[str]:
    """Processes whose environment mentions `text` (the build's artifact folder): its Dask workers and
    any Prefect server it or they started inherit it."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and text.encode() in (proc / "environ").read_bytes():
                command = (proc / "cmdline").read_bytes().replace(b"\0", b" ")[:200]
                found.append(f"{proc.name}: {command!r}")
        except OSError:
            continue
    return found


def test_a_two_worker_dask_build_stopped_at_the_gate_resumes_to_the_default_runners_release(workspace, tmp_path,
                                                                                          reference_release):
    env, config = workspace
    artifacts = Path(env["CLASSEVAL_PRO_ARTIFACTS"])
    dask = ("--task-runner", "dask", "--dask-workers", "2")
    log = tmp_path / "build.log"
    process = start_build(env, config, log, *dask)
    wait_for(process, started(log, "validate"), "the gate to start")
    os.kill(process.pid, signal.SIGINT)  # the workers are gating: what they finish from now on is not written
    process.communicate(timeout=300)
    assert process.returncode == 130, log.read_text()[-3000:]
    assert "stopped by SIGINT during validate" in log.read_text()
    assert released_tasks(artifacts) == {}
    assert _processes_with(str(artifacts)) == []  # no worker, scheduler or Prefect server outlives the build

    result = run_build(env, "--config", str(config), *dask)
    assert result.returncode == 0, result.stderr[-3000:]
    assert released_tasks(artifacts) == reference_release
    assert _processes_with(str(artifacts)) == []
    assert not re.search(r"INFO\s+\| distributed\.", result.stderr)  # Dask's INFO chatter stays out of the log
    # Every per-record task run reached the flow's own Prefect API (a worker without it starts a server of
    # its own, whose runs would not be in this database): one per seed and pair, one per candidate gated,
    # across the stopped build and the resume.
    [run] = list((artifacts / "runs").iterdir())
    candidates = {p.stem for stage in ("enhance", "compose") for p in (run / stage).glob("*.json")}
    with sqlite3.connect(artifacts / ".prefect" / "prefect.db") as db:
        names = [name for (name,) in db.execute("SELECT name FROM task_run WHERE state_type = 'COMPLETED'")]
    assert {n.removeprefix("validate ") for n in names if n.startswith("validate ")} == candidates  # "<stage> <item>"
    assert sum(n.startswith(("enhance ", "compose ")) for n in names) == 3  # two seeds, one pair
