"""Tokens, cost and calls per role and model: what a run spent, for the build summary and the manifest."""

from __future__ import annotations

import threading
from collections.abc import Iterable

from pydantic import Field

from core.records import Record

UNKNOWN_PRICE = "unknown price"


class UsageRow(Record):
    """What one role spent with one model in a run."""

    role: str = Field(description="The role the calls were made for (enhancer, test_writer, judge, ...).")
    model: str = Field(description="The litellm model name.")
    calls: int = Field(default=0, description="Answered calls that reached the model (cache hits excluded).")
    cache_hits: int = Field(default=0, description="Answers served from the response cache (free).")
    failures: int = Field(default=0, description="Calls that failed after every retry.")
    prompt_tokens: int = Field(default=0, description="Prompt tokens of the answered calls, as the server reported.")
    completion_tokens: int = Field(default=0, description="Completion tokens of the answered calls.")
    priced_cost_usd: float = Field(default=0.0, description="Dollars of the answered calls whose price is known.")
    unpriced_calls: int = Field(default=0, description="Answered calls whose price litellm does not know.")

    @property
    def cost_usd(self) -> float | None:
        """The dollars spent, or None ("unknown price") when any answered call had no known price."""
        return None if self.unpriced_calls else self.priced_cost_usd

    def cost_label(self) -> str:
        if not self.unpriced_calls:
            return f"${self.priced_cost_usd:.4f}"
        if self.unpriced_calls == self.calls:
            return UNKNOWN_PRICE
        return f"${self.priced_cost_usd:.4f} + {UNKNOWN_PRICE} ({self.unpriced_calls} call(s))"

    def plus(self, other: UsageRow) -> UsageRow:
        return UsageRow(role=self.role, model=self.model, calls=self.calls + other.calls,
                        cache_hits=self.cache_hits + other.cache_hits, failures=self.failures + other.failures,
                        prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                        completion_tokens=self.completion_tokens + other.completion_tokens,
                        priced_cost_usd=self.priced_cost_usd + other.priced_cost_usd,
                        unpriced_calls=self.unpriced_calls + other.unpriced_calls)


class UsageSummary(Record):
    """Per role and model usage of a run (or of one client), with totals."""

    rows: tuple[UsageRow, ...] = Field(default=(), description="One row per (role, model), sorted.")
    budget_refused: int = Field(default=0, description="Calls the budget refused: work that was not done.")

    def total(self) -> UsageRow:
        total = UsageRow(role="all", model="all")
        for row in self.rows:
            total = total.plus(row)
        return total

    def by_role(self) -> dict[str, UsageRow]:
        merged: dict[str, UsageRow] = {}
        for row in self.rows:
            base = merged.get(row.role, UsageRow(role=row.role, model="all"))
            merged[row.role] = base.plus(row)
        return merged

    def plus(self, other: UsageSummary) -> UsageSummary:
        return merge_rows((*self.rows, *other.rows), self.budget_refused + other.budget_refused)

    def lines(self) -> list[str]:
        """Human-readable lines: one per role, then the total."""
        out = []
        for role, row in sorted(self.by_role().items()):
            out.append(f"{role:<17} calls {row.calls:>4}  cache hits {row.cache_hits:>4}  failures {row.failures:>3}  "
                       f"tokens {row.prompt_tokens:>7}+{row.completion_tokens:<7}  cost {row.cost_label()}")
        total = self.total()
        out.append(f"{'total':<17} calls {total.calls:>4}  cache hits {total.cache_hits:>4}  "
                   f"failures {total.failures:>3}  tokens {total.prompt_tokens:>7}+{total.completion_tokens:<7}  "
                   f"cost {total.cost_label()}")
        if self.budget_refused:
            out.append(f"budget refused {self.budget_refused} call(s): that work was not done")
        return out


def merge_rows(rows: Iterable[UsageRow], budget_refused: int = 0) -> UsageSummary:
    merged: dict[tuple[str, str], UsageRow] = {}
    for row in rows:
        key = (row.role, row.model)
        merged[key] = merged[key].plus(row) if key in merged else row
    return UsageSummary(rows=tuple(merged[k] for k in sorted(merged)), budget_refused=budget_refused)


class UsageLedger:
    """Thread-safe running totals, one row per (role, model)."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], UsageRow] = {}
        self._lock = threading.Lock()

    def add(self, role: str, model: str, **counts: int | float) -> None:
        with self._lock:
            key = (role, model)
            base = self._rows.get(key, UsageRow(role=role, model=model))
            self._rows[key] = base.plus(UsageRow(role=role, model=model, **counts))

    def summary(self, budget_refused: int = 0) -> UsageSummary:
        with self._lock:
            return merge_rows(self._rows.values(), budget_refused)
