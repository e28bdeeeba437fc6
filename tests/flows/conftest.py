"""Fixtures of the flow tests; the helpers they use are in build_workspace.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from build_workspace import make_workspace, released_tasks, run_build


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[dict[str, str], Path]:
    return make_workspace(tmp_path)


@pytest.fixture(scope="session")
def reference_release(tmp_path_factory) -> dict[str, list[dict]]:
    """What an uninterrupted build of the small workspace releases (built once per session)."""
    env, config = make_workspace(tmp_path_factory.mktemp("reference"))
    result = run_build(env, "--config", str(config))
    assert result.returncode == 0, result.stderr[-3000:]
    released = released_tasks(Path(env["CLASSEVAL_PRO_ARTIFACTS"]))
    assert len(released) == 1 and next(iter(released.values()))
    return released


@pytest.fixture(scope="session")
def prefect_server(tmp_path_factory):
    """A real `prefect server start` on loopback, shared by the tests that need one (about 15-30 s)."""
    from flows.server import start_server

    server = start_server(tmp_path_factory.mktemp("prefect-server"))
    yield server
    server.stop()
