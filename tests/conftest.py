"""How pytest-xdist (`-n 2 --dist loadscope`, set in pyproject's addopts) splits the suite between workers.

A module- or session-scoped fixture is built once per worker process that uses it, not once per run. Plain
`loadscope` keeps each test module on one worker, which covers the module-scoped fixtures. The flow tests
share session-scoped fixtures across their modules (tests/flows/conftest.py): the uninterrupted reference
build, made once per run whatever the worker (a file lock in the shared base temp folder), and a real Prefect
server, which each worker that asks for it starts anew (15-30 s). They are also most of the suite's time:
on one worker, the flow folder alone outlasted everything the other worker ran.

So the flow modules form two units of work (FLOW_GROUPS), which go first, one to each worker:
- one starts with the reference build and goes on with the tests that need it from their first line;
- the other runs the builds that need no reference first (by the time its tests compare with the reference,
  the other worker has made it), then every test of the Prefect server, so that one server starts.
A module is listed in one group; a flow module in none is a unit of its own, queued after the two groups.
Within a group the modules run in the listed order; everything else keeps collection order.

Why not `xdist_group` marks with `--dist loadgroup`: pytest-xdist 3.8 groups by appending the group to a
node-id field that pytest 9.2 no longer reads, so the marks are silently ignored and every test is
scheduled on its own. The scheduler below sees only node ids, so the rule is by module path.
Without `-n` (or with `-n 0`) none of this runs.
"""

from __future__ import annotations

import pytest

FLOWS = "tests/flows/"
FLOW_GROUPS: dict[str, tuple[str, ...]] = {
    "flows: the reference build, then what needs it at once": (
        "test_build_flow.py", "test_build_stop.py"),
    "flows: builds of their own, then the Prefect server's tests": (
        "test_mine_flow.py", "test_dask_build.py", "test_mapped_retries.py", "test_serve.py", "test_server_watch.py"),
}
_GROUP_OF = {FLOWS + module: (group, position)
             for group, modules in FLOW_GROUPS.items() for position, module in enumerate(modules)}


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _queue_rank(scope: str) -> int:
    """Flow groups first (in FLOW_GROUPS order), then flow modules of no group, then the rest."""
    groups = list(FLOW_GROUPS)
    if scope in groups:
        return groups.index(scope)
    return len(groups) if scope.startswith(FLOWS) else len(groups) + 1


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`loadscope` whose units are a module (or class), except that the flow modules of FLOW_GROUPS form
    one unit per group, queued first. Other `--dist` modes are left to xdist."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FlowGroupScheduling(LoadScopeScheduling):
        _ordered = False

        def _split_scope(self, nodeid: str) -> str:
            group = _GROUP_OF.get(_module(nodeid))
            return group[0] if group else super()._split_scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            # The queue is complete when the first unit is handed out: order it once, then let xdist assign.
            if not self._ordered:
                units = sorted(self.workqueue.items(), key=lambda unit: _queue_rank(unit[0]))  # stable
                self.workqueue.clear()
                for scope, work in units:
                    if scope in FLOW_GROUPS:  # the group's modules in the listed order, each in collection order
                        work = dict(sorted(work.items(), key=lambda test: _GROUP_OF[_module(test[0])][1]))
                    self.workqueue[scope] = work
                self._ordered = True
            super()._assign_work_unit(node)

    return FlowGroupScheduling(config, log)
