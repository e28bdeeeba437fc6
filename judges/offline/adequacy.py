"""The adequacy judge: do the tests detect faults? Read from the gate report, never measured again.

The gate already ran the mutants and the tests against the bodiless skeleton; rerunning them would double
the build's most expensive step for the same numbers. This judge holds those figures to its own bars:

- `tests_detect_faults`: the mutation score is at least `min_mutation_score` (undecided when the gate did
  not measure it, e.g. `run_mutation = false`);
- `tests_not_vacuous`: at most `max_vacuous_share` of the tests pass against the skeleton whose bodies
  raise `NotImplementedError` (tests that only check the kept constructor are not counted, as in the gate).

The gate reports the mutation score without gating it by default, and allows up to 10% vacuous tests; the
judge is where a stricter bar belongs, because its rejection says which tests are weak.
"""

from __future__ import annotations

from pipeline.records import Candidate, Finding, GateReport, JudgeSpec, Verdict
from judges.criteria import TESTS_DETECT_FAULTS, TESTS_NOT_VACUOUS
from judges.protocol import abstention, decision_from_findings

VERSION = "1"


class AdequacyJudge:
    """Offline judge of the tests' strength, from the gate's mutation and skeleton runs."""

    def __init__(self, min_mutation_score: float = 0.5, max_vacuous_share: float = 0.0) -> None:
        self.min_mutation_score = min_mutation_score
        self.max_vacuous_share = max_vacuous_share

    @property
    def spec(self) -> JudgeSpec:
        return JudgeSpec(backend="offline", name="adequacy", prompt_version=VERSION,
                         parameters={"min_mutation_score": self.min_mutation_score,
                                     "max_vacuous_share": self.max_vacuous_share})

    def _mutation(self, report: GateReport) -> Finding:
        score = report.mutation_score
        if score is None:
            return Finding(criterion=TESTS_DETECT_FAULTS, ok=None, note="the gate did not measure a mutation score")
        mutation = report.evidence.get("mutation") if isinstance(report.evidence.get("mutation"), dict) else {}
        surviving = [f"line {m.get('line')}: {m.get('description')}" for m in mutation.get("surviving", [])[:3]
                     if isinstance(m, dict)]
        ok = score >= self.min_mutation_score
        note = (f"mutation score {score:.2f} (at least {self.min_mutation_score:.2f} required; "
                f"{mutation.get('killed', '?')} of {mutation.get('mutants', '?')} mutants killed)")
        if not ok and surviving:
            note += "; surviving: " + "; ".join(surviving)
        return Finding(criterion=TESTS_DETECT_FAULTS, ok=ok, note=note)

    def _vacuous(self, report: GateReport) -> Finding:
        check = report.check("vacuous_share")
        if check is None or not isinstance(check.value, (int, float)) or isinstance(check.value, bool):
            return Finding(criterion=TESTS_NOT_VACUOUS, ok=None, note="the gate did not run the tests on the skeleton")
        vacuous = report.evidence.get("vacuous") if isinstance(report.evidence.get("vacuous"), dict) else {}
        passing = [str(t).split("::")[-1] for t in vacuous.get("passing", [])]
        ok = check.value <= self.max_vacuous_share
        note = f"{check.detail or check.value} (at most {self.max_vacuous_share:.0%} allowed)"
        if not ok and passing:
            note += ": " + ", ".join(passing[:5]) + (f" and {len(passing) - 5} more" if len(passing) > 5 else "")
        return Finding(criterion=TESTS_NOT_VACUOUS, ok=ok, note=note)

    def review(self, candidate: Candidate, report: GateReport | None) -> Verdict:
        if report is None:
            return abstention(candidate.candidate_id, self.spec, "no gate report: nothing to judge the tests by")
        findings = (self._mutation(report), self._vacuous(report))
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec,
                       decision=decision_from_findings(findings), findings=findings)
