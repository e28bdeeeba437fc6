import base64
import json

import pytest

from signed_token_issuer import SignedTokenIssuer


@pytest.fixture
def issuer():
    return SignedTokenIssuer("correct horse", key_id="k1", default_ttl=100)


def test_b64_strips_padding():
    assert SignedTokenIssuer._b64(b"hello") == "aGVsbG8"
    assert SignedTokenIssuer._b64(b"") == ""


def test_sign_is_deterministic(issuer):
    assert issuer._sign("k1", "abc") == issuer._sign("k1", "abc")
    assert issuer._sign("k1", "abc") != issuer._sign("k1", "abd")


def test_sign_known_value():
    issuer = SignedTokenIssuer("key", key_id="k1")
    assert issuer._sign("k1", "e30") == "Cg7KeU04_BrtgovdJv0AGYzEvZrddit0PV-FFRWaNoA"


def test_sign_unknown_kid_raises(issuer):
    with pytest.raises(KeyError):
        issuer._sign("nope", "abc")


def test_issue_has_three_parts_and_active_kid(issuer):
    token = issuer.issue("ada", now=1000)
    kid, body, signature = token.split(".")
    assert kid == "k1"
    assert body and signature


def test_issue_payload_fields(issuer):
    token = issuer.issue("ada", now=1000, claims={"role": "admin"}, ttl=30)
    assert issuer.decode(token) == {"exp": 1030, "iat": 1000, "jti": "t1", "role": "admin", "sub": "ada"}


def test_issue_uses_default_ttl(issuer):
    assert issuer.decode(issuer.issue("ada", now=50))["exp"] == 150


def test_issue_numbers_tokens_in_order(issuer):
    ids = [issuer.decode(issuer.issue("ada", now=0))["jti"] for _ in range(3)]
    assert ids == ["t1", "t2", "t3"]


def test_issue_rejects_non_positive_ttl(issuer):
    with pytest.raises(ValueError):
        issuer.issue("ada", now=0, ttl=0)


def test_issue_rejects_reserved_claims(issuer):
    with pytest.raises(ValueError, match="exp, sub"):
        issuer.issue("ada", now=0, claims={"sub": "eve", "exp": "9"})


def test_issue_is_reproducible_across_instances():
    a = SignedTokenIssuer("key").issue("ada", now=7, ttl=3)
    b = SignedTokenIssuer("key").issue("ada", now=7, ttl=3)
    assert a == b


def test_decode_rejects_wrong_part_count(issuer):
    with pytest.raises(ValueError):
        issuer.decode("a.b")


def test_decode_rejects_non_json(issuer):
    with pytest.raises(ValueError):
        issuer.decode("k1.bm90IGpzb24.sig")


def test_decode_rejects_non_object(issuer):
    with pytest.raises(ValueError):
        issuer.decode("k1.WzEsMl0.sig")


def test_verify_returns_payload(issuer):
    token = issuer.issue("ada", now=1000, claims={"scope": "read"})
    payload = issuer.verify(token, now=1050)
    assert payload["sub"] == "ada"
    assert payload["scope"] == "read"


def test_verify_expired_at_exact_boundary(issuer):
    token = issuer.issue("ada", now=1000)
    assert issuer.verify(token, now=1099)["exp"] == 1100
    with pytest.raises(PermissionError, match="expired"):
        issuer.verify(token, now=1100)


def test_verify_before_issue_time(issuer):
    token = issuer.issue("ada", now=1000)
    with pytest.raises(PermissionError, match="not yet valid"):
        issuer.verify(token, now=999)


def test_verify_detects_tampered_payload(issuer):
    token = issuer.issue("ada", now=1000)
    kid, body, signature = token.split(".")
    payload = issuer.decode(token)
    payload["sub"] = "eve"
    forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    with pytest.raises(ValueError, match="bad signature"):
        issuer.verify(f"{kid}.{forged}.{signature}", now=1001)


def test_verify_rejects_token_from_other_secret(issuer):
    other = SignedTokenIssuer("wrong secret", key_id="k1")
    with pytest.raises(ValueError, match="bad signature"):
        issuer.verify(other.issue("ada", now=0), now=1)


def test_verify_unknown_key_id(issuer):
    other = SignedTokenIssuer("correct horse", key_id="k9")
    with pytest.raises(ValueError, match="unknown key id"):
        issuer.verify(other.issue("ada", now=0), now=1)


def test_is_valid_true_and_false(issuer):
    token = issuer.issue("ada", now=0)
    assert issuer.is_valid(token, now=10) is True
    assert issuer.is_valid(token, now=100) is False
    assert issuer.is_valid("not-a-token", now=10) is False


def test_revoke_returns_id_and_blocks_verify(issuer):
    token = issuer.issue("ada", now=0)
    assert issuer.revoke(token) == "t1"
    with pytest.raises(PermissionError, match="revoked"):
        issuer.verify(token, now=1)


