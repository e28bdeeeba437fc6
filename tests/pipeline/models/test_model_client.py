"""The model client through the real litellm against the local chat emulator: retries, cache, budget,
cost, headers. Waiting between retries goes through a recorder, so no test sleeps or measures time."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from models.cache import request_key
from models.client import (
    Budget,
    BudgetExhausted,
    ModelCallFailed,
    ModelClient,
    ModelRequest,
    Role,
)
from models.usage import UNKNOWN_PRICE
from tests.emulators.chat import ChatCall, ChatEmulator, Reply

ANSWER = "Here it is.\n```python\nclass Ping:\n    pass\n```\n"


def request(base_url: str, content: str = "hello", model: str = "openai/strong-1", role: Role = Role.ENHANCER,
            prompt: str = "skeleton@1", **extra) -> ModelRequest:
    return ModelRequest(role=role, model=model, prompt=prompt, messages=({"role": "user", "content": content},),
                        api_base=base_url, **extra)


class Sleeps(list):
    """Records the waits the client asks for instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def client(tmp_path: Path, **options) -> tuple[ModelClient, Sleeps]:
    sleeps = Sleeps()
    options.setdefault("backoff_s", 0.01)
    return ModelClient(tmp_path / "cache", sleep=sleeps, **options), sleeps


def test_answer_tokens_headers_and_unknown_price(tmp_path: Path) -> None:
    with ChatEmulator(lambda call: Reply(ANSWER, usage={"prompt_tokens": 11, "completion_tokens": 7,
                                                         "total_tokens": 18})) as server:
        model_client, _ = client(tmp_path)
        answer = model_client.complete(request(server.base_url, role=Role.TEST_WRITER, prompt="tests_from_skeleton@3"))
        calls = server.calls
    assert answer.text == ANSWER
    assert (answer.prompt_tokens, answer.completion_tokens) == (11, 7)
    assert answer.cost_usd is None  # litellm has no price for 'strong-1': unknown, never 0
    assert not answer.cached and answer.role is Role.TEST_WRITER and answer.prompt == "tests_from_skeleton@3"
    assert [(c.model, c.role, c.prompt) for c in calls] == [("strong-1", "test_writer", "tests_from_skeleton@3")]
    assert calls[0].headers.get("Authorization") == "Bearer test-key"
    row = model_client.usage().by_role()["test_writer"]
    assert (row.calls, row.cache_hits, row.prompt_tokens, row.completion_tokens) == (1, 0, 11, 7)
    assert row.cost_usd is None and row.cost_label() == UNKNOWN_PRICE


def test_known_price_is_counted(tmp_path: Path) -> None:
    with ChatEmulator(lambda call: Reply(ANSWER, usage={"prompt_tokens": 1000, "completion_tokens": 1000,
                                                         "total_tokens": 2000})) as server:
        model_client, _ = client(tmp_path)
        answer = model_client.complete(request(server.base_url, model="openai/gpt-4o-mini"))
    assert answer.cost_usd is not None and answer.cost_usd > 0
    assert model_client.usage().total().cost_usd == pytest.approx(answer.cost_usd)


def test_rate_limit_then_success_honours_retry_after(tmp_path: Path) -> None:
    seen: list[int] = []

    def responder(call: ChatCall) -> Reply | str:
        seen.append(1)
        return Reply("slow down", status=429, headers={"Retry-After": "7"}) if len(seen) == 1 else ANSWER

    with ChatEmulator(responder) as server:
        model_client, sleeps = client(tmp_path)
        answer = model_client.complete(request(server.base_url))
        calls = server.calls
    assert answer.text == ANSWER
    assert sleeps == [7.0]  # the server's Retry-After, not the client's own backoff
    assert len(calls) == 2 and all(c.role == "enhancer" and c.prompt == "skeleton@1" for c in calls)
    assert model_client.usage().total().calls == 1
    assert model_client.budget.calls == 1  # a retried call is one call


