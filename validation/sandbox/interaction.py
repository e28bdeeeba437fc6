"""Dynamic cross-method interaction: which methods the tests drive on which instance, and which edges fire.

Two halves in one module, because they share one data format:

1. `InteractionTracer`, a pytest plugin that the sandbox child registers (``pytest.main(args,
   plugins=[tracer])``) and whose `result()` (plain JSON-able data) it hands back to the parent. It runs
   inside the sandbox, next to untrusted code, so this module imports only the standard library (no
   pydantic, no libcst, not even pytest: the plugin uses plain hooks that need no marker).
2. Pure functions the pipeline runs on that result and on the static edges of
   `core.analysis.class_facts.static_edges` (given as `Edge` objects or their dicts):
   `exercised_edges`, `interaction_edge_coverage`, `interaction_summary`.

Tracing. Python 3.11 has no ``sys.monitoring``; ``sys.setprofile`` is used rather than ``sys.settrace``
because it reports only calls and returns (no per-line events) and leaves ``settrace`` to coverage.py,
which measures line coverage in the same run. The profile function is active from
``pytest_runtest_logstart`` to ``pytest_runtest_logfinish`` of each test, so calls made by fixtures
(setup) and finalizers (teardown) belong to the test; a harness that knows where each phase of a test
begins and ends (the sandbox child) calls `follow_phases()`, then `begin_phase()` and `end_phase()` around
setup, call and teardown, so that the profile is off while pytest reports between phases: most of the calls
a test makes, none of them the class's, and a profile function slows every call. A code object is one of
the class's methods when its file is the solution module and its ``co_qualname`` is ``ClassName.method``
(so nested functions, comprehensions and nested classes are not methods); the verdict is cached per code
object, which keeps the cost of the many other calls to a dict lookup. Only the main thread is traced.

What is recorded, per test and per instance (identified by ``id(self)``, made unique for the test with a
serial number and a weak reference, so that a collected object's reused id does not merge two instances;
static and class methods are grouped on one pseudo-instance per test, or a class built of them could
never pass):

- for each method, the sequence numbers of its first and last call start (enough to decide "a call of A
  starts before a later call of B" exactly, however long the test);
- the methods *driven* from outside the class (called while no method of the class was running: what the
  test itself calls) and the methods *reached* (every call, nested ones included);
- the call edges that fired: B was called while A, a method of the same instance (or either of them static
  or class-level), was the innermost running method of the class;
- the first `max_calls_kept` calls in order, as evidence.

Generator methods are counted once per generator, not once per resumption.
"""

from __future__ import annotations

import os
import sys
import weakref
from collections.abc import Iterable, Mapping
from types import CodeType, FrameType
from typing import Any

PSEUDO_INSTANCE = "<class>"
"""Key of the pseudo-instance that groups a test's static- and class-method calls."""

_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR
_UNKNOWN = object()


class _InstanceTrace:
    __slots__ = ("key", "kind", "first", "last", "driven", "reached", "edges", "calls", "n_calls")

    def __init__(self, key: str, kind: str) -> None:
        self.key = key
        self.kind = kind
        self.first: dict[str, int] = {}
        self.last: dict[str, int] = {}
        self.driven: dict[str, None] = {}
        self.reached: dict[str, None] = {}
        self.edges: dict[tuple[str, str], None] = {}
        self.calls: list[list[Any]] = []
        self.n_calls = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "first": self.first,
            "last": self.last,
            "driven": list(self.driven),
            "reached": list(self.reached),
            "edges": [list(e) for e in self.edges],
            "calls": self.calls,
            "n_calls": self.n_calls,
        }


