"""Which model-call failures are worth retrying, and how long to wait before the next attempt.

litellm maps every provider's errors onto OpenAI's exception classes with a `status_code` (429 rate limit,
408 timeout, 5xx server errors, 500 for a connection that could not be made), and keeps the server's
response (with its `Retry-After` header) on `exc.response` or `exc.litellm_response_headers`. Retries are
ours (litellm is called with `num_retries=0`) so that they honour `Retry-After`, count against nothing but
time, and are visible in one place. Pure functions: tested without a server.
"""

from __future__ import annotations

import email.utils
import random
import time
from typing import Any

RETRYABLE_STATUS = frozenset({408, 409, 425, 429})
MAX_RETRY_AFTER_S = 120.0  # a server asking for longer than this is treated as down, not waited for
MAX_BACKOFF_S = 30.0


def status_of(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def is_retryable(exc: BaseException) -> bool:
    """Rate limits, timeouts, server errors and connection failures are transient; a bad request, a wrong
    key or an unknown model is not, and retrying it would only spend time."""
    name = type(exc).__name__
    if name in {"Timeout", "APITimeoutError", "APIConnectionError", "ServiceUnavailableError",
                "InternalServerError", "BadGatewayError", "RateLimitError"}:
        return True
    status = status_of(exc)
    return status is not None and (status in RETRYABLE_STATUS or status >= 500)


def _headers_of(exc: BaseException) -> Any:
    for candidate in (getattr(exc, "litellm_response_headers", None), getattr(exc, "headers", None)):
        if candidate:
            return candidate
    response = getattr(exc, "response", None)
    return getattr(response, "headers", None)


def retry_after_s(exc: BaseException, now: float | None = None) -> float | None:
    """The server's `Retry-After` (seconds or an HTTP date), or `retry-after-ms`, capped; None when absent
    or unreadable."""
    headers = _headers_of(exc)
    if not headers:
        return None
    try:
        millis = headers.get("retry-after-ms")
        value = headers.get("retry-after")
    except AttributeError:
        return None
    try:
        if millis is not None:
            return min(max(float(millis) / 1000.0, 0.0), MAX_RETRY_AFTER_S)
    except ValueError:
        pass
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            parsed = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = parsed.timestamp() - (time.time() if now is None else now)
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)


def backoff_s(attempt: int, base_s: float, rng: random.Random | None = None) -> float:
    """Exponential backoff with up to 25% jitter (so that parallel workers do not retry in lockstep)."""
    jitter = (rng or random).uniform(0.0, 0.25)
    return min(base_s * (2 ** attempt) * (1.0 + jitter), MAX_BACKOFF_S)


def delay_before_retry(exc: BaseException, attempt: int, base_s: float) -> float:
    """`Retry-After` when the server gave one, else exponential backoff."""
    told = retry_after_s(exc)
    return told if told is not None else backoff_s(attempt, base_s)