def test_server_error_is_retried_with_backoff_then_fails(tmp_path: Path) -> None:
    with ChatEmulator(lambda call: Reply("internal error", status=500)) as server:
        model_client, sleeps = client(tmp_path, max_retries=2)
        with pytest.raises(ModelCallFailed) as failed:
            model_client.complete(request(server.base_url))
        calls = server.calls
    assert failed.value.status == 500
    assert "after 3 attempt(s)" in str(failed.value)
    assert len(calls) == 3 and len(sleeps) == 2 and sleeps[1] > sleeps[0] > 0  # exponential backoff
    assert model_client.usage().total().failures == 1
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.json"))  # nothing cached


def test_timeout_is_retried(tmp_path: Path) -> None:
    seen: list[int] = []

    def responder(call: ChatCall) -> Reply | str:
        seen.append(1)
        return Reply(ANSWER, delay_s=2.0) if len(seen) == 1 else ANSWER

    with ChatEmulator(responder) as server:
        model_client, sleeps = client(tmp_path, timeout_s=0.5)
        answer = model_client.complete(request(server.base_url))
    assert answer.text == ANSWER and len(seen) == 2 and len(sleeps) == 1


def test_connection_refused_is_retried_then_fails(tmp_path: Path) -> None:
    with ChatEmulator(lambda call: ANSWER) as server:
        base_url = server.base_url  # the server is gone once the block ends: nothing listens there
    model_client, sleeps = client(tmp_path, max_retries=1)
    with pytest.raises(ModelCallFailed, match="Connection error"):
        model_client.complete(request(base_url))
    assert len(sleeps) == 1


def test_bad_request_is_not_retried(tmp_path: Path) -> None:
    with ChatEmulator(lambda call: Reply("unknown parameter", status=400)) as server:
        model_client, sleeps = client(tmp_path)
        with pytest.raises(ModelCallFailed) as failed:
            model_client.complete(request(server.base_url))
        assert len(server.calls) == 1
    assert failed.value.status == 400 and sleeps == []


def test_rerun_answers_from_the_cache_with_zero_calls(tmp_path: Path) -> None:
    with ChatEmulator(lambda call: f"```python\nclass Echo:  # {call.last_user_message}\n    pass\n```") as server:
        first, _ = client(tmp_path)
        answers = [first.complete(request(server.base_url, content=f"q{i}")) for i in range(3)]
        assert len(server.calls) == 3
    # the same server's address, now closed: a hit needs no server and no budget (a miss would fail)
    second, _ = client(tmp_path, budget=Budget(max_calls=0))
    again = [second.complete(request(server.base_url, content=f"q{i}")) for i in range(3)]
    assert [a.text for a in again] == [a.text for a in answers]
    assert all(a.cached and a.cost_usd == 0.0 for a in again)
    assert [a.cache_key for a in again] == [a.cache_key for a in answers]
    usage = second.usage().total()
    assert (usage.calls, usage.cache_hits, usage.priced_cost_usd) == (0, 3, 0.0)


def test_cache_key_covers_model_messages_temperature_and_server(tmp_path: Path) -> None:
    base = request("http://127.0.0.1:1/v1")
    assert request_key(base) == request_key(request("http://127.0.0.1:1/v1/", role=Role.JUDGE, prompt="other@2"))
    # another server is another answer: a local test server's answer is not the provider's
    assert request_key(base) != request_key(request("http://127.0.0.1:2/v1")) != request_key(request(None))
    assert request_key(base) != request_key(request("http://127.0.0.1:1/v1", content="other"))
    assert request_key(base) != request_key(request("http://127.0.0.1:1/v1", model="openai/strong-2"))
    assert request_key(base) != request_key(request("http://127.0.0.1:1/v1", temperature=0.7))


def test_no_cache_asks_again(tmp_path: Path) -> None:
    with ChatEmulator(lambda call: ANSWER) as server:
        client(tmp_path)[0].complete(request(server.base_url))
        fresh, _ = client(tmp_path, use_cache=False)
        answer = fresh.complete(request(server.base_url))
        assert len(server.calls) == 2
    assert not answer.cached


