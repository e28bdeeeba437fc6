"""The harness end to end against the local OpenAI-compatible server (real litellm, scripted answers):
the five strategies, their prompts and order, failure shares, and reruns served from the cache."""

from __future__ import annotations

import json
import re

import pytest
from eval_fixtures import EXPECTED_FAILURE, FAST, LEDGER, SCRIPTED, ledger_eval_task

from models.client import ModelClient
from pipeline.evaluation.harness import evaluate
from pipeline.evaluation.solver import model_asker
from pipeline.evaluation.strategies import STRATEGIES
from tests.emulators.chat import ChatEmulator

MODEL = "openai/solver-a"
SAMPLE = re.compile(r"\(Sample (\d+)\.\)")


def _settings(**changes):
    return FAST.model_copy(update={"model": MODEL, **changes})


@pytest.mark.slow
def test_five_strategies_on_a_right_solver_and_a_rerun_from_the_cache(pool, tmp_path):
    task = ledger_eval_task()
    with ChatEmulator(lambda call: SCRIPTED["right"]) as server:
        client = ModelClient(tmp_path / "cache")
        ask = model_asker(client, MODEL, temperature=0.8, api_base=server.base_url)
        run = evaluate([task], _settings(strategies=STRATEGIES, n=2, ks=(1, 2)), pool, ask,
                       usage=lambda: client.usage().model_dump(mode="json"))
        calls = list(server.calls)
        assert {c.role for c in calls} == {"solver"} and {c.model for c in calls} == {"solver-a"}
        by_prompt = {c.prompt for c in calls}
        assert by_prompt == {"solve_class@1", "solve_method@1", "solve_method_alone@1"}
        for summary in run.summaries:
            assert summary.class_pass_at_k == {"1": 1.0, "2": 1.0}, summary
            assert summary.method_pass_at_k == {"1": 1.0, "2": 1.0} and summary.methods_scored == 3
        # holistic: one request per sample; method strategies: one per method (constructor included) per
        # sample. Requests identical to an earlier one (incremental and bottom_up ask the same here) are
        # answered by the cache.
        assert sum(len(r.prompts) for r in run.completions) == 2 + 4 * 2 * 4
        assert len(calls) + sum(r.cached_calls for r in run.completions) == 2 + 4 * 2 * 4
        assert len({json.dumps(c.messages) for c in calls}) == 2 + 8 + 6 + 8

        records = {r.strategy: r for r in run.completions if r.sample == 0}
        order = {s: list(records[s].asked) for s in ("incremental", "bottom_up", "top_down", "compositional")}
        assert order["incremental"] == order["compositional"] == ["__init__", "deposit", "balance", "transfer"]
        assert order["bottom_up"] == ["__init__", "deposit", "balance", "transfer"]  # callees first
        assert order["top_down"] == ["__init__", "transfer", "balance", "deposit"]  # callers first
        # incremental shows the class so far; compositional only ever shows signatures
        method_calls = [c for c in calls if c.prompt == "solve_method@1"]
        assert any("self.balances.get(name, 0) + amount" in c.last_user_message for c in method_calls)
        alone = [c for c in calls if c.prompt == "solve_method_alone@1"]
        assert alone and not any("self.balances.get" in c.last_user_message for c in alone)
        assert run.usage["rows"][0]["calls"] == len(calls) and run.usage["rows"][0]["role"] == "solver"

        again = evaluate([task], _settings(strategies=STRATEGIES, n=2, ks=(1, 2)), pool,
                         model_asker(ModelClient(tmp_path / "cache"), MODEL, temperature=0.8, api_base=server.base_url))
        assert len(server.calls) == len(calls)  # every answer came from the cache
        assert all(r.cached_calls == len(r.prompts) for r in again.completions)
        assert [s.class_pass_at_k for s in again.summaries] == [s.class_pass_at_k for s in run.summaries]


@pytest.mark.slow
def test_scripted_failures_are_counted_in_their_classes(pool, tmp_path):
    kinds = sorted(SCRIPTED)

    def responder(call):
        return SCRIPTED[kinds[int(SAMPLE.search(call.last_user_message).group(1))]]

    with ChatEmulator(responder) as server:
        ask = model_asker(ModelClient(tmp_path / "cache"), MODEL, temperature=0.8, api_base=server.base_url)
        run = evaluate([ledger_eval_task()], _settings(n=len(kinds), ks=(1, 8)), pool, ask)
    summary = run.summaries[0]
    assert summary.class_pass_at_k == {"1": pytest.approx(1 / len(kinds)), "8": 1.0}
    expected = {EXPECTED_FAILURE[k]: 1 for k in kinds if EXPECTED_FAILURE[k]}
    assert summary.failures == expected
    assert summary.failure_shares == {name: pytest.approx(1 / 7) for name in expected}
    by_kind = {kinds[r.sample]: r for r in run.completions}
    assert by_kind["garbage"].completion is None and by_kind["garbage"].answers == (SCRIPTED["garbage"],)
    assert by_kind["disarms_assertions"].score.tampering
    assert LEDGER.strip() in (by_kind["right"].completion or "")


def test_a_spent_budget_stops_the_run_and_keeps_what_is_done(pool, tmp_path):
    from models.client import Budget

    with ChatEmulator(lambda call: SCRIPTED["right"]) as server:
        client = ModelClient(tmp_path / "cache", budget=Budget(max_calls=2))
        ask = model_asker(client, MODEL, temperature=0.8, api_base=server.base_url)
        run = evaluate([ledger_eval_task()], _settings(n=4, ks=(1,), jobs=1), pool, ask)
    assert run.stopped and "BudgetExhausted" in run.stopped
    assert len(server.calls) == 2 and len(run.completions) == 2
    assert all(r.score.passed for r in run.completions)  # the missing samples are not counted as failures
    assert run.summaries[0].class_pass_at_k == {"1": 1.0} and run.summaries[0].tasks == 1
