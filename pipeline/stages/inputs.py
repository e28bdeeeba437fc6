"""The stages of the `validate`, `judge` and `release faithful` commands: the gate, the judge panel and the
gate's faithful-variant check on the inputs a command was given, run by the one driver (pipeline/stages/driver.py) like the build's stages, on the command's threads.

Each does the work for one item the way the build's stage does (`pipeline.stages.gate.gate_one`, `pipeline.stages.judge.review_one`,
the gate's own `check_faithful`):
the same records, the same retries of a passing failure. Neither reads nor writes a run (`InputStage`):
an item's record is its note, and the stage returns them in input order for the command's table and JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from core.layout import Stage
from core.records import Candidate, GateReport, Task
from judges.cache import VerdictCache
from judges.config import JudgesConfig
from judges.panel import LayeredPanel, PanelDecision
from pipeline.release.faithful_check import task_candidate
from pipeline.stages.driver import InputStage, RunContext
from pipeline.stages.gate import gate_one
from pipeline.stages.judge import layered_panel, model_client, review_one
from validation.gate import check_faithful
from validation.policy import GatePolicy


class GateOnInputs(InputStage):
    """The validation gate on given candidates, under `policy` (the command's, not a build configuration's)."""

    stage = Stage.VALIDATE

    def __init__(self, candidates: Sequence[Candidate], policy: GatePolicy) -> None:
        super().__init__(candidates)
        self.policy = policy

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> GateReport:
        return gate_one(self.input(item), self.policy, kit, last_attempt)


class FaithfulOnInputs(InputStage):
    """The gate's faithful-variant check alone on released tasks, under `policy`: the figures a release
    records already are not measured again (`validation.gate.check_faithful`)."""

    stage = Stage.VALIDATE

    def __init__(self, tasks: Sequence[Task], policy: GatePolicy) -> None:
        super().__init__(tasks)
        self.policy = policy

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> GateReport:
        return check_faithful(task_candidate(self.input(item)), self.policy, kit)


class PanelOnInputs(InputStage):
    """The judge panel on given candidates (with their gate reports where the input has them): one panel for
    the stage, with its model client, the verdict cache of the command's artifact tree and the executor's
    sandbox pool for the checks; `on_open` is shown the panel before the first candidate (the command
    prints its warnings)."""

    stage = Stage.JUDGE

    def __init__(self, pairs: Sequence[tuple[Candidate, GateReport | None]], config: JudgesConfig,
                 on_open: Callable[[LayeredPanel], None] | None = None) -> None:
        super().__init__(pairs)
        self.config, self.on_open = config, on_open

    def needs_pool(self, ctx: RunContext) -> bool:
        return self.config.offline  # the checks' specification judge runs code; model judges do not

    @contextmanager
    def open(self, ctx: RunContext, pool: Any) -> Iterator[LayeredPanel]:
        client = model_client(ctx.settings.model_cache) if self.config.models else None
        panel = layered_panel(self.config, pool=pool if self.config.offline else None, client=client,
                              cache=VerdictCache(ctx.settings.verdict_cache))
        if self.on_open is not None:
            self.on_open(panel)
        yield panel

    def run_one(self, ctx: RunContext, item: str, kit: LayeredPanel, *, last_attempt: bool) -> PanelDecision:
        return review_one(kit, *self.input(item), last_attempt=last_attempt)
