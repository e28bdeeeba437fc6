"""The one interface every judge implements, model-backed or offline.

A judge reviews a gate survivor (the candidate: skeleton, reference, tests; and its gate report) and
returns a `Verdict`: accept, reject or abstain, one `Finding` per criterion it scores, and its `JudgeSpec`
(backend, model, prompt name and version, parameters) so that the verdict can be reproduced. A judge that
cannot decide (an unparseable answer, a failed call, a sandbox that could not run) abstains: it never
guesses.

Judges sit in two layers (`core.records.Layer`): the deterministic checks (offline judges: no model,
the same answer every time) always run first and filter; the model judges vote on what the checks accepted.
A judge's layer is read from its backend (`layer_of`), since an offline verdict never names a model.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from core.records import Candidate, Decision, Finding, GateReport, JudgeSpec, Verdict


@runtime_checkable
class Judge(Protocol):
    """What a panel needs from a judge."""

    @property
    def spec(self) -> JudgeSpec:
        """Who this judge is; part of the verdict cache key, so it must name everything that changes an answer."""
        ...

    def review(self, candidate: Candidate, report: GateReport | None) -> Verdict:
        """Review one candidate. Must not raise for a bad candidate or a bad answer: abstain instead.

        A judge of the models layer may also take `checks=` (the checks layer's verdicts on the candidate,
        `ModelJudge` puts them in its prompt); the panel passes them only to judges in that layer."""
        ...


def decision_from_findings(findings: Iterable[Finding]) -> Decision:
    """The decision an analysis's findings imply: reject on any failed criterion, accept when at least one
    criterion could be decided and none failed, abstain when none could be decided."""
    findings = list(findings)
    if any(f.ok is False for f in findings):
        return Decision.REJECT
    if any(f.ok is True for f in findings):
        return Decision.ACCEPT
    return Decision.ABSTAIN


def abstention(candidate_id: str, spec: JudgeSpec, why: str, raw_response: str = "") -> Verdict:
    """A verdict that says the judge could not decide, and why."""
    return Verdict(candidate_id=candidate_id, judge=spec, decision=Decision.ABSTAIN,
                   findings=(Finding(criterion="answer", ok=None, note=why[:500]),), raw_response=raw_response)
