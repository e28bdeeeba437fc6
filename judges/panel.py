"""A panel: several judges, every verdict kept, one decision by a swappable rule.

The panel runs each judge on a candidate (from the verdict cache when it can), keeps every individual
verdict, and hands the decisions to its `DecisionRule`. A rejection names which judges rejected and on
which criteria, so a maintainer can see why a task was dropped without rereading raw answers.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence

from pydantic import Field

from pipeline import stopping
from pipeline.errors import InputError
from pipeline.records import Candidate, Decision, GateReport, Record, Rejection, RejectReason, Verdict
from validation.sandbox import SandboxUnavailable
from judges.cache import VerdictCache
from judges.protocol import Judge, abstention
from judges.rules import DecisionRule, Outcome

log = logging.getLogger(__name__)
STAGE = "judge"


class PanelDecision(Record):
    """The judge stage's record for one candidate: every verdict and the panel's decision."""

    candidate_id: str = Field(description="The candidate judged.")
    rule: str = Field(description="The decision rule applied: 'majority', 'unanimous' or 'quorum:K'.")
    outcome: Outcome = Field(description="accept, reject, or held (fewer than two judges decided).")
    verdicts: tuple[Verdict, ...] = Field(description="One verdict per judge, in panel order.")
    rejected_by: tuple[str, ...] = Field(default=(), description="Labels of the judges that rejected.")
    failed_criteria: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Judge label -> criteria it found failed (rejecting judges only).")

    def detail(self) -> str:
        """One readable line: who rejected on what, or who abstained."""
        if self.outcome is Outcome.HELD:
            abstained = [v.judge.label for v in self.verdicts if v.decision is Decision.ABSTAIN]
            return f"held: {len(abstained)} of {len(self.verdicts)} judges abstained ({', '.join(abstained)})"
        if self.outcome is Outcome.ACCEPT:
            return f"accepted under {self.rule}"
        parts = [f"{j} ({', '.join(self.failed_criteria.get(j, ())) or 'no criterion named'})" for j in self.rejected_by]
        return f"rejected under {self.rule} by " + "; ".join(parts)

    def rejection(self) -> Rejection | None:
        """The `Rejection` record for a rejected or held candidate (None when accepted)."""
        if self.outcome is Outcome.ACCEPT:
            return None
        reason = RejectReason.JUDGE_ABSTAINED if self.outcome is Outcome.HELD else RejectReason.JUDGE_REJECTED
        return Rejection(candidate_id=self.candidate_id, stage=STAGE, reason=reason, detail=self.detail(),
                         evidence={"rule": self.rule, "rejected_by": list(self.rejected_by),
                                   "failed_criteria": {k: list(v) for k, v in self.failed_criteria.items()},
                                   "decisions": {v.judge.label: v.decision.value for v in self.verdicts}})


def combine(candidate_id: str, verdicts: Sequence[Verdict], rule: DecisionRule) -> PanelDecision:
    """The panel's decision from its verdicts (pure: no judge runs here)."""
    rejecting = [v for v in verdicts if v.decision is Decision.REJECT]
    return PanelDecision(
        candidate_id=candidate_id, rule=rule.label, outcome=rule.decide([v.decision for v in verdicts]),
        verdicts=tuple(verdicts), rejected_by=tuple(v.judge.label for v in rejecting),
        failed_criteria={v.judge.label: tuple(f.criterion for f in v.findings if f.ok is False) for v in rejecting},
    )


class Panel:
    """N judges and a decision rule."""

    def __init__(self, judges: Sequence[Judge], rule: DecisionRule, cache: VerdictCache | None = None) -> None:
        rule.check_panel_size(len(judges))
        labels = [j.spec.label for j in judges]
        if len(set(labels)) != len(labels):
            raise InputError(f"judge panel: two judges share a name ({', '.join(labels)}); names must be unique")
        self.judges = tuple(judges)
        self.rule = rule
        self.cache = cache
        models = Counter(j.spec.model for j in judges if j.spec.model)
        self.warnings = [f"judges {', '.join(j.spec.label for j in judges if j.spec.model == m)} share the model "
                         f"{m}: their errors are not independent" for m, n in models.items() if n > 1]
        for warning in self.warnings:
            log.warning(warning)

    def _verdict(self, judge: Judge, candidate: Candidate, report: GateReport | None) -> Verdict:
        if self.cache is not None and (hit := self.cache.get(candidate, report, judge.spec)) is not None:
            return hit
        try:
            verdict = judge.review(candidate, report)
        except SandboxUnavailable:
            raise  # the machine cannot run the judge now: no verdict, not an abstention kept as data
        except Exception as exc:  # noqa: BLE001 - a judge that crashes abstains; the panel goes on
            log.warning("judge %s failed on %s: %s", judge.spec.label, candidate.candidate_id, exc)
            verdict = abstention(candidate.candidate_id, judge.spec, f"the judge failed: {type(exc).__name__}: {exc}")
        if self.cache is not None:
            self.cache.put(candidate, report, verdict)
        return verdict

    def review(self, candidate: Candidate, report: GateReport | None) -> PanelDecision:
        """Every judge's verdict on one candidate, combined by the rule."""
        verdicts = [self._verdict(j, candidate, report) for j in self.judges]
        return combine(candidate.candidate_id, verdicts, self.rule)

    def review_many(self, pairs: Sequence[tuple[Candidate, GateReport | None]], *, jobs: int = 1,
                    on_decision: Callable[[PanelDecision], None] | None = None) -> list[PanelDecision]:
        """Decisions for many candidates, `jobs` at a time, in input order; `on_decision` sees each as it is
        made (the judge stage writes it at once, so an interrupted stage keeps what it finished)."""
        def one(pair: tuple[Candidate, GateReport | None]) -> PanelDecision:
            decision = self.review(*pair)
            if on_decision:
                on_decision(decision)
            return decision

        if jobs <= 1:
            return [one(p) for p in pairs]
        with stopping.worker_threads(jobs) as executor:  # a stop does not wait for answers in flight
            return list(executor.map(one, pairs))
