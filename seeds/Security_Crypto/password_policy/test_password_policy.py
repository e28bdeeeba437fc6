import pytest

from password_policy import PasswordPolicy


@pytest.fixture
def policy():
    return PasswordPolicy(min_length=8, history_depth=2, salt="test-salt")


def test_ban_word_returns_growing_count(policy):
    assert policy.ban_word("acme") == 1
    assert policy.ban_word("Rocket") == 2


def test_ban_word_is_case_insensitive_and_deduplicated(policy):
    policy.ban_word("Acme")
    assert policy.ban_word("  ACME ") == 1


def test_ban_word_rejects_blank(policy):
    with pytest.raises(ValueError):
        policy.ban_word("   ")


def test_violations_empty_for_good_password(policy):
    assert policy.violations("Harbor#2024") == []


def test_violations_lists_all_missing_classes(policy):
    assert policy.violations("") == ["too_short", "no_upper", "no_lower", "no_digit", "no_symbol"]


def test_violations_only_symbol_missing(policy):
    assert policy.violations("Harbor2024") == ["no_symbol"]


def test_violations_only_length(policy):
    assert policy.violations("Ab1!xyz") == ["too_short"]


def test_violations_reports_banned_words_sorted(policy):
    policy.ban_word("rocket")
    policy.ban_word("acme")
    assert policy.violations("AcmeRocket#1") == ["banned:acme", "banned:rocket"]


def test_violations_ignores_absent_banned_word(policy):
    policy.ban_word("acme")
    assert policy.violations("Harbor#2024") == []


def test_strength_of_strong_password(policy):
    assert policy.strength("Harbor#2024-Lighthouse") == 100


def test_strength_of_empty_password_is_zero(policy):
    assert policy.strength("") == 0


def test_strength_penalises_violations(policy):
    # 10 chars -> 40, lower+digit -> 20, two violations (no_upper, no_symbol) -> -30
    assert policy.strength("harbor2024") == 30


def test_strength_drops_after_banning_word(policy):
    before = policy.strength("Harbor#2024")
    policy.ban_word("harbor")
    assert policy.strength("Harbor#2024") == before - 15


def test_digest_is_deterministic_and_user_specific(policy):
    first = policy._digest("ada", "Harbor#2024")
    assert first == policy._digest("ada", "Harbor#2024")
    assert first != policy._digest("bob", "Harbor#2024")
    assert len(first) == 64


def test_digest_depends_on_salt():
    a = PasswordPolicy(salt="one")._digest("ada", "Harbor#2024")
    b = PasswordPolicy(salt="two")._digest("ada", "Harbor#2024")
    assert a != b


def test_set_password_returns_history_length(policy):
    assert policy.set_password("ada", "Harbor#2024") == 1
    assert policy.set_password("ada", "Meadow#2025") == 2


def test_set_password_trims_history_to_depth(policy):
    policy.set_password("ada", "Harbor#2024")
    policy.set_password("ada", "Meadow#2025")
    assert policy.set_password("ada", "Canyon#2026") == 2
    assert policy.was_used("ada", "Harbor#2024") is False


def test_set_password_rejects_weak_password(policy):
    with pytest.raises(ValueError, match="too_short"):
        policy.set_password("ada", "Ab1!")


def test_set_password_rejects_banned_word(policy):
    policy.ban_word("harbor")
    with pytest.raises(ValueError, match="banned:harbor"):
        policy.set_password("ada", "Harbor#2024")


def test_set_password_rejects_reuse(policy):
    policy.set_password("ada", "Harbor#2024")
    policy.set_password("ada", "Meadow#2025")
    with pytest.raises(ValueError):
        policy.set_password("ada", "Harbor#2024")


def test_set_password_allows_reuse_after_history_rolls_over(policy):
    policy.set_password("ada", "Harbor#2024")
    policy.set_password("ada", "Meadow#2025")
    policy.set_password("ada", "Canyon#2026")
    assert policy.set_password("ada", "Harbor#2024") == 2
    assert policy.verify("ada", "Harbor#2024") is True


