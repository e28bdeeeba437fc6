import pytest

from token_bucket_limiter import TokenBucketLimiter


def test_limit_for_without_arguments_uses_built_in_defaults():
    limiter = TokenBucketLimiter()
    assert limiter.limit_for("client") == (10.0, 1.0)
    assert [limiter.allow("client", 0.0) for _ in range(11)].count(True) == 10


def test_limit_for_uses_defaults():
    assert TokenBucketLimiter(20.0, 2.0).limit_for("client") == (20.0, 2.0)


def test_set_limit_overrides_one_key_only():
    limiter = TokenBucketLimiter(5.0, 1.0)
    limiter.set_limit("partner", 50.0, 5.0)
    assert (limiter.limit_for("partner"), limiter.limit_for("guest")) == ((50.0, 5.0), (5.0, 1.0))


def test_set_limit_zero_capacity_raises():
    with pytest.raises(ValueError):
        TokenBucketLimiter().set_limit("k", 0.0, 1.0)


def test_set_limit_negative_rate_raises():
    with pytest.raises(ValueError):
        TokenBucketLimiter().set_limit("k", 1.0, -1.0)


def test_set_limit_caps_existing_tokens():
    limiter = TokenBucketLimiter(10.0, 1.0)
    assert limiter.tokens("k", 0.0) == 10.0
    limiter.set_limit("k", 3.0, 1.0)
    assert limiter.tokens("k", 0.0) == 3.0


def test_tokens_new_key_has_full_bucket():
    assert TokenBucketLimiter(7.0, 1.0).tokens("fresh", 123.0) == 7.0


def test_tokens_refill_over_time_up_to_capacity():
    limiter = TokenBucketLimiter(4.0, 0.5)
    limiter.allow("k", 0.0, 4.0)
    assert [limiter.tokens("k", 2.0), limiter.tokens("k", 6.0), limiter.tokens("k", 100.0)] == [1.0, 3.0, 4.0]


def test_tokens_time_going_backwards_raises():
    limiter = TokenBucketLimiter()
    limiter.allow("k", 10.0)
    with pytest.raises(ValueError):
        limiter.tokens("k", 9.0)


def test_allow_until_bucket_empty():
    limiter = TokenBucketLimiter(3.0, 1.0)
    assert [limiter.allow("k", 0.0) for _ in range(4)] == [True, True, True, False]


def test_allow_with_cost_larger_than_available_keeps_tokens():
    limiter = TokenBucketLimiter(5.0, 1.0)
    limiter.allow("k", 0.0, 3.0)
    assert limiter.allow("k", 0.0, 3.0) is False
    assert limiter.tokens("k", 0.0) == 2.0


def test_allow_fractional_refill_accumulates():
    limiter = TokenBucketLimiter(1.0, 0.1)
    limiter.allow("k", 0.0)
    assert [limiter.allow("k", 3.0), limiter.allow("k", 6.0), limiter.allow("k", 10.0)] == [False, False, True]


def test_allow_keys_are_independent():
    limiter = TokenBucketLimiter(1.0, 1.0)
    assert [limiter.allow("a", 0.0), limiter.allow("b", 0.0), limiter.allow("a", 0.0)] == [True, True, False]


def test_allow_zero_cost_raises():
    with pytest.raises(ValueError):
        TokenBucketLimiter().allow("k", 0.0, 0.0)


def test_allow_time_going_backwards_raises():
    limiter = TokenBucketLimiter()
    limiter.allow("k", 5.0)
    with pytest.raises(ValueError):
        limiter.allow("k", 4.0)


def test_retry_after_zero_when_tokens_available():
    assert TokenBucketLimiter(2.0, 1.0).retry_after("k", 0.0) == 0.0


def test_retry_after_computes_wait_from_rate():
    limiter = TokenBucketLimiter(10.0, 4.0)
    limiter.allow("k", 0.0, 10.0)
    assert limiter.retry_after("k", 0.5, 5.0) == 0.75


def test_retry_after_cost_above_capacity_raises():
    with pytest.raises(ValueError):
        TokenBucketLimiter(2.0, 1.0).retry_after("k", 0.0, 3.0)


