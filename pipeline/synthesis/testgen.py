"""Oracle-based test synthesis: scenarios -> outcomes on the reference (in the sandbox) -> a readable
pytest module of the scenarios that add coverage and interaction edges, greedily chosen.

Tests read like hand-written ones: one scenario per test, named for what it checks, the instance in a
variable named after the class, literal expectations, `pytest.raises` for refused calls. An expectation is
written only when the value has a literal that evaluates back to it and the value was the same in two runs
and under another hash seed; otherwise the call stays, unasserted.
"""

from __future__ import annotations

import builtins
import keyword
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.analysis.class_model import ClassModel
from pipeline.synthesis.oracle import ScenarioRun, run_oracle
from pipeline.synthesis.scenarios import CLASS, MAIN, Arg, Scenario, Step
from pipeline.synthesis.tracing import ArgumentPools, replay_scenarios

MAX_TESTS = 36
MAX_REPLAYS = 30
WALKS = 48
LINE_WEIGHT, EDGE_WEIGHT = 1.0, 2.0


@dataclass(frozen=True)
class SynthesisResult:
    test_code: str
    scenarios_run: int
    tests: int


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def variable_for(class_name: str, taken: set[str]) -> str:
    words = snake(class_name).split("_")
    for candidate in (words[-1], "_".join(words[-2:]), snake(class_name)):
        if candidate.isidentifier() and not keyword.iskeyword(candidate) and not hasattr(builtins, candidate) \
                and candidate not in taken and candidate not in ("pytest", "restored", "before"):
            return candidate
    return "instance"


# -- scenario generation --------------------------------------------------------------------------------

def random_walks(model: ClassModel, pools: ArgumentPools, rng: random.Random, count: int) -> list[Scenario]:
    """Short random sequences over the observed calls, from an observed constructor call.

    Methods that need no argument (`undo`, `freeze`, `reset_statistics`, ...) take part too, though no test
    ever called them: most methods that features add are of that kind, and without them no walk would
    ever run, say, `undo` before another change, and the state edges from restoring to capturing would go
    unexercised.
    """
    callable_bare = {m.name for m in model.public_methods() if m.kind == "instance" and m.simple_signature
                     and not m.required_params}
    methods = sorted(m.name for m in model.public_methods() if pools.calls.get(m.name) or m.name in callable_bare)
    queries = [m.name for m in model.queries()]
    if not methods:
        return []
    out = []
    for _ in range(count):
        ctor = rng.choice(pools.ctors) if pools.ctors else None
        steps: list[Step] = []
        for _ in range(rng.randint(2, 7)):
            name = rng.choice(methods)
            call = pools.sample(name, rng)
            if call is not None:
                steps.append(call.step())
            elif name in callable_bare:
                steps.append(Step(MAIN, name))
        if queries:
            steps.append(Step(MAIN, rng.choice(queries)))
        out.append(Scenario(tuple(Arg(literal=a) for a in ctor.args) if ctor else (),
                            tuple((k, Arg(literal=v)) for k, v in ctor.kwargs) if ctor else (),
                            tuple(steps), origin="walk"))
    return out


def dedupe(scenarios: Sequence[Scenario]) -> list[Scenario]:
    seen: set[str] = set()
    out = []
    for scenario in scenarios:
        if scenario.steps and scenario.key() not in seen:
            seen.add(scenario.key())
            out.append(scenario)
    return out


# -- selection ------------------------------------------------------------------------------------------

