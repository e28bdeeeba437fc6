"""The judge stage's bookkeeping: decisions and rejections written per candidate, resume, release filter.

The panel is made of small scripted judges here (the real ones have their own tests); what is checked is
what the stage writes, counts and hands to the release.
"""

from __future__ import annotations

from core.agreement import AGREEMENT_FILE, read_agreement
from core.records import Decision, Finding, GateReport, JudgeSpec, Rejection, RejectReason, Verdict
from core.store import ArtifactStore
from judges.decisions import read_decisions
from judges.panel import Panel
from judges.rules import DecisionRule, Outcome
from pipeline.stages.config import BuildConfig
from pipeline.stages.judge import judged_task, released_items
from tests.judges.conftest import TESTS, judge_run, make_candidate


class Scripted:
    """Accepts unless the candidate's tests contain one of its trigger words (then rejects or abstains)."""

    def __init__(self, name: str, reject_on: str = "\0", abstain_on: str = "\0") -> None:
        self.spec = JudgeSpec(backend="offline", name=name)
        self.reject_on, self.abstain_on = reject_on, abstain_on
        self.seen: list[str] = []

    def review(self, candidate, report):
        self.seen.append(candidate.candidate_id)
        if self.abstain_on in candidate.test_code:
            decision, findings = Decision.ABSTAIN, ()
        elif self.reject_on in candidate.test_code:
            decision, findings = Decision.REJECT, (Finding(criterion="tests_match_spec", ok=False, note="hidden"),)
        else:
            decision, findings = Decision.ACCEPT, (Finding(criterion="tests_match_spec", ok=True),)
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec, decision=decision, findings=findings)


def _survivors():
    out = []
    for marker in ("good", "hidden", "unsure"):
        candidate = make_candidate(tests=TESTS + f"\n# {marker}\n")
        out.append((candidate, GateReport(candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0)))
    return out


def test_stage_writes_decisions_rejections_and_agreement_and_resumes(tmp_path):
    store = ArtifactStore(tmp_path)
    judges = [Scripted("a"), Scripted("b", reject_on="hidden", abstain_on="unsure"),
              Scripted("c", reject_on="hidden", abstain_on="unsure")]
    panel = Panel(judges, DecisionRule.parse("majority"))
    survivors = _survivors()
    counts = judge_run(store, survivors, panel)
    figures = read_agreement(store, "run-1")
    count = counts["judge checks"]  # offline judges: the checks layer, its one funnel step
    assert list(counts) == ["judge checks"] and (count.received, count.accepted) == (3, 1)
    assert count.rejected == {RejectReason.JUDGE_REJECTED: 1, RejectReason.JUDGE_ABSTAINED: 1}
    decisions = read_decisions(store, "run-1")
    good, hidden, unsure = (c.candidate_id for c, _ in survivors)
    assert decisions[good].outcome is Outcome.ACCEPT and decisions[unsure].outcome is Outcome.HELD
    rejection = store.read("run-1", "rejections", hidden, Rejection)
    assert rejection.stage == "judge" and rejection.evidence["rejected_by"] == ["b", "c"]
    assert store.read("run-1", "rejections", unsure, Rejection).reason is RejectReason.JUDGE_ABSTAINED
    assert (store.runs / "run-1" / AGREEMENT_FILE).is_file()
    assert figures.rejected_share == {"a": 0.0, "b": 0.333333, "c": 0.333333}

    assert judge_run(store, survivors, panel) == counts and len(judges[0].seen) == 3  # nothing judged twice
    (store.runs / "run-1" / "judge_checks.done.json").unlink()  # an interrupted stage: every decision written
    assert judge_run(store, survivors, panel) == counts and len(judges[0].seen) == 3


def test_release_takes_only_accepted_candidates_with_their_verdicts(tmp_path, monkeypatch):
    store = ArtifactStore(tmp_path)
    survivors = _survivors()
    judge_run(store, survivors, Panel([Scripted("a"), Scripted("b", reject_on="hidden", abstain_on="unsure")],
                                      DecisionRule.parse("unanimous")))
    monkeypatch.setattr("pipeline.stages.judge.build_task",
                        lambda candidate, report, verdicts=(): (candidate.candidate_id, verdicts))
    def released(config: BuildConfig) -> dict:
        return dict(judged_task(store, "run-1", config, item) for item in released_items(store, "run-1", config))

    good = survivors[0][0].candidate_id
    assert list(released(BuildConfig())) == [good]
    assert [v.judge.name for v in released(BuildConfig())[good]] == ["a", "b"]
    unjudged = BuildConfig.model_validate({"judges": {"enabled": False}})
    assert len(released(unjudged)) == 3 and not any(v for v in released(unjudged).values())
