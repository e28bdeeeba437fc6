"""How pytest-xdist (`-n 2 --dist loadscope`, set in pyproject's addopts) splits the suite between workers.

A module- or session-scoped fixture is built once per worker process that uses it, not once per run. Plain
`loadscope` keeps each test module on one worker, which covers the module-scoped fixtures. The flow tests
also share session-scoped fixtures across their modules (tests/flows/conftest.py: the uninterrupted
reference build and a real Prefect server, each minutes long on a busy machine), so the whole folder is one
unit of work here: split over two workers, the reference build would be made twice.

Why not `xdist_group` marks with `--dist loadgroup`: pytest-xdist 3.8 groups by appending the group to a
node-id field that pytest 9.2 no longer reads, so the marks are silently ignored and every test is
scheduled on its own. The scheduler below sees only node ids, so the rule is by folder.
Without `-n` (or with `-n 0`) none of this runs.
"""

from __future__ import annotations

import pytest

SHARED_SESSION_FOLDERS = ("tests/flows/",)


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`loadscope` whose units are a module (or class), except that a folder of SHARED_SESSION_FOLDERS is
    one unit. Other `--dist` modes are left to xdist."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedSessionScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            folder = next((f for f in SHARED_SESSION_FOLDERS if nodeid.startswith(f)), None)
            return folder if folder else super()._split_scope(nodeid)

    return SharedSessionScheduling(config, log)
