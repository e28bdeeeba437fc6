"""The reference as the oracle: run scenarios on it inside the sandbox and record every outcome.

One job runs all scenarios of a candidate (each a pytest test, each run twice on fresh instances) with
per-test coverage contexts and the gate's interaction tracer, so that selection optimises exactly what the
gate measures. A second run in the sandbox's `reseeded` profile (another hash seed) finds outcomes that
depend on set or dict iteration order; such steps keep their call but lose their assertion.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from core.analysis.class_facts import static_edges
from core.scenarios import Scenario
from pipeline.synthesis import jobs
from pipeline.synthesis.sandbox_files import text
from validation.sandbox import SandboxPool
from validation.sandbox.interaction import edge_tests

BEGIN, END = "<<<ORACLE-BEGIN>>>", "<<<ORACLE-END>>>"
TEST_FILE = "test_oracle.py"


@dataclass
class ScenarioRun:
    """Outcomes of one scenario on the reference, and what it exercised."""

    scenario: Scenario
    ctor: dict[str, Any] | None
    steps: list[dict[str, Any]]
    lines: frozenset[int] = frozenset()
    arcs: frozenset[tuple[int, int]] = frozenset()
    edges: frozenset[tuple[str, str, str, str]] = frozenset()
    driven: int = 0  # most distinct methods driven on one instance
    step_lines: tuple[frozenset[int], ...] = ()  # lines each step ran (empty when contexts were not recorded)
    changed: tuple[frozenset[str], ...] = ()  # attributes of its target each step changed ("*": unknown)

    @property
    def usable(self) -> bool:
        return self.ctor is None and bool(self.steps) and all(s["kind"] != "skipped" for s in self.steps)


class OracleRuns(list):
    """The runs of `run_oracle` (a list of ScenarioRun), with what a reader needs when none is usable:
    how many scenarios were proposed, and why a proposed one gave no outcome at all (`failure`)."""

    def __init__(self, runs: list[ScenarioRun], proposed: int, failure: str | None = None) -> None:
        super().__init__(runs)
        self.proposed = proposed
        self.failure = failure


def _counted(counter: Counter) -> str:
    return ", ".join(f"{name} x{count}" if count > 1 else name for name, count in counter.most_common(3)) + (
        ", ..." if len(counter) > 3 else "")


def outcome_summary(runs: list[ScenarioRun], class_name: str) -> str:
    """What the oracle's runs did, in one sentence for a rejection: why no scenario was proposed, why the
    sandbox gave no outcome, or how the constructor and the method calls fared (exceptions by type)."""
    proposed = getattr(runs, "proposed", len(runs))
    failure = getattr(runs, "failure", None)
    if proposed == 0:
        return "no call scenario was proposed: no public method could be called with the pooled argument values"
    if not runs:
        return f"the sandbox run of {proposed} scenario(s) gave no outcome: {failure or 'no reason recorded'}"
    failed_ctor = Counter(run.ctor["exc"] for run in runs if run.ctor is not None)
    built = [run for run in runs if run.ctor is None]
    if not built:
        kinds = _counted(failed_ctor) if len(failed_ctor) > 1 else next(iter(failed_ctor))
        return (f"the constructor of {class_name} raised {kinds} in every one of the {len(runs)} "
                "scenario(s) run")
    returned: Counter = Counter()
    raised: Counter = Counter()
    raised_in: dict[str, list[str]] = {}
    skipped = 0
    for run in built:
        for step, outcome in zip(run.scenario.steps, run.steps):
            kind = outcome.get("kind")
            if kind == "return":
                returned[step.method] += 1
            elif kind == "raise":
                raised[outcome["exc"]] += 1
                methods = raised_in.setdefault(outcome["exc"], [])
                if step.method not in methods:
                    methods.append(step.method)
            elif kind == "skipped":
                skipped += 1
    parts = [f"{len(runs)} scenario(s) run"]
    if failed_ctor:
        parts.append(f"the constructor raised in {sum(failed_ctor.values())} ({_counted(failed_ctor)})")
    calls = sum(returned.values()) + sum(raised.values())
    exceptions = ", ".join(
        f"{exc} x{count} (in {', '.join(raised_in[exc][:4])}{', ...' if len(raised_in[exc]) > 4 else ''})"
        for exc, count in raised.most_common(3))
    if not calls:
        parts.append("no method call ran on a built instance")
    elif not returned:
        parts.append(f"every one of the {calls} method call(s) raised: {exceptions}")
    else:
        parts.append(f"{sum(returned.values())} of {calls} method call(s) returned"
                     + (f", the others raised: {exceptions}" if raised else ""))
    if skipped:
        parts.append(f"{skipped} call(s) could not build their arguments")
    return "; ".join(parts)


def _test_name(index: int) -> str:
    return f"test_s{index:04d}"


def oracle_job_files(source: str, module: str, class_name: str, scenarios: list[Scenario]) -> dict[str, str]:
    tests = "from oracle_driver import run_scenario\n\n" + "".join(
        f"\ndef {_test_name(i)}():\n    run_scenario({i})\n" for i in range(len(scenarios))
    )
    config = {"module": module, "class_name": class_name, "scenarios": [s.to_json() for s in scenarios]}
    return {
        f"{module}.py": source,
        TEST_FILE: tests,
        "oracle_driver.py": text("oracle_driver.py"),
        "literals.py": text("literals.py"),
        "job_output.py": text("job_output.py"),
        "conftest.py": text("oracle_conftest.py"),
        "scenarios.json": json.dumps(config, sort_keys=True),
    }


def _per_test_lines(coverage: dict[str, Any] | None) -> tuple[dict[str, set[int]], dict[str, dict[int, set[int]]]]:
    """Lines per test, and per test the lines of each step (the driver's `<test id>|<step>` contexts)."""
    per_test: dict[str, set[int]] = {}
    per_step: dict[str, dict[int, set[int]]] = {}
    if not coverage or "contexts" not in coverage:
        return per_test, per_step
    for line, contexts in coverage["contexts"].items():
        for context in contexts:
            nodeid, _, step = context.partition("|")
            test = nodeid.rsplit("::", 1)[-1]
            per_test.setdefault(test, set()).add(int(line))
            if step.isdigit():
                per_step.setdefault(test, {}).setdefault(int(step), set()).add(int(line))
    return per_test, per_step


def _per_test_edges(trace: Any, edges: list[Any]) -> dict[str, set[tuple[str, str, str, str]]]:
    out: dict[str, set[tuple[str, str, str, str]]] = {}
    if not isinstance(trace, dict) or not trace.get("tests"):
        return out
    for edge, tests in zip(edges, edge_tests(edges, trace)):
        for nodeid in tests:
            out.setdefault(nodeid.rsplit("::", 1)[-1], set()).add((edge.kind, edge.source, edge.target, edge.attribute or ""))
    return out


def _per_test_driven(trace: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    if not isinstance(trace, dict):
        return out
    for test in trace.get("tests", []):
        best = 0
        for instance in test.get("instances", []):
            best = max(best, len([m for m in instance.get("driven", []) if m != "__init__"]))
        out[test["nodeid"].rsplit("::", 1)[-1]] = best
    return out


_TRACER_BROKEN = False
"""Set when the sandbox's interaction tracer failed once in this process: later jobs run without it and
edges are estimated from the scenario's own call order (`_estimated_edges`)."""


def _estimated_edges(scenario: Scenario, edges: list[Any], steps: list[dict[str, Any]]) -> set[tuple[str, str, str, str]]:
    """Edges a scenario exercises, read from its call order (used only when the tracer is unavailable):
    a state edge A -> B when a call of A precedes a call of B on the main instance; a call edge A -> B when
    A was called (its body calls B statically)."""
    order = [step.method for step, outcome in zip(scenario.steps, steps) if step.target == "obj"]
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for index, method in enumerate(order):
        first.setdefault(method, index)
        last[method] = index
    out = set()
    for edge in edges:
        if edge.kind == "call" and edge.source in first:
            out.add((edge.kind, edge.source, edge.target, edge.attribute or ""))
        elif edge.kind == "state" and edge.source in first and edge.target in last and first[edge.source] < last[edge.target]:
            out.add((edge.kind, edge.source, edge.target, edge.attribute or ""))
    return out


def run_oracle(pool: SandboxPool, *, source: str, module: str, class_name: str, scenarios: list[Scenario],
               check_hash_seed: bool = True) -> OracleRuns:
    """Run every scenario on `source` in the sandbox; raises jobs.JobFailed when no result comes back.
    A scenario whose test failed in the sandbox has no run: when none has one, the runs' `failure` says why
    (the module's import error, or the run's status)."""
    if not scenarios:
        return OracleRuns([], 0)
    files = oracle_job_files(source, module, class_name, scenarios)
    wall = 60.0 + 0.5 * len(scenarios)
    global _TRACER_BROKEN
    document = None
    if not _TRACER_BROKEN:
        try:
            document, result = jobs.run_job(pool, files=files, test_file=TEST_FILE, begin=BEGIN, end=END,
                                            coverage_file=f"{module}.py", trace_class=(module, class_name),
                                            per_test_contexts=True, wall_seconds=wall)
            if not isinstance(result.trace, dict) or "error" in result.trace or result.counts().get("killed"):
                _TRACER_BROKEN, document = True, None
        except jobs.JobFailed:
            _TRACER_BROKEN = True
    if document is None:
        document, result = jobs.run_job(pool, files=files, test_file=TEST_FILE, begin=BEGIN, end=END,
                                        coverage_file=f"{module}.py", per_test_contexts=True, wall_seconds=wall)
    reseeded: dict[str, Any] = {}
    if check_hash_seed:
        try:
            reseeded, _ = jobs.run_job(pool, files=files, test_file=TEST_FILE, begin=BEGIN, end=END,
                                       profile="reseeded", wall_seconds=wall)
        except jobs.JobFailed:
            reseeded = {}
    lines, step_lines = _per_test_lines(result.coverage)
    try:
        edges = static_edges(source, class_name)
    except Exception:  # noqa: BLE001 - no edges known: selection falls back to lines only
        edges = []
    edge_map = _per_test_edges(result.trace, edges)
    driven = _per_test_driven(result.trace)
    runs: list[ScenarioRun] = []
    for index, scenario in enumerate(scenarios):
        record = document.get(str(index))
        if record is None:
            continue
        steps = record["steps"]
        other = reseeded.get(str(index))
        changed = _changed(record)
        if other is not None and len(other["steps"]) == len(steps):
            for mine, theirs in zip(steps, other["steps"]):
                if json.dumps(mine, sort_keys=True) != json.dumps({**theirs, **({"unstable": True} if mine.get("unstable") else {})}, sort_keys=True):
                    mine["unstable"] = True
        elif check_hash_seed and reseeded:
            for mine in steps:
                mine["unstable"] = True
        name = _test_name(index)
        if _TRACER_BROKEN:
            exercised = _estimated_edges(scenario, edges, steps)
            driven_here = len({s.method for s in scenario.steps if s.target == "obj"})
        else:
            exercised, driven_here = edge_map.get(name, set()), driven.get(name, 0)
        per_step = step_lines.get(name, {})
        runs.append(ScenarioRun(scenario, record["ctor"], steps, frozenset(lines.get(name, ())),
                                frozenset(), frozenset(exercised), driven_here,
                                tuple(frozenset(per_step.get(i, ())) for i in range(len(steps))) if per_step else (),
                                changed))
    failure = None
    if scenarios and not runs:
        failure = (f"the class's module failed to import: {document['import_error']}" if document.get("import_error")
                   else f"every scenario's test failed in the sandbox (run status {result.status}: "
                        f"{'; '.join(result.notes) or dict(result.counts())})")
    return OracleRuns(runs, len(scenarios), failure)


def _changed(record: dict[str, Any]) -> tuple[frozenset[str], ...]:
    """Per step, the attributes it changed (measured in the scenario's first run); a step without the fact
    (no coverage contexts in this job) changed everything, as far as anyone can tell."""
    measured = record.get("changed") or []
    return tuple(frozenset(measured[i]) if i < len(measured) else frozenset({"*"}) for i in range(len(record["steps"])))
