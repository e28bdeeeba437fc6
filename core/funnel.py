"""Counting what each stage received, kept and rejected, per reason: the build's funnel."""

from __future__ import annotations

from pydantic import Field

from core.records import Record, RejectReason


class StageCount(Record):
    """What one stage saw."""

    received: int = Field(default=0, description="Records that entered the stage.")
    accepted: int = Field(default=0, description="Records the stage passed on.")
    rejected: dict[RejectReason, int] = Field(default_factory=dict, description="Rejections per reason.")
    skipped: dict[str, int] = Field(default_factory=dict, description=(
        "Inputs the stage did not take up, per reason: for compose, the allowed pairs of seeds with no "
        "meaningful link (`no_link`) and the linkable pairs beyond its quota (`quota`)."))


class StopNote(Record):
    """Where a build that was stopped (a signal, a lost Prefect server) had got to."""

    cause: str = Field(description="Why it stopped, e.g. 'stopped by SIGINT'.")
    stage: str | None = Field(default=None, description="The stage that was running (None: between stages).")
    done: int | None = Field(default=None, description="Records of that stage finished (kept for the resume).")
    total: int | None = Field(default=None, description="Records that stage had to do.")


class Funnel(Record):
    """Stage name -> counts, in the order the stages ran."""

    run_id: str = Field(description="The run these counts belong to.")
    stages: dict[str, StageCount] = Field(default_factory=dict, description="Counts per stage, in run order.")
    stopped: StopNote | None = Field(default=None, description="Set when the build stopped before its end.")

    def with_stage(self, name: str, count: StageCount) -> Funnel:
        """A new funnel with `name` set (records are frozen)."""
        return self.model_copy(update={"stages": {**self.stages, name: count}})
