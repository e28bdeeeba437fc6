"""A small run folder written record by record: candidates from two sources, their gate reports, rejections
from three stages and verdicts from two judges."""

from __future__ import annotations

from core.agreement import AGREEMENT_FILE, agreement
from core.funnel import Funnel, StageCount
from core.records import (
    Candidate,
    Decision,
    GateReport,
    GeneratorSpec,
    JudgeSpec,
    Origin,
    Provenance,
    Rejection,
    RejectReason,
    Verdict,
)
from core.store import ArtifactStore
from models.run_state import USAGE_FILE
from models.usage import UsageRow, UsageSummary

RUN = "run-report"


def candidate(cid: str, origin: Origin, domains: tuple[str, ...]) -> Candidate:
    return Candidate(candidate_id=cid, class_name="Thing", module_name="thing", domains=domains, description="A thing.",
                     skeleton="class Thing:\n    pass\n", solution_code="class Thing:\n    pass\n",
                     test_code="def test_x():\n    pass\n", origin=origin, provenance=Provenance(),
                     generator=GeneratorSpec(backend="offline"))


def gate(cid: str, passed: bool, line: float, interaction: float | None, mutation: float | None = None) -> GateReport:
    return GateReport(candidate_id=cid, passed=passed, reasons=() if passed else (RejectReason.LOW_COVERAGE,),
                      line_coverage=line, interaction_edge_coverage=interaction, mutation_score=mutation)


def rejection(cid: str, stage: str, reason: RejectReason, detail: str) -> Rejection:
    return Rejection(candidate_id=cid, stage=stage, reason=reason, detail=detail)


def verdict(cid: str, judge: str, decision: Decision) -> Verdict:
    return Verdict(candidate_id=cid, judge=JudgeSpec(backend="litellm", model=judge), decision=decision)


def write_run(store: ArtifactStore) -> None:
    """e1, e2, e3 enhanced (e2 fails the gate, e3 is dropped at release as a duplicate), c1 composed and
    repaired into c1r which passes the gate and is rejected by the judges; one enhance attempt and one
    compose attempt failed to generate."""
    for cid, origin, domains in (("e1", Origin.ENHANCED, ("Math_Stats",)), ("e2", Origin.ENHANCED, ("Math_Stats",)),
                                 ("e3", Origin.ENHANCED, ("Text_NLP",))):
        store.write(RUN, "enhance", cid, candidate(cid, origin, domains))
    store.write(RUN, "compose", "c1", candidate("c1", Origin.COMPOSED, ("Math_Stats", "Game_Sim")))
    store.write(RUN, "repair", "c1", candidate("c1r", Origin.COMPOSED, ("Math_Stats", "Game_Sim")))
    for report in (gate("e1", True, 0.97, 0.8, 0.9), gate("e2", False, 0.5, 0.1), gate("e3", True, 0.93, 1.0),
                   gate("c1", False, 0.6, 0.5), gate("c1r", True, 0.95, 0.75)):
        store.write(RUN, "validate", report.candidate_id, report)
    for r in (rejection("e2", "validate", RejectReason.LOW_COVERAGE, "line_coverage: 0.50 < 0.90"),
              rejection("x1", "enhance", RejectReason.GENERATION_FAILED, "no transform applies"),
              rejection("x2", "compose", RejectReason.GENERATION_FAILED, "no shared type"),
              rejection("e3", "release", RejectReason.DUPLICATE, "same tree as e1 <script>"),
              rejection("c1r", "judge", RejectReason.JUDGE_REJECTED, "2 of 2 judges rejected")):
        store.write(RUN, "rejections", r.candidate_id, r)
    store.write(RUN, "release", "e3", rejection("e3", "release", RejectReason.DUPLICATE, "same tree as e1 <script>"))
    verdicts = [(verdict(cid, "judge-a", a), verdict(cid, "judge-b", b))
                for cid, a, b in (("e1", Decision.ACCEPT, Decision.ACCEPT), ("e3", Decision.ACCEPT, Decision.REJECT),
                                  ("c1r", Decision.REJECT, Decision.REJECT), ("e2", Decision.ABSTAIN, Decision.REJECT))]
    store.write_run_file(RUN, AGREEMENT_FILE, agreement(verdicts).to_json() + "\n")  # as the judge stage does
    funnel = Funnel(run_id=RUN, stages={"enhance": StageCount(received=4, accepted=3),
                                        "compose": StageCount(received=2, accepted=1),
                                        "validate": StageCount(received=4, accepted=2)})
    store.write_run_file(RUN, "funnel.json", funnel.to_json() + "\n")
    store.write_run_file(RUN, USAGE_FILE, USAGE.to_json() + "\n")  # as the model stages and judges do


# What the run's model calls spent: one priced model, one whose price litellm does not know.
USAGE = UsageSummary(rows=(
    UsageRow(role="enhancer", model="openai/strong-1", calls=4, cache_hits=2, prompt_tokens=4000,
             completion_tokens=1200, priced_cost_usd=0.0312),
    UsageRow(role="judge", model="openai/judge-a", calls=3, cache_hits=1, failures=1, prompt_tokens=900,
             completion_tokens=150, unpriced_calls=3),
), budget_refused=2)
