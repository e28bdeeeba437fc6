import pytest

from hotp_authenticator import HotpAuthenticator

RFC_SECRET = "3132333435363738393031323334353637383930"
RFC_CODES = ["755224", "287082", "359152", "969429", "338314",
             "254676", "287922", "162583", "399871", "520489"]


@pytest.fixture
def auth():
    authenticator = HotpAuthenticator(digits=6, look_ahead=2, max_failures=3)
    authenticator.enroll("phone", RFC_SECRET)
    return authenticator


def test_enroll_returns_zero_counter():
    auth = HotpAuthenticator()
    assert auth.enroll("token", "ab" * 20) == 0
    assert auth.counter("token") == 0


def test_enroll_twice_raises(auth):
    with pytest.raises(ValueError):
        auth.enroll("phone", RFC_SECRET)


def test_enroll_bad_hex_raises():
    with pytest.raises(ValueError):
        HotpAuthenticator().enroll("token", "not hex at all")


def test_enroll_short_secret_raises():
    auth = HotpAuthenticator()
    with pytest.raises(ValueError):
        auth.enroll("token", "00" * 15)
    with pytest.raises(KeyError):
        auth.counter("token")


@pytest.mark.parametrize("counter,expected", list(enumerate(RFC_CODES)))
def test_code_at_matches_rfc4226_vectors(auth, counter, expected):
    assert auth.code_at("phone", counter) == expected


def test_code_at_eight_digits():
    auth = HotpAuthenticator(digits=8)
    auth.enroll("phone", RFC_SECRET)
    assert auth.code_at("phone", 0) == "84755224"


def test_code_at_negative_counter_raises(auth):
    with pytest.raises(ValueError):
        auth.code_at("phone", -1)


def test_code_at_unknown_device_raises(auth):
    with pytest.raises(KeyError):
        auth.code_at("laptop", 0)


def test_counter_unknown_device_raises(auth):
    with pytest.raises(KeyError):
        auth.counter("laptop")


def test_verify_expected_code_advances_counter(auth):
    assert auth.verify("phone", "755224") is True
    assert auth.counter("phone") == 1


def test_verify_within_look_ahead(auth):
    assert auth.verify("phone", "359152") is True
    assert auth.counter("phone") == 3


def test_verify_beyond_look_ahead_fails(auth):
    assert auth.verify("phone", "969429") is False
    assert auth.counter("phone") == 0


def test_verify_rejects_replay(auth):
    assert auth.verify("phone", "755224") is True
    assert auth.verify("phone", "755224") is False


def test_verify_unknown_device_raises(auth):
    with pytest.raises(KeyError):
        auth.verify("laptop", "755224")


def test_is_locked_after_max_failures(auth):
    for _ in range(2):
        assert auth.verify("phone", "000000") is False
    assert auth.is_locked("phone") is False
    assert auth.verify("phone", "000000") is False
    assert auth.is_locked("phone") is True


def test_verify_on_locked_device_raises(auth):
    for _ in range(3):
        auth.verify("phone", "111111")
    with pytest.raises(PermissionError):
        auth.verify("phone", "755224")


def test_success_resets_failure_count(auth):
    auth.verify("phone", "000000")
    auth.verify("phone", "000000")
    assert auth.verify("phone", "755224") is True
    assert auth.unlock("phone") == 0


def test_is_locked_unknown_device_raises(auth):
    with pytest.raises(KeyError):
        auth.is_locked("laptop")


def test_unlock_returns_previous_failures_and_allows_verify(auth):
    for _ in range(3):
        auth.verify("phone", "000000")
    assert auth.unlock("phone") == 3
    assert auth.is_locked("phone") is False
    assert auth.verify("phone", "755224") is True


def test_unlock_unknown_device_raises(auth):
    with pytest.raises(KeyError):
        auth.unlock("laptop")


def test_resync_jumps_past_both_codes(auth):
    assert auth.resync("phone", "162583", "399871") == 9
    assert auth.counter("phone") == 9
    assert auth.verify("phone", "520489") is True


def test_resync_requires_consecutive_codes(auth):
    with pytest.raises(ValueError):
        auth.resync("phone", "162583", "520489")
    assert auth.counter("phone") == 0


def test_resync_outside_window_fails(auth):
    with pytest.raises(ValueError):
        auth.resync("phone", "162583", "399871", window=5)


def test_resync_unlocks_device(auth):
    for _ in range(3):
        auth.verify("phone", "000000")
    assert auth.resync("phone", "969429", "338314") == 5
    assert auth.is_locked("phone") is False
    assert auth.verify("phone", "254676") is True


def test_resync_unknown_device_raises(auth):
    with pytest.raises(KeyError):
        auth.resync("laptop", "755224", "287082")


def test_devices_are_independent(auth):
    auth.enroll("backup", "ab" * 20)
    auth.verify("phone", "755224")
    for _ in range(3):
        auth.verify("backup", "000000")
    assert auth.counter("backup") == 0
    assert auth.is_locked("backup") is True
    assert auth.is_locked("phone") is False
    assert auth.counter("phone") == 1


def test_scenario_drift_lockout_and_recovery(auth):
    assert auth.verify("phone", "287082") is True
    assert auth.counter("phone") == 2
    # the user pressed the button many times: code for counter 7 is too far ahead
    for _ in range(3):
        assert auth.verify("phone", "162583") is False
    assert auth.is_locked("phone") is True
    with pytest.raises(PermissionError):
        auth.verify("phone", "162583")
    assert auth.resync("phone", "162583", "399871") == 9
    assert auth.unlock("phone") == 0
    assert auth.verify("phone", "520489") is True
    assert auth.counter("phone") == 10


def test_scenario_enroll_second_device_after_activity(auth):
    auth.verify("phone", "000000")
    auth.resync("phone", "755224", "287082")
    auth.unlock("phone")
    assert auth.enroll("tablet", RFC_SECRET) == 0
    assert auth.counter("tablet") == 0
    assert auth.counter("phone") == 2
    assert auth.verify("tablet", "755224") is True
    with pytest.raises(ValueError):
        auth.enroll("phone", RFC_SECRET)
