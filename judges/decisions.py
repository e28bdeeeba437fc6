"""The panel's decisions as a run keeps them: one `PanelDecision` per candidate under `judge/` (with its
rejection), the funnel step each layer counts, and the run's agreement figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from core.agreement import AGREEMENT_FILE, Agreement, agreement
from core.funnel import StageCount
from core.layout import Folder
from core.records import Layer, RejectReason
from core.store import ArtifactStore
from judges.panel import STAGE, PanelDecision, funnel_step
from judges.rules import Outcome


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
