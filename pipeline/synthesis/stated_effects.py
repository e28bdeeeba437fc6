"""Tests that never observe an effect the skeleton does not state, whatever the class's origin.

ClassEval's `MetricsCalculator` documents `precision`, `recall` and `f1_score` as calculations ("Calculate
precision"), yet its reference updates the counts inside each of them, so a second call on the same object
sees the first call's labels again; `f1_score` (which calls both) counts them three times. A test written by
running that reference after another call expects `0.4067796610169491` where an implementation that counts
once gives 0.4: the test locks in the defect. The same holds for any class, mined or generated.

The rule, decided once for every origin (`testgen.synthesize_tests` and the repair round ask it):

- a method is *stated as a query* when its docstring describes a computation or a question and nothing in
  the docstrings says it changes anything (`core.analysis.statements.stated_as_query`);
- such a method's call is *suspect* in a run on the reference when the oracle saw it change an attribute of
  the object and a later call on the object follows it;
- the suspect run is run again in the sandbox without that call; when a later call's outcome differs (its
  result, or what it raised), the call changed what later calls return through an effect no docstring
  states. The run is not made into a test and is recorded as a reference defect (method, the call that
  observed it, the number of runs), like a run raising an undocumented exception.

A query that only caches (memoises its result, builds an index lazily) changes attributes but not what later
calls return: the second run shows the same outcomes, and its runs stay tests.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from core.analysis.statements import skeleton_statements, stated_as_query
from core.scenarios import MAIN, Scenario
from pipeline.synthesis.oracle import ScenarioRun, run_oracle
from validation.sandbox import SandboxPool

EFFECT = "changes what later calls return"
"""The `effect` of a reference defect recorded by this rule."""

MAX_ABLATIONS = 200
"""Suspect calls run again per synthesis at most (one sandbox session holds them all); the runs beyond it are
dropped as suspects without the second run, which only ever removes tests."""


def _bound_later(scenario: Scenario, index: int) -> bool:
    """Whether a later step uses what step `index` bound (removing the step would break the scenario)."""
    name = scenario.steps[index].bind
    if not name:
        return False
    return any(a.var == name or (a.call and a.call[0] == name)
               for step in scenario.steps[index + 1:] for a in (*step.args, *(v for _, v in step.kwargs))) or any(
        step.target == name for step in scenario.steps[index + 1:])


def suspect_steps(run: ScenarioRun, queries: frozenset[str]) -> list[int]:
    """Indices of the calls in `run` of a method stated as a query (`queries`) that changed an attribute of
    the object (or whose changes are unknown) and that a later call on the object follows."""
    steps = run.scenario.steps
    found = []
    for index, step in enumerate(steps):
        changed = run.changed[index] if index < len(run.changed) else frozenset({"*"})
        if (step.target == MAIN and step.method in queries and changed and index < len(run.steps)
                and run.steps[index].get("kind") == "return"
                and any(later.target == MAIN for later in steps[index + 1:]) and not _bound_later(run.scenario, index)):
            found.append(index)
    return found


def _outcome(step: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in step.items() if k != "unstable"}, sort_keys=True)


def first_difference(run: ScenarioRun, index: int, ablated: ScenarioRun) -> str | None:
    """The method of the first call after step `index` whose outcome differs once step `index` is left out
    (`ablated` ran the same scenario without it), or None when every later outcome is the same."""
    later = run.scenario.steps[index + 1:]
    for offset, step in enumerate(later):
        mine, theirs = index + 1 + offset, index + offset
        if mine >= len(run.steps) or theirs >= len(ablated.steps):
            return None
        if run.steps[mine].get("unstable"):  # differs from run to run anyway, and is never asserted
            continue
        if _outcome(run.steps[mine]) != _outcome(ablated.steps[theirs]):
            return step.method
    return None


def query_methods(source: str, class_name: str) -> frozenset[str]:
    """The methods of `class_name` whose docstrings in `source` state them as queries."""
    statements = skeleton_statements(source, class_name)
    return frozenset(m for m in statements.methods if m != "__init__" and stated_as_query(statements, m))


def effect_runs(pool: SandboxPool, runs: Sequence[ScenarioRun], *, source: str, module: str,
                class_name: str) -> tuple[list[ScenarioRun], tuple[dict[str, Any], ...]]:
    """The runs that observe no unstated effect, and the reference defects the others show: per (method, the
    call that saw the effect) the number of runs dropped for it, in order of first sight. Suspect calls are
    run again without themselves in one sandbox session (nothing runs when no call is suspect)."""
    queries = query_methods(source, class_name)
    suspects = [(r, i) for r, run in enumerate(runs) for i in suspect_steps(run, queries)] if queries else []
    if not suspects:
        return list(runs), ()
    tried = suspects[:MAX_ABLATIONS]
    ablated = run_oracle(pool, source=source, module=module, class_name=class_name, check_hash_seed=False,
                         scenarios=[runs[r].scenario.with_steps(runs[r].scenario.steps[:i] + runs[r].scenario.steps[i + 1:])
                                    for r, i in tried])
    by_key = {run.scenario.key(): run for run in ablated}
    tried_keys = {runs[r].scenario.with_steps(runs[r].scenario.steps[:i] + runs[r].scenario.steps[i + 1:]).key()
                  for r, i in tried}
    dropped: dict[int, tuple[str, str | None]] = {}
    for r, i in suspects:
        if r in dropped:
            continue
        scenario = runs[r].scenario
        key = scenario.with_steps(scenario.steps[:i] + scenario.steps[i + 1:]).key()
        other = by_key.get(key) if key in tried_keys else None
        if other is None:  # not run again (over the limit, or its run gave no outcome): dropped unverified
            dropped[r] = (scenario.steps[i].method, None)
        elif (observer := first_difference(runs[r], i, other)) is not None:
            dropped[r] = (scenario.steps[i].method, observer)
    defects = Counter(dropped[r] for r in sorted(dropped))
    return ([run for r, run in enumerate(runs) if r not in dropped],
            tuple({"method": method, "effect": EFFECT, "observed_by": observer, "scenarios": count}
                  for (method, observer), count in defects.items()))