class InteractionTracer:
    """pytest plugin recording, per test, the calls of `class_name`'s methods on each instance.

    `module_name` is the solution module the tests import (its file is ``<module_name>.py``, or
    `module_file` when given). Register it with ``pytest.main(args, plugins=[tracer])``; read `result()`.
    """

    def __init__(
        self,
        module_name: str,
        class_name: str,
        *,
        module_file: str | None = None,
        max_calls_kept: int = 200,
    ) -> None:
        self.module_name = module_name
        self.class_name = class_name
        self.module_file = os.path.realpath(module_file) if module_file else None
        self.basename = module_name.rsplit(".", 1)[-1] + ".py"
        self.max_calls_kept = max_calls_kept
        self.tests: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self._names: dict[CodeType, str | None] = {}
        self._kinds: dict[str, str] = {}
        self._hook = self._profile  # one bound method, so that `sys.getprofile() is self._hook` can hold
        self._phased = False
        self._reset_test(None)

    # -- per-test state ------------------------------------------------------------------------------
    def _reset_test(self, nodeid: str | None) -> None:
        self._nodeid = nodeid
        self._seq = 0
        self._instances: dict[str, _InstanceTrace] = {}
        self._serials: dict[int, str] = {}
        self._refs: dict[int, Any] = {}
        self._stack: list[tuple[FrameType, str, str]] = []  # (frame, method, instance key)
        self._generators: set[int] = set()
        self._outcome: dict[str, str] = {}
        self._previous_profile: Any = None
        self._replaced = False

    # -- the window the profile function is active in ----------------------------------------------------
    def follow_phases(self) -> None:
        """From now on the profile is set only between `begin_phase()` and `end_phase()` (see the module
        docstring); the caller brackets every phase of a test in which code of the class can run."""
        self._phased = True

    def begin_phase(self) -> None:
        self._previous_profile = sys.getprofile()
        sys.setprofile(self._hook)

    def end_phase(self) -> None:
        if sys.getprofile() is not self._hook:
            self._replaced = True
        sys.setprofile(self._previous_profile)

    # -- pytest hooks (plain hooks: no pytest import needed) ------------------------------------------
    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self._reset_test(nodeid)
        if not self._phased:
            self.begin_phase()

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.nodeid == self._nodeid:
            self._outcome[report.when] = report.outcome

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        if not self._phased:
            self.end_phase()
        if self._replaced:
            self.errors.append(f"{nodeid}: the profile hook was replaced during the test; its trace is partial")
        self.tests.append(
            {
                "nodeid": nodeid,
                "outcome": self._test_outcome(),
                "instances": [trace.to_dict() for trace in self._instances.values()],
            }
        )
        self._reset_test(None)

    def _test_outcome(self) -> str:
        for when in ("setup", "call", "teardown"):
            outcome = self._outcome.get(when)
            if outcome not in (None, "passed"):
                return "error" if when != "call" and outcome == "failed" else str(outcome)
        return "passed" if "call" in self._outcome else "unknown"

    def result(self) -> dict[str, Any]:
        """The JSON-able trace of every test run so far."""
        return {
            "module": self.module_name,
            "class_name": self.class_name,
            "tests": self.tests,
            "errors": self.errors,
        }

    # -- the profile function ------------------------------------------------------------------------
    def _method_name(self, code: CodeType) -> str | None:
        name = self._names.get(code, _UNKNOWN)
        if name is _UNKNOWN:
            name = None
            if code.co_qualname == f"{self.class_name}.{code.co_name}":
                filename = code.co_filename
                if self.module_file is not None:
                    matches = os.path.realpath(filename) == self.module_file
                else:
                    matches = os.path.basename(filename) == self.basename
                if matches:
                    name = code.co_name
            self._names[code] = name
        return name  # type: ignore[return-value]

    def _method_kind(self, name: str, frame: FrameType) -> str:
        """'pseudo' for static and class methods, 'instance' otherwise (decided once per method)."""
        kind = self._kinds.get(name)
        if kind is None:
            cls = self._class_object()
            if cls is not None:
                raw = None
                for klass in getattr(cls, "__mro__", (cls,)):
                    if name in vars(klass):
                        raw = vars(klass)[name]
                        break
                kind = "pseudo" if isinstance(raw, (staticmethod, classmethod)) else "instance"
            else:  # the class could not be found: fall back on the conventional first-parameter name
                code = frame.f_code
                first = code.co_varnames[0] if code.co_argcount else ""
                kind = "instance" if first == "self" else "pseudo"
            self._kinds[name] = kind
        return kind

    def _class_object(self) -> Any:
        module = sys.modules.get(self.module_name)
        return getattr(module, self.class_name, None) if module is not None else None

    def _instance_key(self, frame: FrameType, kind: str) -> str:
        if kind == "pseudo":
            return PSEUDO_INSTANCE
        code = frame.f_code
        if not code.co_argcount:
            return PSEUDO_INSTANCE
        obj = frame.f_locals.get(code.co_varnames[0])
        ident = id(obj)
        key = self._serials.get(ident)
        if key is None:
            key = f"i{len(self._instances) + 1}"
            self._serials[ident] = key
            try:
                self._refs[ident] = weakref.ref(obj, lambda _ref, ident=ident: self._forget(ident))
            except TypeError:  # no weak references (__slots__ without __weakref__): pin it for the test
                self._refs[ident] = obj
        return key

    def _forget(self, ident: int) -> None:
        self._serials.pop(ident, None)
        self._refs.pop(ident, None)

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        # Failure mode: an exception escaping a profile function propagates into the traced program and
        # turns profiling off, so every error is caught and recorded instead.
        try:
            if event == "call":
                name = self._method_name(frame.f_code)
                if name is not None:
                    self._enter(frame, name)
            elif event == "return":
                stack = self._stack
                if stack and stack[-1][0] is frame:
                    stack.pop()
        except Exception as exc:  # noqa: BLE001 - see the comment above
            if len(self.errors) < 20:
                self.errors.append(f"{self._nodeid}: tracer error {type(exc).__name__}: {exc}")

    def _enter(self, frame: FrameType, name: str) -> None:
        kind = self._method_kind(name, frame)
        key = self._instance_key(frame, kind)
        stack = self._stack
        counted = True
        if frame.f_code.co_flags & _GENERATOR_FLAGS:
            fid = id(frame)
            counted = fid not in self._generators
            self._generators.add(fid)
        if counted:
            trace = self._instances.get(key)
            if trace is None:
                trace = self._instances[key] = _InstanceTrace(key, "pseudo" if key == PSEUDO_INSTANCE else "instance")
            self._seq += 1
            seq = self._seq
            trace.first.setdefault(name, seq)
            trace.last[name] = seq
            trace.reached[name] = None
            trace.n_calls += 1
            caller = None
            if stack:
                _, caller_name, caller_key = stack[-1]
                if caller_key == key or PSEUDO_INSTANCE in (caller_key, key):
                    caller = caller_name
                    if caller_name != name:
                        trace.edges[(caller_name, name)] = None
            else:
                trace.driven[name] = None
            if len(trace.calls) < self.max_calls_kept:
                trace.calls.append([name, caller, bool(stack)])
        stack.append((frame, name, key))


