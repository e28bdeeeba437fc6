"""The interaction tracer (run by pytest.main in a subprocess: it installs a profile hook) and the pure
edge functions (on hand-written traces)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.analysis.class_facts import Edge, static_edges
from validation.sandbox.interaction import (
    NO_EDGES_REASON,
    PSEUDO_INSTANCE,
    edge_tests,
    exercised_edges,
    interaction_edge_coverage,
    interaction_summary,
)

ROOT = Path(__file__).resolve().parents[2]

SHOP = '''
class Shop:
    def __init__(self):
        self.items = {}
        self._check("init")

    @staticmethod
    def _check(key):
        if not key:
            raise ValueError(key)

    @property
    def total(self):
        return sum(self.items.values())

    def put(self, key, value):
        self._check(key)
        self.items[key] = value
        return self.total

    def names(self):
        for key in sorted(self.items, key=self._key):
            yield key

    def _key(self, key):
        return key

    def merge(self, other):
        for key in other.names():
            self.put(key, other.items[key])

    def clear(self):
        self.items = {}
'''

SHOP_TESTS = '''
import pytest
from shop import Shop


@pytest.fixture
def full():
    shop = Shop()
    shop.put("a", 1)
    return shop


def test_put():
    assert Shop().put("a", 2) == 2


def test_fixture_then_names(full):
    assert list(full.names()) == ["a"]


def test_merge(full):
    other = Shop()
    other.merge(full)
    assert other.total == 1


def test_static_only():
    with pytest.raises(ValueError):
        Shop._check("")


def test_order_matters():
    shop = Shop()
    assert shop.total == 0
    shop.clear()
'''

@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory, direct_trace) -> dict:
    return direct_trace(tmp_path_factory.mktemp("shop"), {"shop.py": SHOP, "test_shop.py": SHOP_TESTS},
                        "shop", "Shop", "test_shop.py")


def _test(trace: dict, name: str) -> dict:
    return next(t for t in trace["tests"] if t["nodeid"].endswith("::" + name))


def _instance(test: dict, key: str) -> dict:
    return next(i for i in test["instances"] if i["key"] == key)


def test_tracer_records_calls_per_instance_with_fixtures(trace: dict) -> None:
    assert trace["errors"] == []
    assert [t["nodeid"].split("::")[1] for t in trace["tests"]] == [
        "test_put", "test_fixture_then_names", "test_merge", "test_static_only", "test_order_matters",
    ]
    assert all(t["outcome"] == "passed" for t in trace["tests"])
    names = _test(trace, "test_fixture_then_names")
    shop = _instance(names, "i1")
    # the fixture's calls (setup phase) belong to the test; nested calls are reached, not driven
    assert shop["driven"] == ["__init__", "put", "names"]
    assert shop["reached"] == ["__init__", "put", "total", "names", "_key"]
    assert ["put", "total"] in shop["edges"] and ["names", "_key"] in shop["edges"]  # _key via sorted(key=)
    assert shop["first"]["put"] < shop["first"]["names"]
    # the static method is grouped on the pseudo-instance, with the call edges that reached it
    pseudo = _instance(names, PSEUDO_INSTANCE)
    assert pseudo["kind"] == "pseudo" and sorted(map(tuple, pseudo["edges"])) == [("__init__", "_check"), ("put", "_check")]


def test_tracer_keeps_instances_apart(trace: dict) -> None:
    merge = _test(trace, "test_merge")
    full, other = _instance(merge, "i1"), next(i for i in merge["instances"] if "merge" in i["reached"])
    assert other["key"] != full["key"]
    # other.merge(full) iterates full.names(): a call on another instance is neither driven nor an edge
    assert "names" in full["reached"] and "names" not in full["driven"]
    assert ["merge", "names"] not in other["edges"] and ["merge", "put"] in other["edges"]
    assert other["driven"] == ["__init__", "merge", "total"]
    # the generator method `names` counts once, however many times it is resumed
    assert full["n_calls"] == len(full["calls"])
    assert [c[0] for c in full["calls"]].count("names") == 1


def test_tracer_and_pure_functions_agree_with_static_edges(trace: dict) -> None:
    edges = static_edges(SHOP, "Shop")
    summary = interaction_summary(edges, trace)
    by_edge = {(e["kind"], e["source"], e["target"], e["attribute"]): e for e in summary["edges"]}
    assert by_edge[("call", "merge", "put", None)]["tests"] == ["test_shop.py::test_merge"]
    # clear writes items and total reads it, but the test reads total *before* clearing: not exercised
    assert by_edge[("state", "clear", "total", "items")]["exercised"] is False
    assert by_edge[("state", "put", "names", "items")]["exercised"] is True
    assert summary["static_edges"] == len(edges)
    assert summary["interaction_edge_coverage"] == pytest.approx(summary["exercised_edges"] / len(edges))
    assert summary["interaction_edge_coverage"] < 1.0
    assert summary["max_methods_on_one_instance"] == 2  # put + names, or merge + total (no __init__)
    assert "test_shop.py::test_static_only" not in summary["tests_exercising_edges"]


# -- pure functions on hand-written traces ---------------------------------------------------------------


def _instance_trace(key: str, calls: list[tuple[str, str | None]]) -> dict:
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for seq, (name, _) in enumerate(calls, 1):
        first.setdefault(name, seq)
        last[name] = seq
    return {
        "key": key,
        "kind": "pseudo" if key == PSEUDO_INSTANCE else "instance",
        "first": first,
        "last": last,
        "driven": list(dict.fromkeys(n for n, c in calls if c is None)),
        "reached": list(dict.fromkeys(n for n, _ in calls)),
        "edges": [[c, n] for n, c in calls if c is not None],
    }


TRACES = {
    "tests": [
        {"nodeid": "t::a", "instances": [_instance_trace("i1", [("__init__", None), ("push", None), ("peek", None)])]},
        {"nodeid": "t::b", "instances": [_instance_trace("i1", [("peek", None)]), _instance_trace("i2", [("push", None)])]},
        {"nodeid": "t::c", "instances": [_instance_trace("i1", [("pop", None), ("size", "pop"), ("push", None)])]},
    ],
    "errors": [],
}


def test_state_edge_needs_order_on_one_instance() -> None:
    push_peek = Edge("state", "push", "peek", "items")
    peek_push = Edge("state", "peek", "push", "items")
    pop_push = Edge("state", "pop", "push", "items")
    push_pop = Edge("state", "push", "pop", "items")
    assert edge_tests([push_peek, peek_push, pop_push, push_pop], TRACES) == [["t::a"], [], ["t::c"], []]


def test_call_edge_needs_the_call_to_fire() -> None:
    edges = [Edge("call", "pop", "size"), {"kind": "call", "source": "push", "target": "size", "attribute": None}]
    assert exercised_edges(edges, TRACES) == [edges[0]]  # dicts and Edge objects both work, returned as given


def test_coverage_and_summary_figures() -> None:
    edges = [Edge("state", "push", "peek", "items"), Edge("state", "peek", "push", "items"), Edge("call", "pop", "size")]
    assert interaction_edge_coverage(edges, TRACES) == pytest.approx(2 / 3)
    summary = interaction_summary(edges, TRACES)
    assert summary["exercised_edges"] == 2 and summary["exercised_state_edges"] == 1
    assert summary["tests_exercising_edges"] == ["t::a", "t::c"]
    assert summary["max_methods_on_one_instance"] == 2  # push, peek in t::a (__init__ not counted)
    assert summary["max_methods_test"] == "t::a"
    assert summary["max_methods_reached_on_one_instance"] == 3  # pop, size, push in t::c
    json.dumps(summary)


def test_no_static_edges_gives_no_coverage_and_a_reason() -> None:
    assert interaction_edge_coverage([], TRACES) is None
    summary = interaction_summary([], TRACES)
    assert summary["interaction_edge_coverage"] is None and summary["coverage_reason"] == NO_EDGES_REASON


def test_calculator_without_state_has_no_edges() -> None:
    source = textwrap.dedent(
        """
        class Calc:
            def add(self, a, b):
                return a + b

            def neg(self, a):
                return -a
        """
    )
    assert interaction_edge_coverage(static_edges(source, "Calc"), TRACES) is None


def test_tracer_module_imports_only_the_standard_library() -> None:
    probe = (
        "import sys; import validation.sandbox.interaction; "
        "print(sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names) - {'validation', '__main__'}))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-S", "-c", probe], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