def test_rejected_password_leaves_no_history(policy):
    with pytest.raises(ValueError):
        policy.set_password("ada", "weak")
    assert policy.users() == []


def test_was_used_unknown_user(policy):
    assert policy.was_used("ghost", "Harbor#2024") is False


def test_was_used_is_per_user(policy):
    policy.set_password("ada", "Harbor#2024")
    assert policy.was_used("ada", "Harbor#2024") is True
    assert policy.was_used("bob", "Harbor#2024") is False


def test_same_password_allowed_for_different_users(policy):
    policy.set_password("ada", "Harbor#2024")
    assert policy.set_password("bob", "Harbor#2024") == 1


def test_verify_current_password(policy):
    policy.set_password("ada", "Harbor#2024")
    assert policy.verify("ada", "Harbor#2024") is True
    assert policy.verify("ada", "harbor#2024") is False


def test_verify_old_password_is_false(policy):
    policy.set_password("ada", "Harbor#2024")
    policy.set_password("ada", "Meadow#2025")
    assert policy.verify("ada", "Harbor#2024") is False
    assert policy.verify("ada", "Meadow#2025") is True


def test_verify_unknown_user_raises(policy):
    with pytest.raises(KeyError):
        policy.verify("ghost", "Harbor#2024")


def test_forget_user_returns_discarded_count(policy):
    policy.set_password("ada", "Harbor#2024")
    policy.set_password("ada", "Meadow#2025")
    assert policy.forget_user("ada") == 2


def test_forget_user_unknown_raises(policy):
    with pytest.raises(KeyError):
        policy.forget_user("ghost")


def test_users_sorted(policy):
    policy.set_password("zoe", "Harbor#2024")
    policy.set_password("amy", "Harbor#2024")
    policy.set_password("max", "Harbor#2024")
    assert policy.users() == ["amy", "max", "zoe"]


def test_users_empty_initially_then_filled(policy):
    assert policy.users() == []
    policy.set_password("amy", "Harbor#2024")
    assert policy.users() == ["amy"]


def test_scenario_forget_then_reuse_and_verify(policy):
    policy.set_password("ada", "Harbor#2024")
    assert policy.forget_user("ada") == 1
    assert policy.users() == []
    assert policy.was_used("ada", "Harbor#2024") is False
    with pytest.raises(KeyError):
        policy.verify("ada", "Harbor#2024")
    assert policy.set_password("ada", "Harbor#2024") == 1
    assert policy.verify("ada", "Harbor#2024") is True


def test_scenario_forget_one_user_keeps_others(policy):
    policy.set_password("ada", "Harbor#2024")
    policy.set_password("bob", "Meadow#2025")
    policy.forget_user("ada")
    assert policy.users() == ["bob"]
    assert policy.verify("bob", "Meadow#2025") is True
    with pytest.raises(KeyError):
        policy.forget_user("ada")


def test_scenario_rotation_lifecycle(policy):
    policy.ban_word("acme")
    assert policy.strength("Acme#20240") < policy.strength("Harbor#2024")
    with pytest.raises(ValueError, match="banned:acme"):
        policy.set_password("ada", "Acme#20240")
    policy.set_password("ada", "Harbor#2024")
    policy.set_password("ada", "Meadow#2025")
    assert policy.was_used("ada", "Harbor#2024") is True
    assert policy.verify("ada", "Meadow#2025") is True
    assert policy.users() == ["ada"]


def test_violations_accepts_exact_minimum_length(policy):
    assert policy.violations("Ab1!wxyz") == []


def test_digest_matches_pbkdf2_reference(policy):
    import hashlib
    expected = hashlib.pbkdf2_hmac("sha256", b"Harbor#2024", b"test-salt:ada", 1000).hex()
    assert policy._digest("ada", "Harbor#2024") == expected


def test_default_policy_settings_apply():
    policy = PasswordPolicy()
    assert policy.violations("Ab1!wxyzk") == ["too_short"]
    for password in ["Harbor#2024", "Meadow#2025", "Canyon#2026"]:
        policy.set_password("ada", password)
    with pytest.raises(ValueError):
        policy.set_password("ada", "Harbor#2024")
