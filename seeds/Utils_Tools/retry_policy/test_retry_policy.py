import hashlib

import pytest

from retry_policy import RetryPolicy


@pytest.fixture
def policy():
    return RetryPolicy(base_delay=1.0, multiplier=2.0, max_delay=5.0, max_attempts=4, budget=3.0)


def test_jitter_factor_without_jitter_is_one(policy):
    assert policy._jitter_factor("fetch", 3) == 1.0


def test_jitter_factor_matches_hash_formula():
    policy = RetryPolicy(jitter=0.2, seed=7)
    digest = hashlib.sha256(b"7:fetch:1").digest()
    expected = 1.0 + 0.2 * (2 * int.from_bytes(digest[:8], "big") / 2 ** 64 - 1)
    assert policy._jitter_factor("fetch", 1) == expected


def test_jitter_factor_stays_in_bounds():
    policy = RetryPolicy(jitter=0.5, seed=3)
    for attempt in range(1, 30):
        assert 0.5 <= policy._jitter_factor("op", attempt) <= 1.5


def test_delay_grows_exponentially(policy):
    assert [policy.delay(n) for n in (1, 2, 3)] == [1.0, 2.0, 4.0]


def test_delay_is_capped(policy):
    assert policy.delay(4) == 5.0
    assert policy.delay(40) == 5.0


def test_delay_rejects_attempt_zero(policy):
    with pytest.raises(ValueError):
        policy.delay(0)


def test_delay_with_jitter_is_reproducible():
    first = RetryPolicy(base_delay=1.0, jitter=0.2, seed=7)
    second = RetryPolicy(base_delay=1.0, jitter=0.2, seed=7)
    assert first.delay(1, "fetch") == second.delay(1, "fetch") == 0.847


def test_delay_jitter_depends_on_operation_and_seed():
    policy = RetryPolicy(base_delay=1.0, jitter=0.2, seed=7)
    assert policy.delay(1, "upload") == 0.904
    assert RetryPolicy(base_delay=1.0, jitter=0.2, seed=8).delay(1, "fetch") == 1.161


def test_schedule_without_jitter(policy):
    assert policy.schedule() == [1.0, 2.0, 4.0]


def test_schedule_with_jitter():
    policy = RetryPolicy(base_delay=1.0, jitter=0.2, seed=7)
    assert policy.schedule("fetch") == [0.847, 1.73, 3.505, 7.293]


def test_schedule_single_attempt_is_empty():
    assert RetryPolicy(max_attempts=1).schedule() == []


def test_mark_retryable_add_and_remove(policy):
    assert policy.mark_retryable("throttled") == ["throttled", "timeout", "unavailable"]
    assert policy.mark_retryable("timeout", retryable=False) == ["throttled", "unavailable"]
    assert policy.mark_retryable("never_there", retryable=False) == ["throttled", "unavailable"]


def test_should_retry_retryable_kind(policy):
    assert policy.should_retry(1, "timeout") is True
    assert policy.should_retry(1, "bad_request") is False


def test_should_retry_respects_max_attempts(policy):
    assert policy.should_retry(3, "timeout") is True
    assert policy.should_retry(4, "timeout") is False


def test_should_retry_after_marking_kind(policy):
    policy.mark_retryable("bad_request")
    assert policy.should_retry(1, "bad_request") is True
    policy.mark_retryable("timeout", retryable=False)
    assert policy.should_retry(1, "timeout") is False


def test_record_failure_returns_delay_and_spends_token(policy):
    assert policy.record_failure("fetch", 1, "timeout") == 1.0
    assert policy.record_failure("fetch", 2, "unavailable") == 2.0
    assert policy.tokens() == 1.0


def test_record_failure_non_retryable_gives_up(policy):
    assert policy.record_failure("fetch", 1, "bad_request") == -1.0
    assert policy.tokens() == 3.0
    assert policy.attempts("fetch") == ["1:bad_request"]


def test_record_failure_last_attempt_gives_up(policy):
    for attempt, expected in [(1, 1.0), (2, 2.0), (3, 4.0), (4, -1.0)]:
        assert policy.record_failure("fetch", attempt, "timeout") == expected


def test_record_failure_out_of_sequence_raises(policy):
    policy.record_failure("fetch", 1, "timeout")
    with pytest.raises(ValueError):
        policy.record_failure("fetch", 3, "timeout")
    assert policy.tokens() == 2.0


