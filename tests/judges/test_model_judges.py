"""Model judges through the real model client and litellm, against the local chat emulator.

Each scripted judge is chosen by its model name: `accept-*` accepts, `reject-*` rejects on
tests_match_spec, `garbage-*` never answers in the contract, `fix-*` answers garbage first and then
correctly once told what was wrong, `slow-*` answers after the client's timeout.
"""

from __future__ import annotations

import json

import pytest

from core.records import Decision, RejectReason
from judges.model_judge import ModelJudge
from judges.panel import Panel
from judges.rules import DecisionRule, Outcome
from models.client import ModelClient
from tests.emulators.chat import ChatEmulator, Reply, offline_litellm

pytestmark = pytest.mark.slow  # litellm's first import alone takes seconds on a busy machine

CRITERIA = ("spec_clear", "reference_correct", "tests_match_spec", "tests_cover_edges",
            "tests_exercise_interaction", "coherent")


def _contract(verdict: str) -> str:
    criteria = {c: {"pass": verdict == "accept" or c != "tests_match_spec",
                    "note": "asserts an exact message" if c == "tests_match_spec" and verdict == "reject" else "ok"}
                for c in CRITERIA}
    return "```json\n" + json.dumps({"verdict": verdict, "criteria": criteria, "confidence": "high"}) + "\n```"


def _respond(call):
    kind = call.model.split("-")[0]
    if kind in ("accept", "reject"):
        return _contract(kind)
    if kind == "fix":
        return _contract("accept") if "could not be used" in call.last_user_message else "Looks good to me!"
    if kind == "slow":
        return Reply(text=_contract("accept"), delay_s=3.0)
    return "I would accept this task, it is lovely."


@pytest.fixture
def emulator(monkeypatch):
    offline_litellm(monkeypatch)
    with ChatEmulator(_respond) as server:
        yield server


def _panel(emulator, tmp_path, *names: str, rule: str = "majority") -> Panel:
    client = ModelClient(tmp_path / "answers", max_retries=0, timeout_s=1.0)
    return Panel([ModelJudge(client, f"openai/{n}", api_base=emulator.base_url) for n in names],
                 DecisionRule.parse(rule))


def _decisions(decision):
    return [v.decision for v in decision.verdicts]


A, R, X = Decision.ACCEPT, Decision.REJECT, Decision.ABSTAIN


def test_unanimous_accept_and_the_request_carries_role_prompt_and_the_task(emulator, tmp_path, candidate):
    decision = _panel(emulator, tmp_path, "accept-a", "accept-b", "accept-c").review(candidate, None)
    assert decision.outcome is Outcome.ACCEPT and _decisions(decision) == [A, A, A]
    verdict = decision.verdicts[0]
    assert verdict.judge.backend == "litellm" and verdict.judge.model == "openai/accept-a"
    assert (verdict.judge.prompt, verdict.judge.prompt_version) == ("judge_rubric", "2")
    assert [f.criterion for f in verdict.findings] == list(CRITERIA) and verdict.raw_response.startswith("```json")
    assert {c.role for c in emulator.calls} == {"judge"} and {c.prompt for c in emulator.calls} == {"judge_rubric@2"}
    assert "class Counter" in emulator.calls[0].last_user_message and "def test_add_then_total" in emulator.calls[0].last_user_message


def test_two_to_one_accepts_under_majority_and_rejects_under_unanimous(emulator, tmp_path, candidate):
    judges = ("accept-a", "accept-b", "reject-c")
    assert _panel(emulator, tmp_path, *judges).review(candidate, None).outcome is Outcome.ACCEPT
    strict = _panel(emulator, tmp_path, *judges, rule="unanimous").review(candidate, None)
    assert strict.outcome is Outcome.REJECT and strict.rejected_by == ("openai/reject-c",)


def test_one_to_two_rejects_and_names_the_judges_and_criteria(emulator, tmp_path, candidate):
    decision = _panel(emulator, tmp_path, "accept-a", "reject-b", "reject-c").review(candidate, None)
    assert decision.outcome is Outcome.REJECT and _decisions(decision) == [A, R, R]
    rejection = decision.rejection()
    assert rejection.reason is RejectReason.JUDGE_REJECTED
    assert rejection.detail == ("models rejected under majority by openai/reject-b (tests_match_spec); "
                                "openai/reject-c (tests_match_spec)")


