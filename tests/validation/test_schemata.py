"""Mutant schemata: which mutants switch in the one module, and the same verdict per mutant both ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from validation.gate import validate_candidate
from validation.mutation import generate_mutants
from validation.schemata import SWITCH, generate_mutants_with_schema

SOURCE = '''import math

COUNT = 0


class Meter:
    def __init__(self, scale=2):
        self.scale = scale
        self.readings = []

    def add(self, value):
        global COUNT
        COUNT += 1
        if value < 0: return None
        self.readings.append(value * self.scale)
        return value

    def mean(self):
        total = 0
        for r in self.readings:
            total = total + r
        return total / len(self.readings) if self.readings else 0.0

    def spread(self):
        import math
        if len(self.readings) > 1:
            return math.sqrt(max(self.readings) - min(self.readings))
        return 0.0

    def each(self):
        for r in self.readings:
            yield r + 1
'''

TESTS = '''from meter import Meter


def test_add_and_mean():
    m = Meter()
    assert m.add(3) == 3
    assert m.add(-1) is None
    m.add(5)
    assert m.mean() == 8.0


def test_spread_and_each():
    m = Meter(scale=1)
    assert m.spread() == 0.0
    m.add(1)
    m.add(5)
    assert m.spread() == 2.0
    assert list(m.each()) == [2, 6]
'''


def _switched(source: str, class_name: str) -> dict[str, bool]:
    mutants, schema = generate_mutants_with_schema(source, class_name)
    return {f"{m.line}:{m.description}": m.id in schema.switch for m in mutants}


def test_same_mutants_with_and_without_schema() -> None:
    plain = generate_mutants(SOURCE, "Meter", max_mutants=15, seed=3)
    with_schema, schema = generate_mutants_with_schema(SOURCE, "Meter", max_mutants=15, seed=3)
    assert plain == with_schema
    assert schema.source is not None and SWITCH in schema.source
    assert len(set(schema.switch.values())) == len(schema.switch) and 0 not in schema.switch.values()
    compile(schema.source, "schema", "exec")


def test_places_that_cannot_switch_run_from_their_own_source() -> None:
    switched = _switched(SOURCE, "Meter")
    cannot = {
        "7:2 -> 3",  # a parameter default is evaluated when the method is defined
        "12:global COUNT -> pass",  # global, nonlocal, yield: the function's scopes or kind would change
        "32:yield r + 1 -> pass", "32:+ -> -", "32:1 -> 2",
        "25:import math -> pass",  # the only binding of a local name: removed, the name becomes global
    }
    assert {k for k, v in switched.items() if not v} == cannot
    # among those that switch: statements, the test of a one-line `if`, a removal whose name is bound
    # again later in the method, a line after a `global` declaration
    for key in ("8:self.scale = scale -> pass", "14:< -> <=", "19:total = 0 -> pass", "13:+= -> -=",
                "26:> -> >=", "22:return total / len(self.readings) ... -> return None"):
        assert switched[key], key


def _seed_candidate(folder: str):
    from pipeline.corpus.inputs import seed_to_candidate
    from pipeline.corpus.seeds import SeedProblem, load_seed

    path = Path(__file__).resolve().parents[2] / "seeds" / folder
    seed = load_seed(path, path.parent.name)
    assert not isinstance(seed, SeedProblem), seed
    return seed_to_candidate(seed)


def _verdicts(candidate, policy, pool) -> tuple[int, int, list[str], int]:
    report = validate_candidate(candidate, policy, pool)
    mutation = report.evidence["mutation"]
    return (mutation["mutants"], mutation["killed"], sorted(m["id"] for m in mutation["surviving"]),
            mutation["run_by_schema"])


@pytest.mark.slow
@pytest.mark.parametrize("which", ["inline", "Game_Sim/dice_scorecard", "Text_NLP/line_diff"])
def test_schema_runner_gives_the_per_mutant_runner_verdicts(which, pool, fast_policy, candidate_of) -> None:
    """Every mutant is killed or survives the same way as when it runs from its own source (the old way)."""
    candidate = candidate_of(SOURCE, TESTS, "Meter", "meter") if which == "inline" else _seed_candidate(which)
    policy = fast_policy.model_copy(update={"robustness": False, "max_mutants": 40 if which == "inline" else 25})
    old = _verdicts(candidate, policy.model_copy(update={"mutant_schemata": False}), pool)
    new = _verdicts(candidate, policy, pool)
    assert old[:3] == new[:3]
    assert old[3] == 0 and new[3] > 0.6 * new[0]  # most mutants ran by switching, none did the old way
    assert 0 < old[1] < old[0] if which == "inline" else old[1] > 0  # the inline suite kills some, not all
