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

The other side of the same rule: a method *stated as adding* (`statements.stated_as_adding`: "Add the text to
the buffer", or an `add` documented only by observation, with no flush, limit or filter stated) whose call
with a non-empty argument keeps nothing of it, so that the next call on the object reads it empty (`None`,
`0`, `[]`, ...). A buffer that flushes itself when a sentence ends does that: a test asserting that `flush()`
then returns None checks a flush rule no docstring states. The call is suspect when it changed no attribute
and returned something (it handed on what it was given, where a call that returns nothing was refused or
ignored), or, when it changed some, the next call reads something without it (run again without the call)
and nothing with it (what was there before was taken away). Recorded with the effect "keeps nothing of what
it adds".
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.analysis.statements import skeleton_statements, stated_as_adding, stated_as_query
from core.scenarios import MAIN, Scenario
from pipeline.synthesis.oracle import ScenarioRun, run_oracle
from validation.sandbox import SandboxPool

EFFECT = "changes what later calls return"
"""The `effect` of a reference defect recorded by this rule for a query."""

KEEPS_NOTHING = "keeps nothing of what it adds"
"""The `effect` recorded for an addition that keeps nothing of its argument."""

EMPTY_LITERALS = frozenset({"None", "0", "0.0", "''", '""', "[]", "{}", "()", "set()", "b''"})
"""A result that reads the object empty."""

MAX_ABLATIONS = 200
"""Suspect calls run again per synthesis at most (one sandbox session holds them all); the runs beyond it are
dropped unverified (recorded without `observed_by`), which only ever removes tests."""


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


def _non_empty_argument(step: Any) -> bool:
    arguments = (*step.args, *(v for _, v in step.kwargs))
    return any(a.literal is not None and a.literal not in EMPTY_LITERALS for a in arguments)


def _reads_empty(outcome: dict[str, Any]) -> bool:
    return outcome.get("kind") == "return" and outcome.get("literal") in EMPTY_LITERALS


def adding_suspects(run: ScenarioRun, adding: frozenset[str]) -> list[tuple[int, int, bool]]:
    """(call, the next call on the object, whether the call changed attributes) for each call in `run` of a
    method stated as adding (`adding`) with a non-empty argument, that returned, and after which the next call
    on the object, of a method that does not add, read it empty and changed nothing. A call that changed
    nothing counts only when it returned something (what it was given, handed on): one that returned nothing
    was refused or ignored."""
    steps = run.scenario.steps
    found = []
    for index, step in enumerate(steps):
        if (step.target != MAIN or step.method not in adding or not _non_empty_argument(step)
                or index >= len(run.steps) or _bound_later(run.scenario, index)):
            continue
        following = next((j for j in range(index + 1, len(steps)) if steps[j].target == MAIN), None)
        if (run.steps[index].get("kind") != "return" or following is None or following >= len(run.steps)
                or steps[following].method in adding or not _reads_empty(run.steps[following])
                or (run.changed[following] if following < len(run.changed) else {"*"})):
            continue  # the next call must read: one that changed the object (a purchase, an order) acts on it
        changed = run.changed[index] if index < len(run.changed) else frozenset({"*"})
        # a call that changed nothing and answered nothing was refused or ignored (a score for an unknown
        # student): the object was empty before it too. One that answered something handed it on.
        if changed or not _reads_empty(run.steps[index]) and run.steps[index].get("literal") != "False":
            found.append((index, following, bool(changed)))
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


def adding_methods(source: str, class_name: str) -> frozenset[str]:
    """The methods of `class_name` whose docstrings (or names) in `source` state them as adding."""
    statements = skeleton_statements(source, class_name)
    return frozenset(m for m in statements.methods if m != "__init__" and stated_as_adding(statements, m))


def _without(scenario: Scenario, index: int) -> Scenario:
    return scenario.with_steps(scenario.steps[:index] + scenario.steps[index + 1:])


@dataclass(frozen=True)
class Suspect:
    """A call of a run whose effect may be unstated: `compare` is the call to compare (None: every later
    one), `again` whether the run must be run again without the call to tell."""

    run: int
    call: int
    compare: int | None
    effect: str
    again: bool = True


def _suspects(runs: Sequence[ScenarioRun], source: str, class_name: str) -> list[Suspect]:
    """The suspect calls: a query's, compared on every later call; an addition's, on the next one (no second
    run when the addition changed nothing at all)."""
    queries, adding = query_methods(source, class_name), adding_methods(source, class_name)
    found: list[Suspect] = []
    for r, run in enumerate(runs):
        found += [Suspect(r, i, None, EFFECT) for i in suspect_steps(run, queries)] if queries else []
        found += [Suspect(r, i, j, KEEPS_NOTHING, changed)
                  for i, j, changed in adding_suspects(run, adding)] if adding else []
    return found


def _observed(run: ScenarioRun, suspect: Suspect, other: ScenarioRun | None) -> str | None:
    """The call that saw the suspect call's effect, "?" when that could not be run again, or None when the
    second run (`other`) shows no effect."""
    steps = run.scenario.steps
    if not suspect.again:  # an addition that changed nothing: the next call read the object empty
        return steps[suspect.compare].method
    if other is None:  # not run again (over the limit, or its run gave no outcome): dropped unverified
        return "?"
    if suspect.compare is None:
        return first_difference(run, suspect.call, other)
    theirs = suspect.compare - 1  # the addition emptied what the next call reads without it
    read = other.steps[theirs] if theirs < len(other.steps) else {}
    if read.get("kind") == "return" and not _reads_empty(read):
        return steps[suspect.compare].method
    return None


def effect_runs(pool: SandboxPool, runs: Sequence[ScenarioRun], *, source: str, module: str,
                class_name: str) -> tuple[list[ScenarioRun], tuple[dict[str, Any], ...]]:
    """The runs that observe no unstated effect, and the reference defects the others show: per (method,
    effect, the call that saw it) the number of runs dropped for it, in order of first sight. Suspect calls
    that need it are run again without themselves in one sandbox session (nothing runs when none does)."""
    suspects = _suspects(runs, source, class_name)
    if not suspects:
        return list(runs), ()
    again = [s for s in suspects if s.again][:MAX_ABLATIONS]
    ablated = run_oracle(pool, source=source, module=module, class_name=class_name, check_hash_seed=False,
                         scenarios=[_without(runs[s.run].scenario, s.call) for s in again]) if again else []
    by_key = {run.scenario.key(): run for run in ablated}
    tried = {_without(runs[s.run].scenario, s.call).key() for s in again}
    dropped: dict[int, tuple[str, str, str | None]] = {}
    for suspect in suspects:
        if suspect.run in dropped:
            continue
        key = _without(runs[suspect.run].scenario, suspect.call).key()
        observer = _observed(runs[suspect.run], suspect, by_key.get(key) if key in tried else None)
        if observer is not None:
            method = runs[suspect.run].scenario.steps[suspect.call].method
            dropped[suspect.run] = (method, suspect.effect, None if observer == "?" else observer)
    defects = Counter(dropped[r] for r in sorted(dropped))
    return ([run for r, run in enumerate(runs) if r not in dropped],
            tuple({"method": method, "effect": effect, "observed_by": observer, "scenarios": count}
                  for (method, effect, observer), count in defects.items()))
