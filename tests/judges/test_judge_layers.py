"""The two judge layers against the scripted chat server: the deterministic checks (the real offline judges,
the specification judge running docstring examples in the sandbox) filter first, the model panel votes on
what they accepted, with their findings in its prompt.

Scripted models by name, as in test_model_judges.py: `accept-*` accepts, `reject-*` rejects on
tests_match_spec.
"""

from __future__ import annotations

import json

import pytest

from core.funnel import Funnel, StageCount
from core.records import CheckResult, Decision, GateReport, Layer, RejectReason
from judges.cache import VerdictCache, verdict_key
from judges.config import CHECKS_OFF_WARNING, JudgesConfig
from judges.panel import funnel_step
from judges.rules import Outcome
from models.client import ModelClient
from pipeline.stages.judge import layered_panel
from tests.emulators.chat import ChatEmulator, offline_litellm
from tests.judges.conftest import SOLUTION, make_candidate

pytestmark = pytest.mark.slow  # litellm's import and the sandbox's start take seconds on a busy machine

CRITERIA = ("spec_clear", "reference_correct", "tests_match_spec", "tests_cover_edges",
            "tests_exercise_interaction", "coherent")
MODELS = ("openai/accept-a", "openai/accept-b", "openai/reject-c")
# The skeleton's example says `c.total()` gives 1 after one add; this reference gives 2.
DISAGREEING = SOLUTION.replace("return sum(self.counts.values())", "return sum(self.counts.values()) + 1")
A, R = Decision.ACCEPT, Decision.REJECT


def _contract(verdict: str) -> str:
    criteria = {c: {"pass": verdict == "accept" or c != "tests_match_spec", "note": "ok"} for c in CRITERIA}
    return json.dumps({"verdict": verdict, "criteria": criteria})


@pytest.fixture
def emulator(monkeypatch):
    offline_litellm(monkeypatch)
    with ChatEmulator(lambda call: _contract(call.model.split("-")[0])) as server:
        yield server


@pytest.fixture(scope="module")
def pool():
    from validation.sandbox import SandboxPool

    with SandboxPool(jobs=1) as pool:
        yield pool


def _report(candidate, vacuous_detail: str = "0 of 2 tests pass against the skeleton") -> GateReport:
    """A gate report as the gate writes one for a survivor, with the faithful-variant check the gate may add."""
    return GateReport(
        candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0, interaction_edge_coverage=1.0,
        mutation_score=0.9,
        checks=(CheckResult(name="vacuous_share", value=0.0, threshold=0.1, passed=True, detail=vacuous_detail),
                CheckResult(name="faithful_variants", value=4, threshold=0, passed=True, gated=False,
                            detail="4 faithful variants, every test passes each")),
        evidence={"mutation": {"killed": 9, "mutants": 10, "surviving": []},
                  "faithful_variants": {"variants": 4, "failing": []}})


def _panel(emulator, pool, tmp_path, cache=None, **settings):
    config = JudgesConfig(models=MODELS, api_base=emulator.base_url, **settings)
    client = ModelClient(None, max_retries=0, timeout_s=5.0)  # no response cache: each call reaches the server
    return layered_panel(config, pool=pool, client=client, cache=cache)


def test_a_candidate_whose_docstring_example_disagrees_is_rejected_without_a_model_call(emulator, pool, tmp_path):
    bad = make_candidate(solution=DISAGREEING)
    decision = _panel(emulator, pool, tmp_path).review(bad, _report(bad))
    assert emulator.calls == []
    assert decision.outcome is Outcome.REJECT and decision.rule == "unanimous"
    assert decision.rejected_by == ("specification",)
    assert decision.failed_criteria == {"specification": ("reference_correct",)}
    assert [v.judge.name for v in decision.verdicts] == ["specification", "consistency", "adequacy"]
    assert [(p.layer, p.outcome) for p in decision.layers] == [(Layer.CHECKS, Outcome.REJECT), (Layer.MODELS, None)]
    assert decision.layers[1].judges == MODELS
    rejection = decision.rejection()
    assert rejection.reason is RejectReason.JUDGE_REJECTED and rejection.evidence["layer"] == "checks"
    assert rejection.detail == ("checks rejected under unanimous by specification (reference_correct) "
                                "(models not asked)")


