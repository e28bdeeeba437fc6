"""Counts of a mining run: repositories, classes seen, kept, and rejections per reason."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from core.records import RejectReason


@dataclass
class Tally:
    """Filled in by the sources as they go, so an interrupted run still says how far it got."""

    repositories: list[str] = field(default_factory=list)
    classes_seen: int = 0
    kept: int = 0
    rejected: Counter[RejectReason] = field(default_factory=Counter)

    def repository(self, name: str) -> None:
        self.repositories.append(name)

    def class_seen(self) -> None:
        self.classes_seen += 1

    def summary(self) -> dict[str, object]:
        return {"repositories": len(self.repositories), "classes_seen": self.classes_seen, "kept": self.kept,
                "rejected": {reason.value: n for reason, n in sorted(self.rejected.items())}}
