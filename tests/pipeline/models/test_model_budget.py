"""The run budget: exact call counting across threads, per-run spending carried into a resumed run."""

from __future__ import annotations

import threading

import pytest

from models.budget import Budget, BudgetExhausted


def test_call_limit_is_exact_across_threads() -> None:
    budget = Budget(max_calls=100)
    granted: list[int] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(50):
            try:
                budget.reserve()
            except BudgetExhausted:
                continue
            with lock:
                granted.append(1)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(granted) == 100 and budget.calls == 100 and budget.refused == 300


def test_dollar_limit_and_unknown_prices() -> None:
    budget = Budget(max_cost_usd=1.0)
    budget.reserve()
    budget.charge(None)
    assert budget.unpriced_calls == 1 and budget.cost_usd == 0.0
    budget.reserve()
    budget.charge(1.5)
    with pytest.raises(BudgetExhausted, match=r"\$1.5000 of max_cost_usd=1.0"):
        budget.reserve("an enhancer call")


def test_resumed_run_starts_from_what_it_spent() -> None:
    with pytest.raises(BudgetExhausted):
        Budget(max_calls=3, spent_calls=3).reserve()
    Budget(max_calls=4, spent_calls=3).reserve()


def test_negative_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        Budget(max_calls=-1)
