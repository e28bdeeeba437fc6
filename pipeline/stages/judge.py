"""The judge stage: the configured panels on the gate's survivors, and the tasks of what they accepted.

Order matters: the gate is cheap and deterministic, model judges are neither, so only candidates that
passed the gate reach a judge, and within the stage the deterministic checks run before the model panel
(judges/panel.py `LayeredPanel`). Each candidate's `PanelDecision` is written under `runs/<run>/judge/` as
it is made (a rerun reads it back instead of judging again); a rejected or held candidate also gets its
`Rejection` under `rejections/`; the funnel counts each layer as a step of its own ("judge checks",
"judge models"); the agreement figures of the run go to `judge_agreement.json` (judges/decisions.py). The
`judge` command's stage is `PanelOnInputs` (pipeline/stages/inputs.py); both do the work for one candidate
with `review_one`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.layout import Folder, Stage
from core.records import Candidate, GateReport, Layer, Task, Verdict
from core.store import ArtifactStore
from judges.cache import VerdictCache
from judges.config import JudgesConfig
from judges.decisions import read_decisions, record_decision, tally_decisions
from judges.model_judge import CALL_FAILED, ModelJudge
from judges.offline import offline_judges
from judges.panel import LayeredPanel, Panel, PanelDecision, funnel_step
from judges.rules import Outcome
from models.client import ModelClient
from models.run_state import RunLedger
from models.usage import UsageSummary
from pipeline.release.card import interpreter_label
from pipeline.release.task_builder import build_task
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import Counts, RecordStage, RunContext, TransientFailure
from pipeline.stages.reuse import ReusedResults
from pipeline.stages.run_records import accepted, generated_candidates, survivor
from validation.suite_runner import SandboxSuiteRunner


def offline_panel(config: JudgesConfig, pool: Any = None, limits: Any = None,
                  cache: VerdictCache | None = None) -> Panel:
    """The deterministic checks: every judge of the checks registry (judges/offline/__init__.py), in its
    order (specification, consistency, adequacy, then any added)."""
    runner = SandboxSuiteRunner(pool, limits) if pool is not None else None  # the checks run code only here
    return Panel(offline_judges(config, runner), config.checks_rule(), cache, layer=Layer.CHECKS)


def model_panel(config: JudgesConfig, client: Any, cache: VerdictCache | None = None) -> Panel:
    """One model judge per configured model, through the shared model client."""
    judges = [ModelJudge(client, model, prompt=config.prompt, temperature=config.temperature,
                         max_tokens=config.max_tokens, api_base=config.api_base) for model in config.models]
    return Panel(judges, config.decision_rule(), cache, layer=Layer.MODELS)


def layered_panel(config: JudgesConfig, *, pool: Any = None, limits: Any = None, client: Any = None,
                  cache: VerdictCache | None = None) -> LayeredPanel:
    """The configured layers: the checks (unless `offline = false`), then the model panel (when models are
    set). `pool` serves the checks' specification judge, `client` the model judges."""
    return LayeredPanel(offline_panel(config, pool, limits, cache) if config.offline else None,
                        model_panel(config, client, cache) if config.models else None)


def model_client(cache: Path) -> Any:
    """The shared model client, caching answers in `cache` (the artifact tree's `cache/models`)."""
    return ModelClient(cache)


def review_one(panel: LayeredPanel, candidate: Candidate, report: GateReport | None, *,
               last_attempt: bool) -> PanelDecision:
    """The work for one candidate of every judge stage (the build's and the `judge` command's): the panel's
    decision. A judge whose model call failed after the client's own retries abstains; while attempts
    remain that is a passing failure (nothing kept), so that a brief outage does not become a held task."""
    decision = panel.review(candidate, report)
    failed = [f.note for v in decision.verdicts for f in v.findings if f.note.startswith(CALL_FAILED)]
    if failed and not last_attempt:
        raise TransientFailure(f"judge {decision.candidate_id}: {failed[0]}")
    return decision