def test_garbage_twice_is_an_abstention_after_one_retry(emulator, tmp_path, candidate):
    decision = _panel(emulator, tmp_path, "accept-a", "accept-b", "garbage-c").review(candidate, None)
    assert decision.outcome is Outcome.ACCEPT and _decisions(decision) == [A, A, X]
    garbage = [c for c in emulator.calls if c.model == "garbage-c"]
    assert len(garbage) == 2  # asked, then asked once more with what was wrong
    assert "no JSON object found" in garbage[1].last_user_message
    assert garbage[1].messages[-2] == {"role": "assistant", "content": "I would accept this task, it is lovely."}
    abstained = decision.verdicts[2]
    assert "two answers broke the answer contract" in abstained.findings[0].note
    assert abstained.raw_response.count("lovely") == 2


def test_a_corrected_answer_on_the_retry_counts(emulator, tmp_path, candidate):
    decision = _panel(emulator, tmp_path, "fix-a", "reject-b", "reject-c").review(candidate, None)
    assert _decisions(decision) == [A, R, R] and len([c for c in emulator.calls if c.model == "fix-a"]) == 2


def test_a_timeout_is_an_abstention_and_two_deciding_judges_still_decide(emulator, tmp_path, candidate):
    decision = _panel(emulator, tmp_path, "accept-a", "reject-b", "slow-c").review(candidate, None)
    assert _decisions(decision) == [A, R, X]
    assert "the model call failed" in decision.verdicts[2].findings[0].note
    assert decision.outcome is Outcome.REJECT  # one accept of three is no majority


def test_an_all_garbage_panel_accepts_nothing(emulator, tmp_path, candidate):
    decision = _panel(emulator, tmp_path, "garbage-a", "garbage-b", "garbage-c").review(candidate, None)
    assert decision.outcome is Outcome.HELD and _decisions(decision) == [X, X, X]
    assert decision.rejection().reason is RejectReason.JUDGE_ABSTAINED
    assert len(emulator.calls) == 6


def test_the_configured_model_panel_judges_a_run_and_the_verdict_cache_spares_a_rerun(emulator, tmp_path, candidate):
    from core.agreement import read_agreement
    from core.funnel import StageCount
    from core.records import GateReport
    from core.store import ArtifactStore
    from judges.cache import VerdictCache
    from judges.config import JudgesConfig
    from pipeline.stages.config import BuildConfig
    from pipeline.stages.judge import layered_panel
    from tests.judges.conftest import judge_run

    config = JudgesConfig(models=("openai/accept-a", "openai/reject-b", "openai/accept-c"), api_base=emulator.base_url)
    client = ModelClient(None, max_retries=0, timeout_s=5.0)  # no response cache: only the verdict cache can help
    survivors = [(candidate, GateReport(candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0))]
    cache = VerdictCache(tmp_path / "verdicts")
    config = config.model_copy(update={"offline": False})  # the models alone: the checks have their own tests

    def judged(root: str, judges: JudgesConfig):  # noqa: ANN202 - (counts, agreement figures)
        store = ArtifactStore(tmp_path / root)
        counts = judge_run(store, survivors, layered_panel(judges, client=client, cache=cache), BuildConfig(judges=judges))
        return counts, read_agreement(store, "run-1")

    counts, figures = judged("a", config)
    assert counts == {"judge models": StageCount(received=1, accepted=1)}
    assert figures.judges == tuple(sorted(config.models))
    assert "line coverage 100%" in emulator.calls[0].last_user_message
    judged("b", config)
    assert len(emulator.calls) == 3  # the second run read every verdict from the cache
    with ChatEmulator(_respond) as other:  # the same models behind another server: asked again
        moved = config.model_copy(update={"api_base": other.base_url})
        judged("c", moved)
        assert len(other.calls) == 3


def test_the_judge_stage_adds_its_model_calls_to_the_runs_usage(emulator, tmp_path, candidate, monkeypatch):
    from core.layout import Stage
    from core.records import GateReport
    from core.settings import Settings
    from core.store import ArtifactStore
    from models.run_state import read_usage
    from pipeline.stages.config import BuildConfig
    from pipeline.stages.driver import RunContext, run_stage
    from pipeline.stages.judge import JudgeStage

    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    store = ArtifactStore(tmp_path / "artifacts")
    store.write("run-1", Stage.ENHANCE, candidate.candidate_id, candidate)
    store.write("run-1", Stage.VALIDATE, candidate.candidate_id,
                GateReport(candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0))
    config = BuildConfig.model_validate({"judges": {"models": ["openai/accept-a", "openai/reject-b"],
                                                    "api_base": emulator.base_url, "offline": False}})
    assert run_stage(JudgeStage(), RunContext(store, "run-1", config,
                                                    Settings.from_environment().with_artifacts(store.root)))["judge models"].received == 1
    usage = read_usage(store.runs / "run-1")
    assert [(r.role, r.model, r.calls) for r in usage.rows] == [("judge", "openai/accept-a", 1),
                                                                 ("judge", "openai/reject-b", 1)]
    assert len(emulator.calls) == 2
