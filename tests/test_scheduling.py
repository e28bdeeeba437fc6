"""The two-worker schedule of tests/conftest.py: every flow module is placed on purpose, the two flow groups go
first, one to each worker, their modules in the listed order, and every other module stays a unit of its own
in collection order."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tests.conftest import FLOW_GROUPS, FLOWS, pytest_xdist_make_scheduler

ROOT = Path(__file__).resolve().parents[1]


def test_every_flow_module_is_in_exactly_one_group():
    listed = [module for modules in FLOW_GROUPS.values() for module in modules]
    on_disk = sorted(p.name for p in (ROOT / FLOWS).glob("test_*.py"))
    assert sorted(listed) == on_disk  # a new flow module is given a group, a removed one leaves its group


class _Node:
    """What the scheduler uses of a worker: it is sent indices of its collection and may be shut down."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[int] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent += indices

    def shutdown(self) -> None:
        self.shutting_down = True


def _config(dist: str = "loadscope"):
    option = SimpleNamespace(loadscopereorder=False)
    values = {"dist": dist, "tx": ["2*popen"]}
    return SimpleNamespace(option=option, getvalue=values.__getitem__)


def test_the_flow_groups_go_first_one_to_each_worker_in_the_listed_order():
    [first, second] = FLOW_GROUPS.values()
    # Collection order: alphabetical, flow modules interleaved with each other and after another module.
    collection = ["tests/judges/test_a.py::test_one", "tests/judges/test_a.py::test_two"]
    collection += [f"{FLOWS}{m}::test_{i}" for m in sorted(first + second) for i in range(2)]
    collection += ["tests/pipeline/test_b.py::test_one", "tests/test_c.py::Case::test_one"]
    scheduler = pytest_xdist_make_scheduler(_config(), SimpleNamespace(loadscopesched=lambda *a: None))
    nodes = [_Node("gw0"), _Node("gw1")]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, collection)
    scheduler.schedule()

    sent = [[collection[i] for i in node.sent] for node in nodes]
    assert sent[0] == [f"{FLOWS}{m}::test_{i}" for m in first for i in range(2)]
    assert sent[1] == [f"{FLOWS}{m}::test_{i}" for m in second for i in range(2)]
    assert list(scheduler.workqueue) == ["tests/judges/test_a.py", "tests/pipeline/test_b.py", "tests/test_c.py::Case"]


def test_other_distribution_modes_are_left_to_xdist():
    assert pytest_xdist_make_scheduler(_config("load"), None) is None
