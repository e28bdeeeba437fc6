"""Argument pools: the values each method is really called with, harvested by running the source class's
own tests under a recording conftest in the sandbox (the source is untrusted; it never runs here).

The pools keep whole calls, not loose values, because arguments are correlated (a deal name and the deal's
owner); they also keep each traced instance's sequence of calls, which becomes a *replay* scenario: a
known-good path through the class that the feature scenarios extend.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from core.scenarios import MAIN, Arg, Scenario, Step
from pipeline.synthesis import jobs
from pipeline.synthesis.sandbox_files import text
from validation.sandbox import SandboxPool

BEGIN, END = "<<<HARVEST-BEGIN>>>", "<<<HARVEST-END>>>"


@dataclass(frozen=True)
class ObservedCall:
    method: str
    args: tuple[str, ...]
    kwargs: tuple[tuple[str, str], ...] = ()

    def step(self, method: str | None = None, target: str = MAIN) -> Step:
        return Step(target=target, method=method or self.method, args=tuple(Arg(literal=a) for a in self.args),
                    kwargs=tuple((k, Arg(literal=v)) for k, v in self.kwargs))


@dataclass
class ArgumentPools:
    """Observed constructor calls, method calls (distinct, first-seen order) and replayable sequences, and
    what each method returned (a literal, or None for a value without one; `observed_types` reads both)."""

    ctors: list[ObservedCall] = field(default_factory=list)
    calls: dict[str, list[ObservedCall]] = field(default_factory=dict)
    replays: list[tuple[ObservedCall | None, list[ObservedCall]]] = field(default_factory=list)
    results: dict[str, list[str | None]] = field(default_factory=dict)

    def sample(self, method: str, rng: random.Random) -> ObservedCall | None:
        observed = self.calls.get(method)
        return rng.choice(observed) if observed else None

    def renamed(self, methods: dict[str, str], ctor_params: dict[str, str] | None = None) -> ArgumentPools:
        """The same pools with method names mapped (composition renames colliding methods)."""
        def move(call: ObservedCall) -> ObservedCall:
            return ObservedCall(methods.get(call.method, call.method), call.args, call.kwargs)
        return ArgumentPools(
            ctors=list(self.ctors),
            calls={methods.get(m, m): [move(c) for c in cs] for m, cs in self.calls.items()},
            replays=[(ctor, [move(c) for c in seq]) for ctor, seq in self.replays],
            results={methods.get(m, m): list(rs) for m, rs in self.results.items()},
        )


def harvest_job_files(source: str, tests: str, module: str, class_name: str) -> dict[str, str]:
    import json

    return {
        f"{module}.py": source,
        f"test_{module}.py": tests,
        "conftest.py": text("argument_tracer.py"),
        "literals.py": text("literals.py"),
        "job_output.py": text("job_output.py"),
        "harvest_config.json": json.dumps({"module": module, "class_name": class_name}),
    }


def parse_harvest(document: dict[str, Any], public: set[str]) -> ArgumentPools:
    pools = ArgumentPools()
    seen: set[tuple] = set()
    seen_ctor: set[tuple] = set()

    def observed(method: str, call: dict[str, Any]) -> ObservedCall:
        return ObservedCall(method, tuple(call["args"]), tuple((k, v) for k, v in call["kwargs"]))

    for test in document.get("tests", []):
        for instance in test.get("instances", []):
            ctor = observed("__init__", instance["ctor"]) if instance.get("ctor") else None
            if ctor is not None and (ctor.args, ctor.kwargs) not in seen_ctor:
                seen_ctor.add((ctor.args, ctor.kwargs))
                pools.ctors.append(ctor)
            sequence: list[ObservedCall] = []
            broken = instance.get("ctor_broken", False) or instance.get("ctor") is None
            for entry in instance.get("calls", []) + instance.get("nested", []):
                if "result" in entry and entry["method"] in public:  # absent when the call raised
                    results = pools.results.setdefault(entry["method"], [])
                    if entry["result"] not in results:  # distinct values are all a type needs
                        results.append(entry["result"])
                if entry["call"] is None or entry["method"] not in public:
                    continue
                call = observed(entry["method"], entry["call"])
                key = (call.method, call.args, call.kwargs)
                if key not in seen:
                    seen.add(key)
                    pools.calls.setdefault(call.method, []).append(call)
            for entry in instance.get("calls", []):
                if entry["call"] is None:
                    break  # later calls may depend on a value we cannot write down
                if entry["method"] in public:
                    sequence.append(observed(entry["method"], entry["call"]))
            if sequence and not broken:
                pools.replays.append((ctor, sequence))
    return pools


def harvest(pool: SandboxPool, *, source: str, tests: str, module: str, class_name: str,
            public: set[str]) -> ArgumentPools:
    """Run the class's own tests in the sandbox under the recording conftest and build the pools."""
    files = harvest_job_files(source, tests, module, class_name)
    test_file = next(name for name in files if name.startswith("test_"))
    document, _ = jobs.run_job(pool, files=files, test_file=test_file, begin=BEGIN, end=END)
    return parse_harvest(document, public)


def replay_scenarios(pools: ArgumentPools, max_steps: int = 14) -> list[Scenario]:
    """Each traced instance's calls as a scenario (long ones split into overlapping windows)."""
    out: list[Scenario] = []
    seen: set[str] = set()
    for ctor, sequence in pools.replays:
        ctor_args = tuple(Arg(literal=a) for a in ctor.args) if ctor else ()
        ctor_kwargs = tuple((k, Arg(literal=v)) for k, v in ctor.kwargs) if ctor else ()
        windows = [sequence] if len(sequence) <= max_steps else [sequence[:max_steps], sequence[: max_steps // 2] + sequence[-max_steps // 2:]]
        for window in windows:
            scenario = Scenario(ctor_args, ctor_kwargs, tuple(c.step() for c in window), origin="replay")
            if scenario.key() not in seen:
                seen.add(scenario.key())
                out.append(scenario)
    return out
