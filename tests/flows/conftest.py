"""Fixtures of the flow tests; the helpers they use are in build_workspace.py."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from build_workspace import make_workspace, released_tasks, run_build


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[dict[str, str], Path]:
    return make_workspace(tmp_path)


@dataclass(frozen=True)
class ReferenceBuild:
    """The session's one uninterrupted build of the small workspace (default task runner)."""

    env: dict[str, str]
    config: Path
    result: subprocess.CompletedProcess[str]
    released: dict[str, list[dict]]

    @property
    def artifacts(self) -> Path:
        """Its artifact tree: read it, or copy it before changing anything (other tests compare with it)."""
        return Path(self.env["CLASSEVAL_PRO_ARTIFACTS"])


@pytest.fixture(scope="session")
def reference_build(tmp_path_factory, worker_id) -> ReferenceBuild:
    """Built once per test session; every flow test that needs a whole build compares with or starts from it.

    Under pytest-xdist each worker process has its own session: the first worker to get here builds into a
    folder all workers share (behind a file lock, the pattern pytest-xdist documents), the others wait and
    read the same build, so a session makes one reference build however the modules are spread."""
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    root, outcome = shared / "reference", shared / "reference-result.json"
    with FileLock(str(shared / "reference.lock")):
        if not outcome.is_file():
            env, config = make_workspace(root)
            result = run_build(env, "--config", str(config))
            outcome.write_text(json.dumps({"env": env, "config": str(config), "returncode": result.returncode,
                                           "stdout": result.stdout, "stderr": result.stderr}))
    saved = json.loads(outcome.read_text())
    result = subprocess.CompletedProcess(["build"], saved["returncode"], saved["stdout"], saved["stderr"])
    assert result.returncode == 0, result.stderr[-3000:]
    released = released_tasks(Path(saved["env"]["CLASSEVAL_PRO_ARTIFACTS"]))
    assert len(released) == 1 and next(iter(released.values()))
    return ReferenceBuild(env=saved["env"], config=Path(saved["config"]), result=result, released=released)


@pytest.fixture(scope="session")
def reference_release(reference_build: ReferenceBuild) -> dict[str, list[dict]]:
    """What an uninterrupted build of the small workspace releases."""
    return reference_build.released


@pytest.fixture(scope="session")
def prefect_server(tmp_path_factory):
    """A real `prefect server start` on loopback, shared by the tests that need one (about 15-30 s)."""
    from flows.server import start_server

    server = start_server(tmp_path_factory.mktemp("prefect-server"))
    yield server
    server.stop()
