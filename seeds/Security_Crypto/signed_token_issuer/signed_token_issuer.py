"""Compact HMAC-signed tokens with key rotation, expiry and revocation."""

import base64
import hashlib
import hmac
import json


class SignedTokenIssuer:
    """Issue, verify, refresh and revoke HMAC-SHA256 signed tokens.

    A token has three dot-separated parts: the key id, the base64url encoded
    JSON payload and the base64url encoded signature over ``"<kid>.<payload>"``.
    Time is never read from a clock: every call that needs it takes ``now``
    as an integer number of seconds.

    >>> issuer = SignedTokenIssuer("s3cret", key_id="k1", default_ttl=60)
    >>> token = issuer.issue("ada", now=1000)
    >>> token.split(".")[0]
    'k1'
    >>> issuer.verify(token, now=1030)["sub"]
    'ada'
    >>> issuer.is_valid(token, now=1060)
    False
    """

    def __init__(self, key: str, key_id: str = "k1", default_ttl: int = 3600) -> None:
        """Create an issuer with a single active signing key.

        Args:
            key: the shared secret for the first key.
            key_id: the identifier written into tokens signed with it.
            default_ttl: lifetime in seconds used when ``issue`` gets no ttl.

        >>> SignedTokenIssuer("s", key_id="main").issue("ada", now=0)[:5]
        'main.'
        """
        self.default_ttl = default_ttl
        self._keys: dict[str, bytes] = {key_id: key.encode()}
        self._active_kid = key_id
        self._revoked: set[str] = set()
        self._issued = 0

    @staticmethod
    def _b64(data: bytes) -> str:
        """Encode bytes as unpadded base64url text.

        Args:
            data: the bytes to encode.

        Returns:
            The base64url text without ``=`` padding.

        >>> SignedTokenIssuer._b64(b"hi")
        'aGk'
        """
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    def _sign(self, kid: str, body: str) -> str:
        """Return the base64url HMAC-SHA256 signature of ``"<kid>.<body>"``.

        Args:
            kid: the key id whose secret signs.
            body: the encoded payload.

        Returns:
            The 43-character base64url signature.

        Raises:
            KeyError: if ``kid`` is not in the key ring.

        >>> len(SignedTokenIssuer("k")._sign("k1", "e30"))
        43
        """
        mac = hmac.new(self._keys[kid], f"{kid}.{body}".encode(), hashlib.sha256)
        return self._b64(mac.digest())

    def issue(self, subject: str, now: int, claims: dict[str, str] | None = None, ttl: int | None = None) -> str:
        """Create a token for ``subject`` signed with the active key.

        Args:
            subject: who the token is about (stored as ``sub``).
            now: issue time in seconds (stored as ``iat``).
            claims: extra string claims; they may not override reserved names.
            ttl: lifetime in seconds; ``default_ttl`` when omitted.

        Returns:
            The encoded token. Its id (``jti``) is ``t1``, ``t2``, ... in issue order.

        Raises:
            ValueError: if ttl is not positive or a claim uses a reserved name.

        >>> SignedTokenIssuer("s").issue("ada", now=0).count(".")
        2
        """
        lifetime = self.default_ttl if ttl is None else ttl
        if lifetime <= 0:
            raise ValueError("ttl must be positive")
        extra = dict(claims or {})
        reserved = sorted(set(extra) & {"sub", "iat", "exp", "jti"})
        if reserved:
            raise ValueError(f"reserved claim names: {', '.join(reserved)}")
        self._issued += 1
        payload = {**extra, "sub": subject, "iat": now, "exp": now + lifetime, "jti": f"t{self._issued}"}
        body = self._b64(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode())
        return f"{self._active_kid}.{body}.{self._sign(self._active_kid, body)}"

    def decode(self, token: str) -> dict[str, str | int]:
        """Return the payload of ``token`` without checking signature or expiry.

        Args:
            token: an encoded token.

        Returns:
            The payload dictionary (``sub``, ``iat``, ``exp``, ``jti`` and extra claims).

        Raises:
            ValueError: if the token is not three dot-separated parts with a
                JSON object payload.

        >>> issuer = SignedTokenIssuer("s")
        >>> issuer.decode(issuer.issue("ada", now=5, ttl=10))["exp"]
        15
        """
        parts = token.split(".")
        if len(parts) != 3:
            raise ValueError("token must have three parts")
        body = parts[1]
        try:
            payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ValueError("token payload is not valid JSON") from exc
        if not isinstance(payload, dict):
            raise ValueError("token payload must be an object")
        return payload

    def verify(self, token: str, now: int) -> dict[str, str | int]:
        """Check signature, key, revocation and expiry, then return the payload.

        Args:
            token: the encoded token.
            now: the current time in seconds.

        Returns:
            The payload dictionary.

        Raises:
            ValueError: if the token is malformed, signed with an unknown key
                (message "unknown key id '<kid>'") or its signature does not
                match (message "bad signature").
            PermissionError: if the token was revoked (message "token revoked"),
                has expired, ``now >= exp`` (message "token expired"), or is used
                before its issue time (message "token not yet valid").

        >>> issuer = SignedTokenIssuer("s")
        >>> issuer.verify(issuer.issue("ada", now=0, claims={"role": "admin"}), now=1)["role"]
        'admin'
        """
        payload = self.decode(token)
        kid, body, signature = token.split(".")
        if kid not in self._keys:
            raise ValueError(f"unknown key id {kid!r}")
        if not hmac.compare_digest(signature, self._sign(kid, body)):
            raise ValueError("bad signature")
        if payload["jti"] in self._revoked:
            raise PermissionError("token revoked")
        if now < payload["iat"]:
            raise PermissionError("token not yet valid")
        if now >= payload["exp"]:
            raise PermissionError("token expired")
        return payload

    def is_valid(self, token: str, now: int) -> bool:
        """Return True if ``verify`` would accept the token, False otherwise.

        Args:
            token: an encoded token.
            now: the current time in seconds.

        Returns:
            True if the token verifies at ``now``, False otherwise.

        >>> SignedTokenIssuer("s").is_valid("garbage", now=0)
        False
        """
        try:
            self.verify(token, now)
        except (ValueError, PermissionError):
            return False
        return True

    def revoke(self, token: str) -> str:
        """Revoke a token so that it no longer verifies.

        Revoking a token that is revoked already changes nothing and returns its id again.

        Args:
            token: an encoded token (its signature is not checked).

        Returns:
            The revoked token id.

        Raises:
            ValueError: if the token cannot be decoded.

        >>> issuer = SignedTokenIssuer("s")
        >>> issuer.revoke(issuer.issue("ada", now=0))
        't1'
        """
        jti = str(self.decode(token)["jti"])
        self._revoked.add(jti)
        return jti

    def refresh(self, token: str, now: int, ttl: int | None = None) -> str:
        """Exchange a valid token for a new one and revoke the old one.

        The new token keeps the subject and the extra claims, is issued at
        ``now`` with the active key and gets a fresh id.

        Args:
            token: the token to exchange.
            now: the current time in seconds.
            ttl: lifetime of the new token; ``default_ttl`` when omitted.

        Returns:
            The new encoded token.

        Raises:
            ValueError, PermissionError: as ``verify`` for the old token.

        >>> issuer = SignedTokenIssuer("s", default_ttl=10)
        >>> new = issuer.refresh(issuer.issue("ada", now=0), now=5)
        >>> issuer.decode(new)["exp"], issuer.decode(new)["jti"]
        (15, 't2')
        """
        payload = self.verify(token, now)
        claims = {k: str(v) for k, v in payload.items() if k not in {"sub", "iat", "exp", "jti"}}
        self.revoke(token)
        return self.issue(str(payload["sub"]), now, claims, ttl)

    def rotate_key(self, key: str, key_id: str) -> list[str]:
        """Add a new signing key and make it active; old keys still verify.

        Args:
            key: the new shared secret.
            key_id: its identifier, written into new tokens.

        Returns:
            All key ids in the ring, sorted.

        Raises:
            ValueError: if ``key_id`` is already in use.

        >>> SignedTokenIssuer("s", key_id="k1").rotate_key("t", "k2")
        ['k1', 'k2']
        """
        if key_id in self._keys:
            raise ValueError(f"key id {key_id!r} already exists")
        self._keys[key_id] = key.encode()
        self._active_kid = key_id
        return sorted(self._keys)

    def retire_key(self, key_id: str) -> list[str]:
        """Remove an old key; tokens signed with it stop verifying.

        Args:
            key_id: the identifier of the key to remove.

        Returns:
            The remaining key ids, sorted.

        Raises:
            KeyError: if ``key_id`` is unknown.
            ValueError: if ``key_id`` is the active key.

        >>> issuer = SignedTokenIssuer("s", key_id="k1")
        >>> _ = issuer.rotate_key("t", "k2")
        >>> issuer.retire_key("k1")
        ['k2']
        """
        if key_id not in self._keys:
            raise KeyError(key_id)
        if key_id == self._active_kid:
            raise ValueError("cannot retire the active key")
        del self._keys[key_id]
        return sorted(self._keys)
