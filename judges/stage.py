"""The judge stage's parts: the configured panels, the decisions written, the counts per layer. The stage
itself (its items, under the driver) is `JudgeStage` in pipeline/stages.py, and the `judge` command's is
`PanelOnInputs` in pipeline/command_stages.py; both do the work for one candidate with
`pipeline.stages.review_one`.

Order matters: the gate is cheap and deterministic, model judges are neither, so only candidates that
passed the gate reach a judge, and within the stage the deterministic checks run before the model panel
(judges/panel.py `LayeredPanel`). Each candidate's `PanelDecision` is written under `runs/<run>/judge/` as
it is made (a rerun reads it back instead of judging again); a rejected or held candidate also gets its
`Rejection` under `rejections/`; the funnel counts each layer as a step of its own ("judge checks",
"judge models"); the agreement figures of the run go to `judge_agreement.json`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pipeline.funnel import StageCount
from pipeline.base.layout import Folder
from pipeline.base.records import RejectReason
from pipeline.base.store import ArtifactStore
from pipeline.base.agreement import Agreement, agreement
from judges.cache import VerdictCache
from judges.config import JudgesConfig
from judges.panel import STAGE, LayeredPanel, Panel, PanelDecision, funnel_step
from pipeline.base.records import Layer
from judges.rules import Outcome

AGREEMENT_FILE = "judge_agreement.json"


def offline_panel(config: JudgesConfig, pool: Any = None, limits: Any = None,
                  cache: VerdictCache | None = None) -> Panel:
    """The deterministic checks: specification, consistency and adequacy judges."""
    from judges.offline.adequacy import AdequacyJudge
    from judges.offline.consistency import ConsistencyJudge
    from judges.offline.specification import SpecificationJudge
    from validation.suite_runner import SandboxSuiteRunner

    runner = SandboxSuiteRunner(pool, limits) if pool is not None else None  # the checks run code only here
    judges = [SpecificationJudge(runner), ConsistencyJudge(),
              AdequacyJudge(config.min_mutation_score, config.max_vacuous_share)]
    return Panel(judges, config.checks_rule(), cache, layer=Layer.CHECKS)


def model_panel(config: JudgesConfig, client: Any, cache: VerdictCache | None = None) -> Panel:
    """One model judge per configured model, through the shared model client."""
    from judges.model_judge import ModelJudge

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
    from pipeline.models.client import ModelClient

    return ModelClient(cache)


def read_decisions(store: ArtifactStore, run_id: str) -> dict[str, PanelDecision]:
    """Candidate id -> the panel decision written for it in this run."""
    return {d.candidate_id: d for _, d in store.iter_records(run_id, STAGE, PanelDecision)}


def record_decision(store: ArtifactStore, run_id: str, decision: PanelDecision) -> None:
    """Write a candidate's decision (and its rejection, when the panel did not accept it)."""
    store.write(run_id, STAGE, decision.candidate_id, decision)
    rejection = decision.rejection()
    if rejection is not None:
        store.write(run_id, Folder.REJECTIONS, decision.candidate_id, rejection)


def layer_counts(decisions: Sequence[PanelDecision], layers: Sequence[Layer] = ()) -> dict[str, StageCount]:
    """One funnel step per layer, checks first: the candidates it was asked about, accepted, and rejected
    or held. `layers` are the configured ones; without them, those found in the decisions."""
    per_decision = [{part.layer: part.outcome for part in d.layers} for d in decisions]
    found = layers or sorted({layer for outcomes in per_decision for layer in outcomes}, key=list(Layer).index)
    steps = {}
    for layer in found:
        outcomes = Counter(o[layer] for o in per_decision if o.get(layer) is not None)
        rejected = {reason: n for reason, n in ((RejectReason.JUDGE_REJECTED, outcomes[Outcome.REJECT]),
                                                (RejectReason.JUDGE_ABSTAINED, outcomes[Outcome.HELD])) if n}
        steps[funnel_step(layer)] = StageCount(received=sum(outcomes.values()), accepted=outcomes[Outcome.ACCEPT],
                                               rejected=rejected)
    return steps


def tally_decisions(store: ArtifactStore, run_id: str, decisions: Sequence[PanelDecision],
                    layers: Sequence[Layer] = ()) -> tuple[dict[str, StageCount], Agreement]:
    """The stage's counts per layer and the run's agreement figures (written to judge_agreement.json)."""
    figures = agreement([d.verdicts for d in decisions])
    store.write_run_file(run_id, AGREEMENT_FILE, figures.to_json() + "\n")
    return layer_counts(decisions, layers), figures


def read_agreement(store: ArtifactStore, run_id: str) -> Agreement | None:
    path = Path(store.runs) / run_id / AGREEMENT_FILE
    return Agreement.from_json(path.read_bytes()) if path.is_file() else None
