"""The adequacy judge: do the tests detect faults, and pass correct code? Read from the gate report, never
measured again.

The gate already ran the mutants and the tests against the bodiless skeleton; rerunning them would double
the build's most expensive step for the same numbers. This judge holds those figures to its own bars:

- `tests_detect_faults`: the mutation score is at least `min_mutation_score` (undecided when the gate did
  not measure it, e.g. `run_mutation = false`);
- `tests_not_vacuous`: at most `max_vacuous_share` of the tests pass against the skeleton whose bodies
  raise `NotImplementedError` (tests that only check the kept constructor are not counted, as in the gate);
- `tests_pass_faithful_variants`, only when the gate ran faithful variants (a `faithful_variants` check):
  the dual of mutants, variants of the reference that keep everything the skeleton states must pass. A
  failed check, gated or only reported, is a failed finding naming the gate's detail and evidence: a test
  that fails correct code is over-specified. A report without the check gets no finding (not an
  undecided one), so the judge's verdicts on such reports are what they were before the check existed.

The gate reports the mutation score without gating it by default, and allows up to 10% vacuous tests; the
judge is where a stricter bar belongs, because its rejection says which tests are weak.
"""

from __future__ import annotations

import json

from core.records import Candidate, Finding, GateReport, JudgeSpec, Verdict
from core.suite_runs import SuiteRunner
from judges.config import JudgesConfig
from judges.criteria import TESTS_DETECT_FAULTS, TESTS_NOT_VACUOUS, TESTS_PASS_FAITHFUL_VARIANTS
from judges.protocol import abstention, decision_from_findings

VERSION = "2"  # 2: faithful variants read from the gate report
FAITHFUL_VARIANTS = "faithful_variants"  # the gate check's name and its evidence key
EVIDENCE_CHARS = 300  # of the gate's faithful-variant evidence quoted in a failed finding's note


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

    def _faithful(self, report: GateReport) -> tuple[Finding, ...]:
        check = report.check(FAITHFUL_VARIANTS)
        if check is None:
            return ()
        note = f"faithful variants: {check.detail or check.value}"
        if not check.passed:
            evidence = report.evidence.get(FAITHFUL_VARIANTS)
            if evidence:
                text = json.dumps(evidence, ensure_ascii=False, sort_keys=True)
                note += "; gate evidence: " + text[:EVIDENCE_CHARS] + ("..." if len(text) > EVIDENCE_CHARS else "")
        return (Finding(criterion=TESTS_PASS_FAITHFUL_VARIANTS, ok=check.passed, note=note),)

    def review(self, candidate: Candidate, report: GateReport | None) -> Verdict:
        if report is None:
            return abstention(candidate.candidate_id, self.spec, "no gate report: nothing to judge the tests by")
        findings = (self._mutation(report), self._vacuous(report), *self._faithful(report))
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec,
                       decision=decision_from_findings(findings), findings=findings)


def make_judge(config: JudgesConfig, runner: SuiteRunner | None) -> AdequacyJudge:
    """The checks registry's factory (judges/offline/__init__.py). Its thresholds are the `[judges]`
    section's; it reads the gate's figures, so it needs no runner."""
    return AdequacyJudge(config.min_mutation_score, config.max_vacuous_share)