# -- pipeline side: pure functions on static edges and traces ------------------------------------------


def _edge_fields(edge: Any) -> tuple[str, str, str, str | None]:
    if isinstance(edge, Mapping):
        return edge["kind"], edge["source"], edge["target"], edge.get("attribute")
    return edge.kind, edge.source, edge.target, getattr(edge, "attribute", None)


def _tests_of(traces: Mapping[str, Any] | Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    if isinstance(traces, Mapping):
        return list(traces.get("tests", ()))
    return list(traces)


def _exercised_by(kind: str, source: str, target: str, instance: Mapping[str, Any]) -> bool:
    if kind == "call":
        return [source, target] in instance["edges"] or (source, target) in instance["edges"]
    first, last = instance["first"], instance["last"]
    return source in first and target in last and first[source] < last[target]


def edge_tests(edges: Iterable[Any], traces: Mapping[str, Any] | Iterable[Mapping[str, Any]]) -> list[list[str]]:
    """For each edge (same order), the node ids of the tests that exercised it.

    A state edge A -> B is exercised by a test when, on one instance (or on the static/class
    pseudo-instance), a call of A starts before a later call of B; a call edge when A's execution called B.
    """
    tests = _tests_of(traces)
    out: list[list[str]] = []
    for edge in edges:
        kind, source, target, _ = _edge_fields(edge)
        out.append(
            [t["nodeid"] for t in tests if any(_exercised_by(kind, source, target, i) for i in t["instances"])]
        )
    return out


def exercised_edges(edges: Iterable[Any], traces: Mapping[str, Any] | Iterable[Mapping[str, Any]]) -> list[Any]:
    """The edges (as given: `Edge` objects or dicts) that at least one test exercised."""
    edges = list(edges)
    return [edge for edge, tests in zip(edges, edge_tests(edges, traces)) if tests]


NO_EDGES_REASON = "the class has no static interaction edge: its tests cannot show methods working together"


def interaction_edge_coverage(
    edges: Iterable[Any], traces: Mapping[str, Any] | Iterable[Mapping[str, Any]]
) -> float | None:
    """Exercised / static edges, or None when the class has no static edge (see `NO_EDGES_REASON`).

    None rather than 0.0 or 1.0: a ratio over nothing is not a measurement. The gate must read None as a
    failed interaction check (a class without edges cannot show interaction), with `NO_EDGES_REASON` as
    the detail; `interaction_summary` carries that reason.
    """
    edges = list(edges)
    if not edges:
        return None
    return len(exercised_edges(edges, traces)) / len(edges)


def interaction_summary(
    edges: Iterable[Any], traces: Mapping[str, Any] | Iterable[Mapping[str, Any]], *, tests_per_edge: int = 5
) -> dict[str, Any]:
    """Everything the gate reports about interaction, as JSON-able data.

    ``max_methods_on_one_instance`` counts the distinct non-``__init__`` methods one test *drives* on one
    instance, i.e. calls from outside the class (a method reached only through another method's body does
    not count: ``add`` calling ``_check`` is one method driven); ``max_methods_reached_on_one_instance``
    counts nested calls too. The static/class pseudo-instance counts as an instance.
    """
    edges = list(edges)
    tests = _tests_of(traces)
    per_edge = edge_tests(edges, tests)
    described = []
    for edge, exercising in zip(edges, per_edge):
        kind, source, target, attribute = _edge_fields(edge)
        described.append(
            {
                "kind": kind,
                "source": source,
                "target": target,
                "attribute": attribute,
                "exercised": bool(exercising),
                "tests": exercising[:tests_per_edge],
                "n_tests": len(exercising),
            }
        )
    exercising_tests = sorted({t for ts in per_edge for t in ts})
    best, best_test, best_reached, best_reached_test = 0, None, 0, None
    for test in tests:
        for instance in test["instances"]:
            driven = len([m for m in instance["driven"] if m != "__init__"])
            reached = len([m for m in instance["reached"] if m != "__init__"])
            if driven > best:
                best, best_test = driven, test["nodeid"]
            if reached > best_reached:
                best_reached, best_reached_test = reached, test["nodeid"]
    n_exercised = sum(1 for d in described if d["exercised"])
    coverage = n_exercised / len(edges) if edges else None
    pairs = {(d["kind"], d["source"], d["target"]) for d in described}
    pairs_hit = {(d["kind"], d["source"], d["target"]) for d in described if d["exercised"]}
    return {
        "static_edges": len(edges),
        "static_call_edges": sum(1 for d in described if d["kind"] == "call"),
        "static_state_edges": sum(1 for d in described if d["kind"] == "state"),
        "exercised_edges": n_exercised,
        "exercised_call_edges": sum(1 for d in described if d["exercised"] and d["kind"] == "call"),
        "exercised_state_edges": sum(1 for d in described if d["exercised"] and d["kind"] == "state"),
        "interaction_edge_coverage": coverage,
        "coverage_reason": NO_EDGES_REASON if not edges else None,
        "pair_coverage": len(pairs_hit) / len(pairs) if pairs else None,
        "edges": described,
        "tests_traced": len(tests),
        "tests_exercising_edges": exercising_tests,
        "max_methods_on_one_instance": best,
        "max_methods_test": best_test,
        "max_methods_reached_on_one_instance": best_reached,
        "max_methods_reached_test": best_reached_test,
        "tracer_errors": list(traces.get("errors", ())) if isinstance(traces, Mapping) else [],
    }
