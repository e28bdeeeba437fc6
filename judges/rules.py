"""A panel's decision rule: how several verdicts become one decision.

Kept apart from the judges and the panel that runs them (the judges only judge; the rule only combines),
so a rule is a small pure function tested on lists of decisions.

- `majority`: accept when more than half of the panel accepts (two of three). An abstention counts as not
  accepting, so with one of three abstaining both others must accept.
- `unanimous`: accept when no judge that decided rejects.
- `quorum:K`: accept when at least K judges accept.

Under every rule a candidate with fewer than two deciding (non-abstaining) judges is held, never accepted
on one judge's word or on none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum

from pydantic import BaseModel, ConfigDict

from core.errors import InputError
from core.records import Decision

MIN_DECIDING = 2  # fewer deciding judges than this: the candidate is held (judge_abstained)


class Outcome(str, Enum):
    """What the panel decided about a candidate."""

    ACCEPT = "accept"
    REJECT = "reject"
    HELD = "held"  # too few judges decided: not released, kept as judge_abstained


class DecisionRule(BaseModel):
    """A parsed rule (`majority`, `unanimous` or `quorum:K`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    k: int | None = None

    @classmethod
    def parse(cls, text: str) -> DecisionRule:
        """The rule named by `text`; `InputError` for anything else."""
        value = text.strip().lower()
        if value in ("majority", "unanimous"):
            return cls(kind=value)
        match = re.fullmatch(r"quorum:(\d+)", value)
        if match and int(match.group(1)) >= 1:
            return cls(kind="quorum", k=int(match.group(1)))
        raise InputError(f"judge rule {text!r}: expected 'majority', 'unanimous' or 'quorum:K' with K >= 1")

    @property
    def label(self) -> str:
        return f"quorum:{self.k}" if self.kind == "quorum" else self.kind

    def check_panel_size(self, size: int) -> None:
        """A rule that no panel of this size can satisfy is a configuration error, not a reject-everything."""
        if size < MIN_DECIDING:
            raise InputError(f"a judge panel needs at least {MIN_DECIDING} judges, got {size}")
        if self.kind == "quorum" and self.k is not None and self.k > size:
            raise InputError(f"judge rule {self.label}: the panel has only {size} judges")

    def decide(self, decisions: Sequence[Decision]) -> Outcome:
        """The panel's outcome for one candidate's decisions (one per judge, abstentions included)."""
        accepts = sum(d is Decision.ACCEPT for d in decisions)
        rejects = sum(d is Decision.REJECT for d in decisions)
        if accepts + rejects < MIN_DECIDING:
            return Outcome.HELD
        if self.kind == "majority":
            ok = accepts * 2 > len(decisions)
        elif self.kind == "unanimous":
            ok = rejects == 0
        else:
            ok = accepts >= (self.k or 0)
        return Outcome.ACCEPT if ok else Outcome.REJECT