def select(runs: Sequence[ScenarioRun], max_tests: int = MAX_TESTS) -> list[ScenarioRun]:
    """Greedy set cover over lines and interaction edges; ties go to the shorter, then earlier scenario.
    Every feature that proposed scenarios keeps at least one (its methods are the task's point)."""
    usable = [r for r in runs if r.usable]
    chosen: list[int] = []
    lines: set[int] = set()
    edges: set[tuple] = set()

    def gain(run: ScenarioRun) -> float:
        return LINE_WEIGHT * len(run.lines - lines) + EDGE_WEIGHT * len(run.edges - edges)

    def take(index: int) -> None:
        chosen.append(index)
        lines.update(usable[index].lines)
        edges.update(usable[index].edges)

    while len(chosen) < max_tests:
        best, best_score = -1, 0.0
        for index, run in enumerate(usable):
            if index in chosen:
                continue
            score = gain(run) / (1.0 + 0.04 * len(run.scenario.steps))
            if score > best_score + 1e-9:
                best, best_score = index, score
        if best == -1:
            break
        take(best)
    titles = {usable[i].scenario.title for i in chosen}
    for index, run in enumerate(usable):
        if len(chosen) >= max_tests + 6:
            break
        if run.scenario.title and run.scenario.origin not in ("replay", "walk") and run.scenario.title not in titles \
                and _asserts(run) >= 1:
            take(index)
            titles.add(run.scenario.title)
    if not any(usable[i].driven >= 3 for i in chosen):
        wide = [i for i, r in enumerate(usable) if r.driven >= 3 and i not in chosen]
        if wide:
            take(min(wide, key=lambda i: (len(usable[i].scenario.steps), i)))
    return [usable[i] for i in sorted(chosen)]


def _asserts(run: ScenarioRun) -> int:
    return sum(1 for s in run.steps if s["kind"] == "raise" or (s["kind"] == "return" and s.get("literal") and not s.get("unstable")))


# -- rendering ------------------------------------------------------------------------------------------

