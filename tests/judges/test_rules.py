"""Decision rules and the panel that applies them: majority, unanimous, quorum, and held candidates."""

from __future__ import annotations

import pytest

from core.errors import InputError
from core.records import Decision, Finding, JudgeSpec, Layer, RejectReason, Verdict
from judges.panel import Panel, combine
from judges.rules import DecisionRule, Outcome

A, R, X = Decision.ACCEPT, Decision.REJECT, Decision.ABSTAIN


@pytest.mark.parametrize(("rule", "decisions", "outcome"), [
    ("majority", (A, A, A), Outcome.ACCEPT),
    ("majority", (A, A, R), Outcome.ACCEPT),
    ("majority", (A, R, R), Outcome.REJECT),
    ("majority", (A, A, X), Outcome.ACCEPT),
    ("majority", (A, R, X), Outcome.REJECT),
    ("majority", (A, X, X), Outcome.HELD),
    ("majority", (X, X, X), Outcome.HELD),
    ("unanimous", (A, A, R), Outcome.REJECT),
    ("unanimous", (A, A, X), Outcome.ACCEPT),
    ("unanimous", (R, X, X), Outcome.HELD),
    ("quorum:1", (A, R, R), Outcome.ACCEPT),
    ("quorum:3", (A, A, X), Outcome.REJECT),
])
def test_rules_decide(rule, decisions, outcome):
    assert DecisionRule.parse(rule).decide(decisions) is outcome


@pytest.mark.parametrize("text", ["mostly", "quorum:0", "quorum:x", ""])
def test_unknown_rules_are_input_errors(text):
    with pytest.raises(InputError, match="expected 'majority'"):
        DecisionRule.parse(text)


def _verdict(judge: str, decision: Decision, failed: tuple[str, ...] = ()) -> Verdict:
    return Verdict(candidate_id="cand-1", judge=JudgeSpec(backend="offline", name=judge), decision=decision,
                   findings=tuple(Finding(criterion=c, ok=False, note="no") for c in failed))


def test_a_rejection_names_the_judges_and_their_failed_criteria():
    decision = combine("cand-1", [_verdict("a", A), _verdict("b", R, ("tests_match_spec",)),
                                  _verdict("c", R, ("spec_clear", "coherent"))], DecisionRule.parse("majority"))
    assert decision.outcome is Outcome.REJECT and decision.rejected_by == ("b", "c")
    rejection = decision.rejection()
    assert rejection.reason is RejectReason.JUDGE_REJECTED and rejection.stage == "judge"
    assert rejection.detail == "rejected under majority by b (tests_match_spec); c (spec_clear, coherent)"
    assert rejection.evidence["decisions"] == {"a": "accept", "b": "reject", "c": "reject"}


def test_too_few_deciding_judges_hold_the_candidate():
    decision = combine("cand-1", [_verdict("a", A), _verdict("b", X), _verdict("c", X)], DecisionRule.parse("majority"))
    assert decision.outcome is Outcome.HELD
    assert decision.rejection().reason is RejectReason.JUDGE_ABSTAINED
    assert decision.rejection().detail == "held: 2 of 3 judges abstained (b, c)"


class _Fixed:
    def __init__(self, name: str, model: str | None, decision: Decision) -> None:
        self.spec = JudgeSpec(backend="litellm" if model else "offline", name=name, model=model)
        self.decision = decision
        self.calls = 0

    def review(self, candidate, report):
        self.calls += 1
        if self.decision is None:
            raise RuntimeError("boom")
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec, decision=self.decision)


def test_panel_size_names_and_shared_models_are_checked(candidate):
    with pytest.raises(InputError, match="at least 2 judges"):
        Panel([_Fixed("a", None, A)], DecisionRule.parse("majority"))
    with pytest.raises(InputError, match="share a name"):
        Panel([_Fixed("a", None, A), _Fixed("a", None, A)], DecisionRule.parse("majority"))
    with pytest.raises(InputError, match="only 2 judges"):
        Panel([_Fixed("a", None, A), _Fixed("b", None, A)], DecisionRule.parse("quorum:3"))
    panel = Panel([_Fixed("a", "m1", A), _Fixed("b", "m1", A), _Fixed("c", "m2", A)], DecisionRule.parse("majority"))
    assert panel.warnings == ["judges a, b share the model m1: their errors are not independent"]


def test_a_crashing_judge_abstains_and_the_cache_skips_repeat_work(candidate, tmp_path):
    from judges.cache import VerdictCache

    judges = [_Fixed("a", None, A), _Fixed("b", None, A), _Fixed("c", None, None)]
    panel = Panel(judges, DecisionRule.parse("unanimous"), VerdictCache(tmp_path))
    first = panel.review(candidate, None)
    assert first.outcome is Outcome.ACCEPT
    assert first.verdicts[2].decision is X and "RuntimeError: boom" in first.verdicts[2].findings[0].note
    second = panel.review(candidate.model_copy(update={"candidate_id": "cand-same-content"}), None)
    assert [j.calls for j in judges] == [1, 1, 2]  # accepts came from the cache; the abstention was not cached
    assert second.verdicts[0].candidate_id == "cand-same-content"


def test_the_judges_section_of_the_configuration(tmp_path):
    from pipeline.stages.config import load_config

    path = tmp_path / "build.toml"
    path.write_text('[judges]\nmodels = ["openai/a", "openai/b", "openai/c"]\n')
    config = load_config(path)
    assert config.judges.decision_rule().label == "majority" and config.judges.checks_rule().label == "unanimous"
    assert config.judges.layers == (Layer.CHECKS, Layer.MODELS) and config.judges.warnings == []
    assert load_config(None).judges.decision_rule().label == "unanimous"
    assert load_config(None).judges.layers == (Layer.CHECKS,)
    path.write_text('[judges]\nmodels = ["openai/a", "openai/b", "openai/c"]\nrule = "quorum:3"\n')
    assert load_config(path).judges.checks_rule().label == "unanimous"  # the rule is the models'; the filter stays
    path.write_text('[judges]\nrule = "majority"\n')
    assert load_config(path).judges.checks_rule().label == "majority"  # the checks alone take the configured rule
    path.write_text('[judges]\noffline = false\n')
    with pytest.raises(InputError, match="offline = false needs models"):
        load_config(path)
    path.write_text('[judges]\nrule = "most"\n')
    with pytest.raises(InputError, match=r"field judges.rule: .*expected 'majority'"):
        load_config(path)