def test_a_clean_candidate_reaches_the_panel_and_is_decided_two_to_one(emulator, pool, tmp_path):
    clean = make_candidate()
    decision = _panel(emulator, pool, tmp_path).review(clean, _report(clean))
    assert sorted(c.model for c in emulator.calls) == ["accept-a", "accept-b", "reject-c"]
    assert decision.outcome is Outcome.ACCEPT and decision.rule == "majority"
    assert [v.decision for v in decision.verdicts] == [A, A, A, A, A, R]
    assert [v.judge.backend for v in decision.verdicts] == ["offline"] * 3 + ["litellm"] * 3
    assert [(p.layer, p.outcome, p.rule) for p in decision.layers] == [
        (Layer.CHECKS, Outcome.ACCEPT, "unanimous"), (Layer.MODELS, Outcome.ACCEPT, "majority")]
    assert decision.layers[1].rejected_by == ("openai/reject-c",)
    assert decision.detail() == "checks accepted under unanimous; models accepted under majority"
    under_unanimous = _panel(emulator, pool, tmp_path, rule="unanimous").review(clean, _report(clean))
    assert under_unanimous.outcome is Outcome.REJECT and under_unanimous.rejected_by == ("openai/reject-c",)
    assert under_unanimous.rejection().evidence["layer"] == "models"


def test_each_model_prompt_carries_the_deterministic_findings_and_the_gate_figures(emulator, pool, tmp_path):
    clean = make_candidate()
    _panel(emulator, pool, tmp_path).review(clean, _report(clean))
    assert len(emulator.calls) == 3 and {c.prompt for c in emulator.calls} == {"judge_rubric@2"}
    for call in emulator.calls:
        prompt = call.last_user_message
        assert "The deterministic checks found:" in prompt
        assert "- specification check: accept" in prompt
        assert "  - reference_correct: passed: the examples of 2 docstring(s) agree with the reference" in prompt
        assert "- consistency check: accept" in prompt and "  - tests_match_spec: passed" in prompt
        assert "  - tests_detect_faults: passed: mutation score 0.90 (at least 0.50 required; 9 of 10" in prompt
        assert ("  - tests_pass_faithful_variants: passed: faithful variants: 4 faithful variants, every test "
                "passes each") in prompt
        assert "- faithful_variants: 4, bound 0 (passed, reported only): 4 faithful variants" in prompt
        assert "- vacuous_share: 0.0, bound 0.1 (passed): 0 of 2 tests pass" in prompt
        assert "confirm or dispute" in call.messages[0]["content"].lower()


def test_model_verdicts_are_cached_by_the_findings_they_were_shown(emulator, pool, tmp_path):
    clean = make_candidate()
    cache = VerdictCache(tmp_path / "verdicts")
    _panel(emulator, pool, tmp_path, cache).review(clean, _report(clean))
    again = _panel(emulator, pool, tmp_path, cache).review(clean, _report(clean))
    assert len(emulator.calls) == 3 and again.outcome is Outcome.ACCEPT  # the same question: every verdict cached
    # The same candidate, report and models; only the adequacy check's bar moved, so its note reads
    # "at least 0.60 required": the models were shown other findings and are asked again.
    stricter = _panel(emulator, pool, tmp_path, cache, min_mutation_score=0.6).review(clean, _report(clean))
    assert len(emulator.calls) == 6 and "at least 0.60 required" in emulator.calls[-1].last_user_message
    spec, checks = again.verdicts[3].judge, again.verdicts[:3]
    assert verdict_key(clean, _report(clean), spec, checks) != verdict_key(clean, _report(clean), spec)
    assert verdict_key(clean, _report(clean), spec, checks) != verdict_key(clean, _report(clean), spec,
                                                                           stricter.verdicts[:3])


def test_with_the_checks_off_the_models_judge_alone_and_are_told_so(emulator, tmp_path):
    clean = make_candidate()
    panel = _panel(emulator, None, tmp_path, offline=False)
    assert panel.checks is None and panel.warnings[0] == CHECKS_OFF_WARNING
    decision = panel.review(clean, _report(clean))
    assert [p.layer for p in decision.layers] == [Layer.MODELS] and len(decision.verdicts) == 3
    assert "No deterministic check results were given" in emulator.calls[0].last_user_message
    assert JudgesConfig(models=MODELS, offline=False).warnings == [CHECKS_OFF_WARNING]
    assert JudgesConfig(models=MODELS, offline=False).layers == (Layer.MODELS,)
    with pytest.raises(ValueError, match="offline = false needs models"):
        JudgesConfig(offline=False)


