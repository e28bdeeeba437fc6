"""Hand-written composed classes, coherent and incoherent, through the whole gate and the deterministic
judges: every coherent one is accepted, every incoherent one is rejected `incoherent_fusion` and for nothing
else.

Each folder under tests/validation/fusions/ holds one fusion written the way a model or a person writes one
(renamed fields, shared helpers, fees and counters charged through private methods, one part holding the
other's records, a sqlite3 database behind one part, links woven into one part's own operation or a method of
their own): `solution.py` (the class), `task_tests.py` (its tests; not named test_* so that pytest does not
collect them here), `case.toml` (class and module name, whether it is coherent, why, and its parts). The
skeleton is the solution's (`make_skeleton`), as a writer of the skeleton first would state it.

The parts come the way the gate receives them: `[parts]` as the offline composer records them (every member
of each seed by its name in the hybrid), or `[seeds]` as a model's composition gets them, recovered by
`core.analysis.parts.part_members` from what the two seeds were called before the fusion renamed and added
members (the seeds' member names, written out as outlines of the seed classes).

All candidates share one sandbox pool (tests/validation/conftest.py) and are validated two at a time.
"""

from __future__ import annotations

import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from core.analysis.parts import part_members
from core.analysis.skeleton import make_skeleton
from core.records import Candidate, GeneratorSpec, Origin, Provenance, RejectReason
from judges.config import JudgesConfig
from pipeline.stages.judge import offline_panel
from validation.gate import validate_candidate

pytestmark = pytest.mark.slow

FOLDER = Path(__file__).resolve().parent / "fusions"
CASES = sorted(p for p in FOLDER.iterdir() if (p / "case.toml").is_file())


def _outline(name: str, members: dict[str, list[str]]) -> str:
    """A seed class reduced to its members' names: all that the recovery of parts reads of a seed."""
    lines = [f"class {name}:", "    def __init__(self):"]
    lines += [f"        self.{f} = None" for f in members.get("fields", [])] or ["        pass"]
    lines += [f"    def {m}(self):\n        pass" for m in members.get("methods", [])]
    return "\n".join(lines) + "\n"


def _parts(case: dict, solution: str) -> dict:
    if "parts" in case:
        return case["parts"]
    seeds = [(name, _outline(name, members)) for name, members in case["seeds"].items()]
    parts = part_members(solution, case["class_name"], seeds)
    assert parts is not None, f"{case['class_name']}: the parts could not be recovered from {list(case['seeds'])}"
    return parts


def fusion_candidate(folder: Path) -> tuple[dict, Candidate]:
    case = tomllib.loads((folder / "case.toml").read_text())
    solution, tests = (folder / "solution.py").read_text(), (folder / "task_tests.py").read_text()
    backend = "offline" if "parts" in case else "litellm"
    return case, Candidate(
        candidate_id=Candidate.make_id(case["class_name"], solution, tests),
        class_name=case["class_name"], module_name=case["module"], domains=("Testing", "Fusions"),
        description=case["why"], skeleton=make_skeleton(solution, case["class_name"]), solution_code=solution,
        test_code=tests, origin=Origin.COMPOSED, provenance=Provenance(source=f"tests/validation/fusions/{folder.name}"),
        generator=GeneratorSpec(backend=backend, parameters={"stage": "compose", "parts": _parts(case, solution)}))


@pytest.fixture(scope="module")
def outcomes(pool, fast_policy):
    """Case folder name -> (case, gate report, the deterministic checks' decision or None when the gate
    rejected), for every case, validated two at a time on the shared pool."""
    policy = fast_policy.model_copy(update={"max_mutants": 12})
    panel = offline_panel(JudgesConfig(), pool, policy.limits())

    def one(folder: Path):
        case, candidate = fusion_candidate(folder)
        report = validate_candidate(candidate, policy, pool)
        return folder.name, (case, report, panel.review(candidate, report) if report.passed else None)

    with ThreadPoolExecutor(max_workers=2) as threads:
        return dict(threads.map(one, CASES))


def test_there_are_ten_coherent_and_ten_incoherent_fusions():
    kinds = [tomllib.loads((p / "case.toml").read_text())["coherent"] for p in CASES]
    assert kinds.count(True) >= 10 and kinds.count(False) >= 10


@pytest.mark.parametrize("folder", CASES, ids=lambda p: p.name)
def test_a_fusion_is_judged_by_whether_its_parts_exchange_state(folder, outcomes):
    case, report, decision = outcomes[folder.name]
    seam = report.check("seam_interaction")
    assert seam is not None and seam.gated, "the parts were not measured"
    if case["coherent"]:
        assert report.passed, (report.reasons, [(c.name, c.detail) for c in report.checks if not c.passed])
        assert decision is not None and decision.outcome.value == "accept", decision
    else:
        assert report.reasons == (RejectReason.INCOHERENT_FUSION,), (
            report.reasons, [(c.name, c.detail) for c in report.checks if not c.passed])