class JudgeStage(ReusedResults, RecordStage):
    """The judge panel on the gate's survivors (judges/): the deterministic checks, then the model panel
    (when models are set) on what the checks accepted; one funnel step per layer. Items are named by the
    generated candidate's id, so that each resolves without reading the others; each item's panel has a
    model client of its own, so that what its calls spent comes back with it."""

    stage = Stage.JUDGE
    reads = (Stage.VALIDATE, Stage.REPAIR)
    result_writes = (Stage.JUDGE, Folder.REJECTIONS)
    result_code = ("core", "validation", "judges", "pipeline")

    def result_inputs(self, ctx: RunContext, item: str) -> list | None:
        """The survivor, its report and the panel's settings, when the panel is the deterministic checks
        alone: a model judge's answers and verdicts are kept by their own caches, and a failed call's
        abstention must be asked again."""
        judges = ctx.config.judges
        if self.panel is not None or judges.models:
            return None
        candidate, report = survivor(ctx.store, ctx.run_id, item)
        return [candidate.model_dump(mode="json"), report.model_dump(mode="json"), judges.model_dump(mode="json"),
                ctx.config.gate.model_dump(mode="json")]

    def __init__(self, panel: Any = None) -> None:
        self.panel = panel  # replaces the configured panel (tests)

    def needs_pool(self, ctx: RunContext) -> bool:
        return ctx.config.judges.offline  # the checks' specification judge runs code; model judges do not

    def steps(self, ctx: RunContext) -> tuple[str, ...]:
        return tuple(map(funnel_step, ctx.config.judges.layers))

    def items(self, ctx: RunContext) -> list[str]:
        return [c.candidate_id for c in generated_candidates(ctx.store, ctx.run_id)
                if survivor(ctx.store, ctx.run_id, c.candidate_id)[1].passed]

    def _decided_id(self, ctx: RunContext, item: str) -> str | None:
        """The id the panel's decision on this item is stored under, once it is written."""
        decided = survivor(ctx.store, ctx.run_id, item)[0].candidate_id
        return decided if ctx.store.has(ctx.run_id, Stage.JUDGE, decided) else None

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return self._decided_id(ctx, item) is not None

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> Any:
        """The panel's decision on one survivor (`review_one`: a failed model call is a passing failure
        while attempts remain), written with its rejection; returns what its model calls spent (None without
        models)."""
        judges = ctx.config.judges
        client = model_client(ctx.settings.model_cache) if judges.models and self.panel is None else None
        panel = self.panel or layered_panel(judges, pool=kit if judges.offline else None, client=client,
                                            limits=ctx.config.gate.limits(), cache=VerdictCache(ctx.settings.verdict_cache))
        decision = review_one(panel, *survivor(ctx.store, ctx.run_id, item), last_attempt=last_attempt)
        record_decision(ctx.store, ctx.run_id, decision)
        return client.usage() if client is not None else None

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        """Counted per layer, and the agreement figures written, from the decisions in the store; the model
        calls of this attempt join the run's model_usage.json."""
        decisions = [ctx.store.read(ctx.run_id, Stage.JUDGE, self._decided_id(ctx, item), PanelDecision)
                     for item in items]
        counts, _ = tally_decisions(ctx.store, ctx.run_id, decisions, ctx.config.judges.layers)
        spent = UsageSummary()
        for usage in notes.values():
            if usage is not None:
                spent = spent.plus(usage)
        if spent.rows:
            RunLedger(ctx.store, ctx.run_id, ctx.config.models).save_usage(spent)
        return counts


def released_items(store: ArtifactStore, run_id: str, config: BuildConfig) -> list[str]:
    """The generated candidates whose survivor the release takes, in the gate's order: it passed the gate
    and, when the judge stage is on, the judges accepted it (every survivor when it is off)."""
    if not config.judges.enabled:
        return [item for item, _, _ in accepted(store, run_id)]
    decisions = read_decisions(store, run_id)
    return [item for item, candidate, _ in accepted(store, run_id)
            if (decision := decisions.get(candidate.candidate_id)) is not None and decision.outcome is Outcome.ACCEPT]


def judged_task(store: ArtifactStore, run_id: str, config: BuildConfig, item: str) -> Task:
    """The task of one released item (`released_items`), with every judge's verdict on it when the judge
    stage ran."""
    return build_task(*task_inputs(store, run_id, config, item))


def task_inputs(store: ArtifactStore, run_id: str, config: BuildConfig,
                item: str) -> tuple[Candidate, GateReport, tuple[Verdict, ...]]:
    """What one released item's task is built from: its survivor, the survivor's report and the judges'
    verdicts on it (none when the judge stage is off)."""
    candidate, report = survivor(store, run_id, item)
    verdicts = store.read(run_id, Stage.JUDGE, candidate.candidate_id, PanelDecision).verdicts \
        if config.judges.enabled else ()
    return candidate, report, tuple(verdicts)


def release_interpreters(store: ArtifactStore, run_id: str, items: Sequence[str]) -> list[str]:
    """The Pythons the gate ran the released items' tests on (the card names them), sorted."""
    reports = (survivor(store, run_id, item)[1] for item in items)
    return sorted({interpreter_label(report.interpreter) for report in reports if report.interpreter})