def test_revoke_only_affects_that_token(issuer):
    first = issuer.issue("ada", now=0)
    second = issuer.issue("ada", now=0)
    issuer.revoke(first)
    assert issuer.is_valid(first, now=1) is False
    assert issuer.is_valid(second, now=1) is True


def test_revoke_twice_returns_the_same_id(issuer):
    token = issuer.issue("ada", now=0)
    assert issuer.revoke(token) == "t1"
    assert issuer.revoke(token) == "t1"
    with pytest.raises(PermissionError):
        issuer.verify(token, now=1)


def test_revoke_malformed_raises(issuer):
    with pytest.raises(ValueError):
        issuer.revoke("only.two")


def test_refresh_issues_new_token_and_revokes_old(issuer):
    old = issuer.issue("ada", now=0, claims={"role": "admin"})
    new = issuer.refresh(old, now=60)
    assert issuer.decode(new) == {"exp": 160, "iat": 60, "jti": "t2", "role": "admin", "sub": "ada"}
    assert issuer.is_valid(old, now=61) is False
    assert issuer.is_valid(new, now=61) is True


def test_refresh_with_custom_ttl(issuer):
    new = issuer.refresh(issuer.issue("ada", now=0), now=10, ttl=5)
    assert issuer.decode(new)["exp"] == 15


def test_refresh_expired_token_raises(issuer):
    old = issuer.issue("ada", now=0)
    with pytest.raises(PermissionError):
        issuer.refresh(old, now=500)


def test_refresh_twice_fails_because_old_is_revoked(issuer):
    old = issuer.issue("ada", now=0)
    issuer.refresh(old, now=1)
    with pytest.raises(PermissionError, match="revoked"):
        issuer.refresh(old, now=2)


def test_rotate_key_returns_sorted_ids(issuer):
    assert issuer.rotate_key("second", "k2") == ["k1", "k2"]
    assert issuer.rotate_key("third", "a0") == ["a0", "k1", "k2"]


def test_rotate_key_duplicate_raises(issuer):
    with pytest.raises(ValueError):
        issuer.rotate_key("again", "k1")


def test_rotate_key_new_tokens_use_new_key_old_still_verify(issuer):
    before = issuer.issue("ada", now=0)
    issuer.rotate_key("second", "k2")
    after = issuer.issue("bob", now=0)
    assert after.startswith("k2.")
    assert issuer.verify(before, now=1)["sub"] == "ada"
    assert issuer.verify(after, now=1)["sub"] == "bob"


def test_retire_key_invalidates_its_tokens(issuer):
    old = issuer.issue("ada", now=0)
    issuer.rotate_key("second", "k2")
    assert issuer.retire_key("k1") == ["k2"]
    with pytest.raises(ValueError, match="unknown key id"):
        issuer.verify(old, now=1)


def test_retire_active_key_raises(issuer):
    with pytest.raises(ValueError):
        issuer.retire_key("k1")


def test_retire_unknown_key_raises(issuer):
    with pytest.raises(KeyError):
        issuer.retire_key("k7")


def test_scenario_retire_then_rotate_reuses_id(issuer):
    issuer.rotate_key("second", "k2")
    issuer.retire_key("k1")
    assert issuer.rotate_key("fresh", "k1") == ["k1", "k2"]
    token = issuer.issue("ada", now=0)
    assert token.startswith("k1.")
    assert issuer._sign("k1", "e30") == SignedTokenIssuer("fresh", key_id="k1")._sign("k1", "e30")
    assert issuer.verify(token, now=1)["jti"] == "t1"


def test_scenario_refresh_after_rotation_moves_to_new_key(issuer):
    old = issuer.issue("ada", now=0, claims={"tier": "gold"})
    issuer.rotate_key("second", "k2")
    new = issuer.refresh(old, now=10)
    assert new.startswith("k2.")
    issuer.retire_key("k1")
    assert issuer.is_valid(new, now=11) is True
    assert issuer.revoke(new) == "t2"
    assert issuer.is_valid(new, now=11) is False


def test_issue_accepts_one_second_ttl(issuer):
    token = issuer.issue("ada", now=10, ttl=1)
    assert issuer.verify(token, now=10)["exp"] == 11
    assert issuer.is_valid(token, now=11) is False


@pytest.mark.parametrize("claim", ["iat", "jti", "sub", "exp"])
def test_issue_rejects_each_reserved_claim(issuer, claim):
    with pytest.raises(ValueError, match=claim):
        issuer.issue("ada", now=0, claims={claim: "x"})


def test_issue_exact_token_layout():
    issuer = SignedTokenIssuer("key", key_id="k1")
    token = issuer.issue("ada", now=5, claims={"role": "admin"}, ttl=10)
    body = base64.urlsafe_b64encode(
        b'{"exp":15,"iat":5,"jti":"t1","role":"admin","sub":"ada"}').decode().rstrip("=")
    assert token.split(".")[:2] == ["k1", body]


def test_verify_valid_at_issue_time(issuer):
    token = issuer.issue("ada", now=1000)
    assert issuer.verify(token, now=1000)["iat"] == 1000
