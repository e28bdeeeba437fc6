"""The checks registry (judges/offline/__init__.py): the judge stage builds its panel from it, in its order, so
a check added by one registration line sits on the build's panel and can decide a candidate."""

from __future__ import annotations

from core.records import Candidate, Decision, Finding, GateReport, JudgeSpec, Verdict
from core.suite_runs import SuiteRunner
from judges.config import JudgesConfig
from judges.offline import REGISTRY
from judges.rules import Outcome
from pipeline.stages.judge import layered_panel, offline_panel
from tests.judges.conftest import make_candidate


class ToyJudge:
    """Rejects a candidate whose test code is shorter than `limit` characters: a made-up rule whose limit the
    factory derives from the configuration, so that the test sees the stage hand the factory its config."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    @property
    def spec(self) -> JudgeSpec:
        return JudgeSpec(backend="offline", name="toy", prompt_version="1")

    def review(self, candidate: Candidate, report: GateReport | None) -> Verdict:
        ok = len(candidate.test_code) >= self.limit
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec,
                       decision=Decision.ACCEPT if ok else Decision.REJECT,
                       findings=(Finding(criterion="toy_length", ok=ok, note=f"limit {self.limit}"),))


def make_toy_judge(config: JudgesConfig, runner: SuiteRunner | None) -> ToyJudge:
    return ToyJudge(int(config.min_mutation_score * 100_000))


def test_the_checks_keep_their_order():
    """Verdicts are recorded and released in the registry's order: the three checks, in this order."""
    assert list(REGISTRY) == ["specification", "consistency", "adequacy"]
    panel = offline_panel(JudgesConfig())
    assert [judge.spec.name for judge in panel.judges] == ["specification", "consistency", "adequacy"]


def test_a_registered_check_sits_last_on_the_panel_and_decides():
    candidate = make_candidate()
    with REGISTRY.registered("toy", "tests.judges.test_judge_registry:make_toy_judge"):
        strict = layered_panel(JudgesConfig(min_mutation_score=0.5)).review(candidate, None)
        lenient = layered_panel(JudgesConfig(min_mutation_score=0.0)).review(candidate, None)
    assert [v.judge.name for v in strict.verdicts] == ["specification", "consistency", "adequacy", "toy"]
    assert strict.outcome is Outcome.REJECT and strict.rejected_by == ("toy",)
    assert strict.failed_criteria == {"toy": ("toy_length",)}
    toy = next(v for v in lenient.verdicts if v.judge.name == "toy")
    assert toy.decision is Decision.ACCEPT and toy.findings[0].note == "limit 0"
    assert "toy" not in lenient.rejected_by
    after = offline_panel(JudgesConfig())
    assert "toy" not in [judge.spec.name for judge in after.judges]