def test_retry_after_wait_is_enough_to_be_allowed():
    limiter = TokenBucketLimiter(2.0, 0.25)
    limiter.allow("k", 0.0, 2.0)
    wait = limiter.retry_after("k", 1.0, 2.0)
    assert wait == 7.0
    assert limiter.allow("k", 1.0 + wait, 2.0) is True


def test_denied_count_counts_only_refusals():
    limiter = TokenBucketLimiter(2.0, 1.0)
    for _ in range(5):
        limiter.allow("k", 0.0)
    assert limiter.denied_count("k") == 3


def test_denied_count_unknown_key_is_zero():
    limiter = TokenBucketLimiter()
    limiter.allow("other", 0.0)
    assert limiter.denied_count("k") == 0


def test_reset_clears_bucket_and_denials():
    limiter = TokenBucketLimiter(1.0, 0.01)
    limiter.allow("k", 0.0)
    limiter.allow("k", 0.0)
    assert limiter.reset("k") is True
    assert (limiter.denied_count("k"), limiter.tokens("k", 0.0)) == (0, 1.0)


def test_reset_unknown_key_returns_false():
    assert TokenBucketLimiter().reset("nobody") is False


def test_reset_keeps_limit_override():
    limiter = TokenBucketLimiter(1.0, 1.0)
    limiter.set_limit("k", 8.0, 2.0)
    limiter.allow("k", 0.0)
    limiter.reset("k")
    assert limiter.tokens("k", 0.0) == 8.0


def test_reset_allows_earlier_timestamps_again():
    limiter = TokenBucketLimiter(1.0, 1.0)
    limiter.allow("k", 50.0)
    limiter.reset("k")
    assert limiter.allow("k", 10.0) is True


def test_snapshot_lists_known_keys_sorted():
    limiter = TokenBucketLimiter(3.0, 1.0)
    limiter.allow("zeta", 0.0, 3.0)
    limiter.allow("alpha", 0.0, 1.0)
    assert limiter.snapshot(1.0) == {"alpha": 3.0, "zeta": 1.0}
    assert list(limiter.snapshot(1.0)) == ["alpha", "zeta"]


def test_snapshot_empty_limiter():
    assert TokenBucketLimiter().snapshot(0.0) == {}


def test_snapshot_time_before_last_update_raises():
    limiter = TokenBucketLimiter()
    limiter.allow("k", 3.0)
    with pytest.raises(ValueError):
        limiter.snapshot(2.0)


def test_scenario_api_gateway_traffic():
    limiter = TokenBucketLimiter(capacity=3.0, rate=1.0)
    limiter.set_limit("batch-job", 10.0, 0.5)
    burst = [limiter.allow("browser", 0.0) for _ in range(4)]
    assert burst == [True, True, True, False]
    assert limiter.allow("batch-job", 0.0, 8.0) is True
    assert limiter.retry_after("batch-job", 1.0, 4.0) == 3.0
    assert limiter.allow("batch-job", 1.0, 4.0) is False
    assert limiter.snapshot(2.0) == {"batch-job": 3.0, "browser": 2.0}
    assert limiter.allow("batch-job", 4.0, 4.0) is True
    assert (limiter.denied_count("browser"), limiter.denied_count("batch-job")) == (1, 1)
    limiter.set_limit("browser", 1.0, 1.0)
    assert limiter.tokens("browser", 2.0) == 1.0
    assert limiter.reset("browser") is True
    assert limiter.snapshot(4.0) == {"batch-job": 0.0}


def test_scenario_reset_then_new_limit_then_denials():
    limiter = TokenBucketLimiter(2.0, 1.0)
    limiter.allow("k", 0.0, 2.0)
    limiter.reset("k")
    limiter.set_limit("k", 1.0, 0.5)
    assert limiter.allow("k", 1.0) is True
    assert limiter.allow("k", 2.0) is False
    assert limiter.retry_after("k", 2.0) == 1.0
    assert limiter.denied_count("k") == 1
    assert limiter.snapshot(3.0) == {"k": 1.0}
    assert limiter.limit_for("k") == (1.0, 0.5)