def test_a_build_with_three_models_rejects_by_the_checks_without_a_call_and_accepts_by_majority(
        emulator, tmp_path, monkeypatch):
    from core.agreement import read_agreement
    from core.layout import Folder, Stage
    from core.records import Rejection
    from core.settings import Settings
    from core.store import ArtifactStore
    from models.run_state import read_usage
    from pipeline.release.card import agreement_section
    from pipeline.stages.config import BuildConfig
    from pipeline.stages.driver import RunContext, run_stage
    from pipeline.stages.judge import JudgeStage, judged_task, released_items

    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    store = ArtifactStore(tmp_path / "artifacts")
    clean, bad = make_candidate(), make_candidate(solution=DISAGREEING)
    for candidate in (clean, bad):
        store.write("run-1", Stage.ENHANCE, candidate.candidate_id, candidate)
        store.write("run-1", Stage.VALIDATE, candidate.candidate_id, _report(candidate))
    config = BuildConfig.model_validate({"jobs": 1, "judges": {"models": list(MODELS), "api_base": emulator.base_url}})

    counts = run_stage(JudgeStage(), RunContext(store, "run-1", config,
                                                    Settings.from_environment().with_artifacts(store.root)))
    assert counts == {"judge checks": StageCount(received=2, accepted=1, rejected={RejectReason.JUDGE_REJECTED: 1}),
                      "judge models": StageCount(received=1, accepted=1)}
    assert len(emulator.calls) == 3 and not any("+ 1" in c.last_user_message for c in emulator.calls)
    rejection = store.read("run-1", Folder.REJECTIONS, bad.candidate_id, Rejection)
    assert rejection.evidence["layer"] == "checks" and rejection.evidence["rejected_by"] == ["specification"]
    [task] = [judged_task(store, "run-1", config, item) for item in released_items(store, "run-1", config)]
    assert task.candidate_id == clean.candidate_id and len(task.verdicts) == 6
    assert [(r.model, r.calls) for r in read_usage(store.runs / "run-1").rows] == [(m, 1) for m in MODELS]

    figures = read_agreement(store, "run-1")
    assert figures.compared == "models" and figures.layers == {"checks": ("adequacy", "consistency", "specification"),
                                                               "models": MODELS}
    assert [(p.judge_a, p.judge_b) for p in figures.pairwise] == [(MODELS[0], MODELS[1]), (MODELS[0], MODELS[2]),
                                                                  (MODELS[1], MODELS[2])]
    assert figures.decisions["specification"] == {"accept": 1, "reject": 1, "abstain": 0}
    assert figures.decisions["openai/reject-c"] == {"accept": 0, "reject": 1, "abstain": 0}

    (store.runs / "run-1" / "judge_models.done.json").unlink()  # interrupted before its end: every decision written
    assert run_stage(JudgeStage(), RunContext(store, "run-1", config,
                                                    Settings.from_environment().with_artifacts(store.root))) == counts and len(emulator.calls) == 3
    funnel = Funnel(run_id="run-1", stages=counts)
    card = agreement_section([task], figures, funnel)
    assert ("Layer 1, the deterministic checks (specification, consistency and adequacy judges: no model, the same "
            "answer every time; rule unanimous): 2 candidates judged, 1 accepted, judge_rejected 1.") in card
    assert ("Layer 2, the model panel, on the candidates the checks accepted (a candidate they did not accept cost "
            "no model call): 1 candidates judged, 1 accepted.") in card
    assert "| models | openai/reject-c | 0 | 1 | 0 | 100% |" in card and "Pairwise agreement within the models" in card
    checks_off = Funnel(run_id="run-1", stages={funnel_step(Layer.MODELS): counts["judge models"]})
    off_card = agreement_section([task], figures, checks_off)
    assert "**The deterministic checks were turned off for this build**" in off_card and "Layer 1" not in off_card
