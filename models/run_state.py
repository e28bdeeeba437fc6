"""What a run's model work spent and left undone, kept in the run folder so that it survives a resume.

    runs/<run_id>/model_usage.json      UsageSummary: calls, cache hits, tokens, cost per role and model,
                                        added up over every attempt of the run (the per-run budget starts
                                        from it)
    runs/<run_id>/model_stop.json       ModelStop: the work the budget stopped, per stage, and why
    runs/<run_id>/model_work/<id>.json  ModelWork: one finished work item (a seed or a pair), so that a
                                        resumed run does not make it again
"""

from __future__ import annotations

import threading
from pathlib import Path

from pydantic import Field

from core.records import Record
from core.store import ArtifactStore
from models.budget import Budget
from models.config import ModelsConfig
from models.usage import UsageSummary

USAGE_FILE = "model_usage.json"
STOP_FILE = "model_stop.json"


class ModelWork(Record):
    """One work item of a model stage, finished: a candidate was made, or the attempt was rejected."""

    work_id: str = Field(description="The item's id (also the rejection's candidate id when it failed).")
    stage: str = Field(description="enhance or compose.")
    candidate_id: str | None = Field(default=None, description="The candidate made, if any.")
    rejected: str | None = Field(default=None, description="The rejection reason, if the attempt failed.")
    log: tuple[str, ...] = Field(default=(), description="What the feedback rounds did, in order.")


class ModelStop(Record):
    """Why model work stopped before the end, and which items were not done (a rerun with a raised budget
    does them)."""

    message: str = Field(description="The budget's message.")
    not_done: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="Stage -> work ids not done.")


def read_usage(run_dir: Path) -> UsageSummary:
    path = run_dir / USAGE_FILE
    return UsageSummary.from_json(path.read_bytes()) if path.is_file() else UsageSummary()


def read_stop(run_dir: Path) -> ModelStop | None:
    path = run_dir / STOP_FILE
    return ModelStop.from_json(path.read_bytes()) if path.is_file() else None


class RunLedger:
    """The run's spending so far, its budget, and the writes that keep both on disk (thread-safe)."""

    def __init__(self, store: ArtifactStore, run_id: str, models: ModelsConfig) -> None:
        self.store, self.run_id = store, run_id
        self.run_dir = store.runs / run_id
        self.before = read_usage(self.run_dir)
        spent = self.before.total()
        self.budget = Budget(max_cost_usd=models.budget.max_cost_usd, max_calls=models.budget.max_calls,
                             spent_calls=spent.calls + spent.failures, spent_cost_usd=spent.priced_cost_usd)
        self._lock = threading.Lock()

    def save_usage(self, current: UsageSummary) -> UsageSummary:
        """Write the run's total (earlier attempts plus this one) and return it."""
        total = self.before.plus(current)
        with self._lock:
            self.store.write_run_file(self.run_id, USAGE_FILE, total.to_json() + "\n")
        return total

    def record_stop(self, stage: str, message: str, not_done: list[str]) -> None:
        """Add (or clear, with no items) a stage's undone work in the stop file."""
        with self._lock:
            stop = read_stop(self.run_dir) or ModelStop(message=message)
            items = {**stop.not_done, stage: tuple(not_done)}
            items = {k: v for k, v in items.items() if v}
            path = self.run_dir / STOP_FILE
            if items:
                self.store.write_run_file(self.run_id, STOP_FILE,
                                          ModelStop(message=message or stop.message, not_done=items).to_json() + "\n")
            elif path.is_file():
                path.unlink()


def manifest_usage(run_dir: Path) -> dict:
    """What the run's model calls spent, for the release manifest; empty when the run used no model."""
    if not (run_dir / USAGE_FILE).is_file():
        return {}
    usage = read_usage(run_dir)
    total = usage.total()
    return {"by_role": {role: row.model_dump(mode="json") | {"cost": row.cost_label()}
                        for role, row in sorted(usage.by_role().items())},
            "rows": [row.model_dump(mode="json") for row in usage.rows],
            "total": total.model_dump(mode="json") | {"cost": total.cost_label()},
            "budget_refused": usage.budget_refused}


def model_stop_message(run_dir: Path) -> str | None:
    """Why the run cannot go on to the gate and the release yet (the budget left model work undone), or None."""
    stop = read_stop(run_dir)
    if stop is None:
        return None
    undone = sum(len(items) for items in stop.not_done.values())
    return f"no release yet: the model budget left {undone} work item(s) undone (see the model summary below)"


def summary_lines(run_dir: Path) -> list[str]:
    """The build's closing lines about models: usage per role, and what the budget stopped."""
    if not (run_dir / USAGE_FILE).is_file():
        return []
    lines = ["model usage (this run, all attempts):", *("  " + line for line in read_usage(run_dir).lines())]
    stop = read_stop(run_dir)
    if stop is not None:
        undone = sum(len(items) for items in stop.not_done.values())
        per_stage = ", ".join(f"{stage} {len(items)}" for stage, items in sorted(stop.not_done.items()))
        lines.append(f"stopped: {stop.message}")
        lines.append(f"  {undone} work item(s) not done ({per_stage}); listed in {run_dir / STOP_FILE}. "
                     "Raise [models.budget] (or --max-calls / --max-cost) and rerun to resume.")
    return lines
