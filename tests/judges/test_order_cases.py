"""The consistency judge on the 30 hand-labelled order cases (tests/core/analysis/order_cases.toml, where
`core.analysis.statements.order_stated` is tested on them): it reports every order the skeleton leaves open
and none that the skeleton states, which checks that the judge asks the rule of the right method."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from core.analysis.skeleton import make_skeleton
from core.records import Candidate, GeneratorSpec, Origin, Provenance
from judges.offline.consistency import ConsistencyJudge

HERE = Path(__file__).parent
SEEDS = HERE.parents[1] / "seeds"
DATA = tomllib.loads((HERE.parent / "core" / "analysis" / "order_cases.toml").read_text(encoding="utf-8"))
CASES = DATA["case"]


def _skeleton(case: dict) -> str:
    if "seed" in case:
        name = case["seed"].split("/")[1]
        return make_skeleton((SEEDS / case["seed"] / f"{name}.py").read_text(encoding="utf-8"), case["class_name"])
    return DATA["skeleton"][case["class_name"]]["text"]


def _test_module(case: dict) -> str:
    """The case's assertion in a test whose fixture builds the instance (the judge follows fixtures)."""
    compare = ast.parse(case["assertion"]).body[0].test
    receiver = compare.left.func.value.id
    return (f"import pytest\n\nfrom task import {case['class_name']}\n\n\n@pytest.fixture\ndef {receiver}():\n"
            f"    return {case['class_name']}()\n\n\ndef test_case({receiver}):\n    {case['assertion']}\n")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_judge_reports_exactly_the_unstated_orders(case):
    skeleton = _skeleton(case)
    candidate = Candidate(candidate_id="c", class_name=case["class_name"], module_name="task", domains=("D",),
                          description="d", skeleton=skeleton, solution_code=skeleton, test_code=_test_module(case),
                          origin=Origin.ENHANCED, provenance=Provenance(), generator=GeneratorSpec(backend="offline"))
    finding = ConsistencyJudge().review(candidate, None).findings[0]
    reported = f"compares {case['method']}() with an ordered sequence" in finding.note
    assert reported == (case["expected"] == "order"), f"{case['why']} -- judge: {finding.note}"
