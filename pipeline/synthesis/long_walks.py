"""Long walks for mined classes: one method called with each of its pooled arguments in turn, then every
query, on one instance.

The random walks of the oracle synthesis take 2 to 7 steps over all methods, which covers a class whose
branches turn on one call. A mined class often has states that only a run of calls reaches: a game won
after five moves, a buffer that flushes when full, a cache that evicts at capacity. Calling one mutating
method with every pooled argument in turn (and again in a shuffled order) reaches them; the queries at the
end observe the state reached. The scenarios go through the oracle like any other: only the runs whose
tests add coverage or interaction are selected.
"""

from __future__ import annotations

import random

from core.analysis.class_model import ClassModel
from core.scenarios import MAIN, Arg, Scenario, Step
from pipeline.synthesis.tracing import ArgumentPools

MIN_CALLS = 3  # fewer pooled calls than this: the random walks already try them all


def long_walks(model: ClassModel, pools: ArgumentPools, rng: random.Random, shuffles: int = 2) -> list[Scenario]:
    """For each public mutating method with at least MIN_CALLS distinct pooled calls: a walk through them in pool order,
    and `shuffles` walks through them in random orders, each from every pooled constructor call in turn
    and ending with each query once."""
    queries = [m.name for m in model.queries()]
    public = {m.name for m in model.public_methods()}
    out: list[Scenario] = []
    for method, calls in pools.calls.items():
        if method not in public or method not in model.mutators or len(calls) < MIN_CALLS:
            continue
        orders = [list(calls)] + [rng.sample(calls, len(calls)) for _ in range(shuffles)]
        for index, order in enumerate(orders):
            ctor = pools.ctors[index % len(pools.ctors)] if pools.ctors else None
            steps = [call.step() for call in order] + [Step(MAIN, query) for query in queries]
            out.append(Scenario(tuple(Arg(literal=a) for a in ctor.args) if ctor else (),
                                tuple((k, Arg(literal=v)) for k, v in ctor.kwargs) if ctor else (),
                                tuple(steps), origin="walk"))
    return out
