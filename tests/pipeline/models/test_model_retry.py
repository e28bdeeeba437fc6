"""Retry classification and Retry-After parsing, without a server."""

from __future__ import annotations

import email.utils
import random

import httpx
import pytest

from models.retry import MAX_RETRY_AFTER_S, backoff_s, is_retryable, retry_after_s


class Failure(Exception):
    def __init__(self, status: int | None, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"status {status}")
        self.status_code = status
        if headers is not None:
            self.response = httpx.Response(status or 500, headers=headers)


@pytest.mark.parametrize(("status", "retryable"), [(429, True), (408, True), (500, True), (503, True),
                                                    (400, False), (401, False), (404, False), (None, False)])
def test_retryable_statuses(status: int | None, retryable: bool) -> None:
    assert is_retryable(Failure(status)) is retryable


@pytest.mark.parametrize(("headers", "expected"), [
    ({"Retry-After": "3"}, 3.0),
    ({"Retry-After": "0.5"}, 0.5),
    ({"retry-after-ms": "250"}, 0.25),
    ({"Retry-After": "100000"}, MAX_RETRY_AFTER_S),
    ({"Retry-After": "soon"}, None),
    ({}, None),
])
def test_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after_s(Failure(429, headers)) == expected


def test_retry_after_as_http_date() -> None:
    date = email.utils.formatdate(1_000_010.0, usegmt=True)
    assert retry_after_s(Failure(429, {"Retry-After": date}), now=1_000_000.0) == pytest.approx(10.0)


def test_backoff_grows_and_is_capped() -> None:
    rng = random.Random(1)
    delays = [backoff_s(attempt, 1.0, rng) for attempt in range(8)]
    assert delays[0] >= 1.0 and delays[1] >= 2.0 and delays[2] >= 4.0
    assert max(delays) <= 30.0