def test_record_failure_first_attempt_must_be_one(policy):
    with pytest.raises(ValueError):
        policy.record_failure("fetch", 2, "timeout")


def test_budget_exhaustion_stops_retries(policy):
    policy.record_failure("a", 1, "timeout")
    policy.record_failure("b", 1, "timeout")
    policy.record_failure("c", 1, "timeout")
    assert policy.tokens() == 0.0
    assert policy.should_retry(1, "timeout") is False
    assert policy.record_failure("d", 1, "timeout") == -1.0


def test_record_success_returns_attempt_count(policy):
    policy.record_failure("fetch", 1, "timeout")
    assert policy.record_success("fetch", 2) == 2
    assert policy.attempts("fetch") == ["1:timeout", "2:ok"]


def test_record_success_refunds_half_token_up_to_budget(policy):
    policy.record_failure("fetch", 1, "timeout")
    policy.record_failure("fetch", 2, "timeout")
    policy.record_success("fetch", 3)
    assert policy.tokens() == 1.5
    policy.record_success("other", 1)
    policy.record_success("third", 1)
    policy.record_success("fourth", 1)
    assert policy.tokens() == 3.0


def test_record_after_success_requires_new_run(policy):
    policy.record_success("fetch", 1)
    with pytest.raises(ValueError):
        policy.record_failure("fetch", 2, "timeout")


def test_new_run_replaces_history(policy):
    policy.record_failure("fetch", 1, "timeout")
    policy.record_success("fetch", 2)
    assert policy.record_failure("fetch", 1, "unavailable") == 1.0
    assert policy.attempts("fetch") == ["1:unavailable"]


def test_tokens_initial(policy):
    policy.mark_retryable("timeout")
    assert policy.tokens() == 3.0


def test_attempts_unknown_operation(policy):
    assert policy.attempts("ghost") == []


def test_total_wait_sums_prescribed_waits(policy):
    policy.record_failure("fetch", 1, "timeout")
    policy.record_failure("fetch", 2, "timeout")
    policy.record_failure("fetch", 3, "fatal")
    assert policy.total_wait("fetch") == 3.0


def test_total_wait_unknown_operation(policy):
    assert policy.total_wait("ghost") == 0.0


def test_total_wait_with_jitter():
    policy = RetryPolicy(base_delay=1.0, jitter=0.2, seed=7)
    policy.record_failure("fetch", 1, "timeout")
    policy.record_failure("fetch", 2, "timeout")
    assert policy.total_wait("fetch") == 2.577


def test_scenario_full_run_with_custom_error_kind(policy):
    assert policy.mark_retryable("throttled") == ["throttled", "timeout", "unavailable"]
    assert policy.should_retry(1, "throttled") is True
    assert policy.record_failure("upload", 1, "throttled") == 1.0
    assert policy.record_failure("upload", 2, "timeout") == 2.0
    assert policy.record_success("upload", 3) == 3
    assert policy.attempts("upload") == ["1:throttled", "2:timeout", "3:ok"]
    assert policy.total_wait("upload") == 3.0
    assert policy.tokens() == 1.5
    assert policy.schedule("upload") == [1.0, 2.0, 4.0]


def test_scenario_success_then_unmark_then_failure(policy):
    policy.record_success("sync", 1)
    policy.mark_retryable("unavailable", retryable=False)
    assert policy.record_failure("sync", 1, "unavailable") == -1.0
    assert policy.should_retry(1, "timeout") is True
    assert policy.attempts("sync") == ["1:unavailable"]
    assert policy.tokens() == 3.0


def test_scenario_failures_drain_budget_then_successes_restore(policy):
    policy.record_failure("a", 1, "timeout")
    policy.record_failure("a", 2, "timeout")
    policy.record_failure("a", 3, "timeout")
    assert policy.should_retry(1, "timeout") is False
    policy.record_success("b", 1)
    policy.record_success("c", 1)
    assert policy.should_retry(1, "timeout") is True
    assert policy.record_failure("d", 1, "timeout") == 1.0
    assert policy.tokens() == 0.0


def test_record_failure_with_sub_second_wait_spends_token():
    policy = RetryPolicy(base_delay=0.25, budget=2.0)
    assert policy.record_failure("ping", 1, "timeout") == 0.25
    assert policy.tokens() == 1.0