def test_unreadable_cache_entry_is_a_miss_not_a_crash(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with ChatEmulator(lambda call: ANSWER) as server:
        answer = client(tmp_path)[0].complete(request(server.base_url))
        entry = next((tmp_path / "cache").rglob(f"{answer.cache_key}.json"))
        entry.write_text('{"key": "truncat', encoding="utf-8")
        again = client(tmp_path)[0].complete(request(server.base_url))
        assert len(server.calls) == 2
    assert again.text == ANSWER and not again.cached
    assert "unreadable" in caplog.text
    assert json.loads(entry.read_text())["text"] == ANSWER  # rewritten whole


def test_budget_on_calls_refuses_new_calls_but_serves_the_cache(tmp_path: Path) -> None:
    with ChatEmulator(lambda call: ANSWER) as server:
        model_client, _ = client(tmp_path, budget=Budget(max_calls=2))
        model_client.complete(request(server.base_url, content="a"))
        model_client.complete(request(server.base_url, content="b"))
        with pytest.raises(BudgetExhausted, match="max_calls=2"):
            model_client.complete(request(server.base_url, content="c"))
        assert model_client.complete(request(server.base_url, content="a")).cached
        assert len(server.calls) == 2
    assert model_client.usage().budget_refused == 1


def test_budget_on_dollars(tmp_path: Path) -> None:
    usage = {"prompt_tokens": 1000, "completion_tokens": 1000, "total_tokens": 2000}
    with ChatEmulator(lambda call: Reply(ANSWER, usage=usage)) as server:
        model_client, _ = client(tmp_path, budget=Budget(max_cost_usd=0.0001))
        model_client.complete(request(server.base_url, model="openai/gpt-4o-mini", content="a"))
        with pytest.raises(BudgetExhausted, match="max_cost_usd"):
            model_client.complete(request(server.base_url, model="openai/gpt-4o-mini", content="b"))
        assert len(server.calls) == 1


def test_concurrency_is_limited_per_model(tmp_path: Path) -> None:
    lock = threading.Lock()
    in_flight = {"now": 0, "most": 0}

    def responder(call: ChatCall) -> Reply:
        with lock:
            in_flight["now"] += 1
            in_flight["most"] = max(in_flight["most"], in_flight["now"])
        try:
            threading.Event().wait(0.05)
            return Reply(ANSWER)
        finally:
            with lock:
                in_flight["now"] -= 1

    with ChatEmulator(responder) as server:
        model_client, _ = client(tmp_path, max_concurrency=1)
        threads = [threading.Thread(target=model_client.complete, args=(request(server.base_url, content=str(i)),))
                   for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(server.calls) == 4
    assert in_flight["most"] == 1


@pytest.mark.live
def test_live_provider_answers_the_contract(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            startup_keys: dict[str, str]) -> None:
    """Against a real provider: set CLASSEVAL_PRO_LIVE_MODEL (default openai/gpt-4o-mini) and its key."""
    from models.answers import extract_python

    model = os.environ.get("CLASSEVAL_PRO_LIVE_MODEL", "openai/gpt-4o-mini")
    variable = f"{model.split('/', 1)[0].upper()}_API_KEY"
    if variable not in startup_keys:
        pytest.skip(f"live test: {variable} is not set")
    monkeypatch.setenv(variable, startup_keys[variable])
    model_client = ModelClient(tmp_path / "cache", max_retries=2, timeout_s=60)
    prompt = "Answer with one fenced python block defining `class Ping` with a method `ping` returning 'pong'."
    answer = model_client.complete(ModelRequest(role=Role.SOLVER, model=model, prompt="live@1",
                                                messages=({"role": "user", "content": prompt},)))
    assert "def ping" in extract_python(answer.text, "Ping")
    assert answer.prompt_tokens and answer.completion_tokens
