"""Static facts and interaction edges on small inline classes (golden values)."""

import pytest

from core.analysis.class_facts import Edge, class_facts, methods_info, pair_count, static_edges
from core.records import MethodInfo

STORE = '''
import heapq
import json as js
from collections import deque


class Store:
    """A store."""

    TAX = 0.2

    def __init__(self):
        self.items = {}
        self.log = []
        self.queue = []
        self.root = {}
        self.count = 0

    @property
    def total(self):
        return sum(self.items.values())

    @total.setter
    def total(self, value):
        self.items.clear()

    @staticmethod
    def _check(key):
        if not key:
            raise ValueError(key)

    @classmethod
    def build(cls, data):
        shop = cls()
        shop.items.update(js.loads(data))
        return shop

    def put(self, key, value):
        self._check(key)
        self.items[key] = value
        self.log.append(key)
        heapq.heappush(self.queue, value)
        node = self.root
        for char in key:
            node = node.setdefault(char, {})
        node["$"] = True
        self.count += 1
        return self.total

    def forget(self, key):
        del self.items[key]
        for entry in self.log:
            entry.done = True

    def report(self):
        return [k for k in self.log if k in self.items], self.queue[0], Store.TAX, deque(self.root)

    def depth(self, n):
        if n:
            return self.depth(n - 1)
        return len(sorted(self.log, key=self._check))
'''


def test_method_kinds_signatures_and_docstrings() -> None:
    facts = class_facts(STORE, "Store")
    assert facts.method_names == ("__init__", "total", "_check", "build", "put", "forget", "report", "depth")
    kinds = {m.name: m.kind for m in facts.methods}
    assert kinds == {
        "__init__": "instance", "total": "property", "_check": "static", "build": "class",
        "put": "instance", "forget": "instance", "report": "instance", "depth": "instance",
    }
    assert facts.method("put").signature == "def put(self, key, value):"
    assert facts.method("_check").decorators == ("staticmethod",)
    assert facts.docstring == "A store."
    assert facts.fields == ("items", "log", "queue", "root", "count")
    assert facts.class_attributes == ("TAX",)


def test_reads_writes_calls_and_libraries() -> None:
    facts = class_facts(STORE, "Store")
    put = facts.method("put")
    # item store, append, heappush, aliased trie walk, augmented assignment: all writes
    assert put.writes == ("count", "items", "log", "queue", "root")
    assert put.reads == ("count", "queue", "root")  # `count += 1` reads; heappush's argument is read; the alias source is read
    assert put.calls == ("_check", "total")  # a property read is a call
    assert put.libraries == ("heapq",)
    # the setter is merged into the property: it writes what the getter reads
    assert facts.method("total").reads == ("items",) and facts.method("total").writes == ("items",)
    forget = facts.method("forget")
    assert forget.writes == ("items", "log")  # `del self.items[k]`, and a store through a loop alias
    assert forget.reads == ("log",)
    assert facts.method("report").reads == ("TAX", "items", "log", "queue", "root")
    assert facts.method("report").libraries == ("collections",)
    assert facts.method("build").libraries == ("json",)
    assert facts.method("depth").calls == ("_check",)  # recursion is dropped, a method reference counts


def test_static_edges_follow_the_rules() -> None:
    edges = static_edges(STORE, "Store")
    calls = [e for e in edges if e.kind == "call"]
    assert calls == [
        Edge("call", "put", "total"),
        Edge("call", "put", "_check"),
        Edge("call", "depth", "_check"),
    ]
    state = {(e.source, e.target, e.attribute) for e in edges if e.kind == "state"}
    assert ("put", "total", "items") in state  # and the call edge put -> total is a separate edge
    assert ("total", "report", "items") in state  # the property's setter writes items
    assert ("forget", "depth", "log") in state
    assert not any(e.source == "__init__" or e.target == "__init__" for e in edges if e.kind == "state")
    assert not any(e.source == e.target for e in edges)
    assert ("put", "put", "count") not in state
    # total: items->report; put: items->total, log->forget, items/log/queue/root->report, log->depth;
    # forget: items->total, items/log->report, log->depth
    assert len(state) == 1 + 7 + 4
    assert pair_count(edges) == 3 + 8


def test_a_class_without_shared_state_has_no_edges() -> None:
    src = "class Calc:\n    def add(self, a, b):\n        return a + b\n    def neg(self, a):\n        return -a\n"
    assert static_edges(src, "Calc") == []


def test_edge_round_trips_through_dict() -> None:
    edge = Edge("state", "a", "b", "x")
    assert Edge.from_dict(edge.to_dict()) == edge
    assert str(edge) == "state: a -> b [x]"


def test_methods_info_builds_records() -> None:
    tests = (
        "from store import Store\n\n\ndef test_put():\n    assert Store().put('a', 1) == 1\n\n\n"
        "class TestReport:\n    def test_it(self):\n        s = Store()\n        s.put('a', 2)\n        s.report()\n"
    )
    infos = [MethodInfo.model_validate(d) for d in methods_info(STORE, "Store", tests)]
    assert [i.method_name for i in infos] == ["total", "_check", "build", "put", "forget", "report", "depth"]
    report = next(i for i in infos if i.method_name == "report")
    assert report.test_class == "TestReport" and "s.report()" in report.test_code
    put = next(i for i in infos if i.method_name == "put")
    assert "def test_put" in put.test_code and "class TestReport" in put.test_code
    assert put.dependencies.Standalone is False
    assert put.dependencies.field_dependencies == ("self.count", "self.items", "self.log", "self.queue", "self.root")
    assert put.dependencies.method_dependencies == ("_check", "total")
    assert put.method_description == "def put(self, key, value):\n    ..."
    check = next(i for i in infos if i.method_name == "_check")
    assert check.dependencies.Standalone is True


def test_missing_class_is_named() -> None:
    with pytest.raises(ValueError, match="no top-level class 'Nope'"):
        class_facts(STORE, "Nope")


DYNAMIC = '''
import heapq
from bisect import insort


class Board:
    TAX = 1

    def __init__(self):
        self.tree = {}
        self.items = []
        self.heap = []
        self.buf = None

    def walrus(self):
        if (node := self.tree.get("x")) is not None:
            node["y"] = 1
        with self.buf as out:
            out.write("x")
        for index, *rest in enumerate(reversed(self.items)):
            rest.append(index)

    def dynamic(self):
        type(self).TAX = 2
        setattr(self, "heap", [])
        return getattr(self, "walrus")

    def functions(self):
        insort(self.items, 3)
        heapq.heappop(self.heap)

    def nested(self):
        def inner():
            return self.tree[1]
        key = lambda e: self.items[e]
        return inner, key
'''


def test_aliases_dynamic_access_and_nested_scopes() -> None:
    facts = class_facts(DYNAMIC, "Board")
    walrus = facts.method("walrus")
    assert walrus.writes == ("buf", "items", "tree")  # through a walrus, a with-target and a starred loop target
    dynamic = facts.method("dynamic")
    assert dynamic.writes == ("TAX", "heap") and dynamic.calls == ("walrus",)
    functions = facts.method("functions")
    assert functions.writes == ("heap", "items") and functions.reads == ("heap", "items")  # arguments are read
    assert functions.libraries == ("bisect", "heapq")
    assert facts.method("nested").reads == ("items", "tree")  # a nested function and a lambda are the method's
