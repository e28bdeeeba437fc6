"""The per-run spending limit shared by every model call of a run."""

from __future__ import annotations

import threading

from core.model_calls import ModelError


class BudgetExhausted(ModelError):
    """The run's budget allows no new model call. Work already done is kept; raising the budget resumes."""


class Budget:
    """A thread-safe limit on calls and dollars, checked before each model call that reaches the network.

    Why before rather than after: a call's cost is only known once it is answered, so the budget refuses a
    new call once the calls made (or the dollars spent) reach the limit. Calls already in flight when the
    limit is reached still finish, so the dollar figure can overshoot by at most the cost of
    `max_concurrency` calls; the call count cannot overshoot. A cached answer never reaches the budget.
    A call whose price is unknown counts as a call but adds nothing to the dollars (`unpriced_calls` says
    how many such calls there were, so a dollar limit is never mistaken for a complete one).

    `spent_calls` / `spent_cost_usd` start the budget with what earlier attempts of the same run spent, so
    that a per-run budget stays per run when the run is resumed.
    """

    def __init__(self, max_cost_usd: float | None = None, max_calls: int | None = None, *,
                 spent_calls: int = 0, spent_cost_usd: float = 0.0) -> None:
        if max_cost_usd is not None and max_cost_usd < 0:
            raise ValueError(f"max_cost_usd must be >= 0, got {max_cost_usd}")
        if max_calls is not None and max_calls < 0:
            raise ValueError(f"max_calls must be >= 0, got {max_calls}")
        self.max_cost_usd = max_cost_usd
        self.max_calls = max_calls
        self._calls = spent_calls
        self._cost = spent_cost_usd
        self._unpriced = 0
        self._refused = 0
        self._lock = threading.Lock()

    def _exhausted_reason(self) -> str | None:
        if self.max_calls is not None and self._calls >= self.max_calls:
            return f"{self._calls} of max_calls={self.max_calls} model calls made"
        if self.max_cost_usd is not None and self._cost >= self.max_cost_usd:
            return f"${self._cost:.4f} of max_cost_usd={self.max_cost_usd} spent"
        return None

    def reserve(self, what: str = "a model call") -> None:
        """Count one new call, or raise BudgetExhausted (naming the limit reached) without counting it."""
        with self._lock:
            reason = self._exhausted_reason()
            if reason is not None:
                self._refused += 1
                raise BudgetExhausted(f"budget exhausted ({reason}): {what} was not made")
            self._calls += 1

    def charge(self, cost_usd: float | None) -> None:
        """Add a finished call's cost; None (unknown price) adds nothing and is counted as unpriced."""
        with self._lock:
            if cost_usd is None:
                self._unpriced += 1
            else:
                self._cost += cost_usd

    @property
    def exhausted(self) -> bool:
        with self._lock:
            return self._exhausted_reason() is not None

    @property
    def calls(self) -> int:
        with self._lock:
            return self._calls

    @property
    def cost_usd(self) -> float:
        with self._lock:
            return self._cost

    @property
    def unpriced_calls(self) -> int:
        with self._lock:
            return self._unpriced

    @property
    def refused(self) -> int:
        """How many calls the budget refused: the work they would have done was not done."""
        with self._lock:
            return self._refused

    def describe(self) -> str:
        limits = [f"max_calls={self.max_calls}" if self.max_calls is not None else "",
                  f"max_cost_usd={self.max_cost_usd}" if self.max_cost_usd is not None else ""]
        limit = ", ".join(x for x in limits if x) or "no limit"
        return f"{self.calls} call(s), ${self.cost_usd:.4f} ({limit})"