class Renderer:
    def __init__(self, model: ClassModel, module: str) -> None:
        self.model = model
        self.module = module
        self.var = variable_for(model.name, set(model.methods))
        self.imports: set[str] = set()
        self.names: set[str] = set()

    def _name_of(self, variable: str) -> str:
        return self.var if variable == MAIN else variable

    def _arg(self, arg: Arg) -> str:
        if arg.literal is not None:
            return arg.literal
        if arg.var is not None:
            return self._name_of(arg.var)
        assert arg.call is not None
        return f"{self._name_of(arg.call[0])}.{arg.call[1]}()"

    def _call(self, step: Step) -> str:
        target = self.model.name if step.target == CLASS else self._name_of(step.target)
        parts = [self._arg(a) for a in step.args] + [f"{k}={self._arg(v)}" for k, v in step.kwargs]
        return f"{target}.{step.method}({', '.join(parts)})"

    def _exception(self, outcome: dict[str, Any]) -> str:
        if outcome.get("importable"):
            self.imports.add(outcome["importable"])
            return outcome["importable"]
        return outcome.get("builtin") or "Exception"

    def _returns_nothing(self, method: str) -> bool:
        info = self.model.methods.get(method)
        return info is None or info.returns in (None, "None") and not info.returns_value

    def lines_for(self, run: ScenarioRun) -> tuple[list[str], dict[str, Any] | None, str | None]:
        scenario = run.scenario
        ctor = ", ".join([self._arg(a) for a in scenario.ctor_args] + [f"{k}={self._arg(v)}" for k, v in scenario.ctor_kwargs])
        body = [f"{self.var} = {self.model.name}({ctor})"]
        last_checked = max((i for i, s in enumerate(run.steps) if s["kind"] == "raise" or (
            s["kind"] == "return" and not s.get("unstable") and s.get("literal") is not None
            and not (s.get("is_none") and self._returns_nothing(scenario.steps[i].method)))), default=-1)
        focus: dict[str, Any] | None = None
        focus_method: str | None = None
        needed_binds = {a.var for s in scenario.steps for a in s.args if a.var} | {
            a.call[0] for s in scenario.steps for a in s.args if a.call}
        for index, (step, outcome) in enumerate(zip(scenario.steps, run.steps)):
            if index > last_checked and not (step.bind and step.bind in needed_binds and index < last_checked):
                break
            expr = self._call(step)
            if outcome["kind"] == "raise":
                body.append(f"with pytest.raises({self._exception(outcome)}):")
                body.append(f"    {expr}")
                focus, focus_method = outcome, step.method
                continue
            literal = outcome.get("literal")
            checked = literal is not None and not outcome.get("unstable")
            if step.bind:
                body.append(f"{step.bind} = {expr}")
                if checked and index == last_checked:
                    body.append(f"assert {step.bind} == {literal}")
                    focus, focus_method = outcome, step.method
                continue
            if not checked or (outcome.get("is_none") and self._returns_nothing(step.method)):
                body.append(expr)
                continue
            if literal in ("True", "False", "None"):
                body.append(f"assert {expr} is {literal}")
            else:
                body.append(f"assert {expr} == {literal}")
            focus, focus_method = outcome, step.method
        return body, focus, focus_method

    def test_name(self, run: ScenarioRun, focus: dict[str, Any] | None, focus_method: str | None) -> str:
        scenario = run.scenario
        if scenario.title:
            base = scenario.title
        elif focus is None or focus_method is None:
            base = "sequence_of_calls"
        else:
            if focus["kind"] == "raise":
                phrase = "raises_" + snake(focus["exc"])
            else:
                literal = focus.get("literal") or ""
                slug = re.sub(r"[^a-z0-9]+", "_", literal.lower()).strip("_")
                if literal in ("True", "False"):
                    phrase = "is_" + literal.lower()
                elif literal in ("[]", "{}", "()", '""', "set()"):
                    phrase = "is_empty"
                elif slug and len(slug) <= 24:
                    phrase = "returns_" + slug
                else:
                    phrase = ""
            before: list[str] = []
            for step in scenario.steps:
                if step.method == focus_method:
                    break
                if step.method not in before:
                    before.append(step.method)
            base = f"{focus_method.lstrip('_')}_{phrase}" if phrase else focus_method.lstrip("_")
            if before:
                base += "_after_" + "_and_".join(m.lstrip("_") for m in before[-2:])
        base = re.sub(r"_+", "_", base)
        while len(base) > 72 and "_" in base:
            base = base.rsplit("_", 1)[0]  # cut at a word boundary, never mid-word
        base = base.removesuffix("_and").removesuffix("_after").rstrip("_")
        name, counter = f"test_{base}", 2
        while name in self.names:
            name, counter = f"test_{base}_{counter}", counter + 1
        self.names.add(name)
        return name

    def module_text(self, runs: Sequence[ScenarioRun]) -> str:
        blocks = []
        for run in runs:
            body, focus, focus_method = self.lines_for(run)
            if len(body) < 2:
                continue
            name = self.test_name(run, focus, focus_method)
            blocks.append(f"def {name}():\n" + "\n".join("    " + line for line in body) + "\n")
        names = ", ".join([self.model.name] + sorted(self.imports - {self.model.name}))
        header = f"import pytest\n\nfrom {self.module} import {names}\n"
        return header + "\n\n" + "\n\n".join(blocks)


def synthesize_tests(pool: Any, *, source: str, module: str, model: ClassModel, pools: ArgumentPools,
                     extra: Sequence[Scenario], rng: random.Random, max_tests: int = MAX_TESTS) -> SynthesisResult:
    """Propose scenarios, run them on the reference in the sandbox, select and render the tests."""
    from pipeline.timing import timed

    with timed("synthesis", "scenarios: propose"):
        bases = replay_scenarios(pools)[:MAX_REPLAYS]
        scenarios = dedupe(list(bases) + list(extra) + random_walks(model, pools, rng, WALKS))
    with timed("synthesis", "scenarios: oracle runs (one batched session + reseeded)"):
        runs = run_oracle(pool, source=source, module=module, class_name=model.name, scenarios=scenarios)
    with timed("synthesis", "tests: select and render"):
        chosen = select(runs, max_tests)
        text = Renderer(model, module).module_text(chosen)
    return SynthesisResult(text, len(scenarios), len(chosen))
