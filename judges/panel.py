"""A panel: several judges, every verdict kept, one decision by a swappable rule; and the two layers.

The panel runs each judge on a candidate (from the verdict cache when it can), keeps every individual
verdict, and hands the decisions to its `DecisionRule`. A rejection names which judges rejected and on
which criteria, so a maintainer can see why a task was dropped without rereading raw answers.

`LayeredPanel` puts two panels in a row: the deterministic checks (offline judges, rule `unanimous`) first,
then the model panel on the candidates the checks accepted, with the checks' verdicts in each model's
prompt. The checks are cheap and catch what a model can miss or be talked out of (a docstring example the
reference contradicts); a candidate they do not accept never costs a model call. One `PanelDecision`
records both layers: every verdict, and per layer its rule and outcome.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence

from pydantic import Field

from core.errors import InputError
from core.layout import Stage
from core.records import Candidate, Decision, GateReport, Layer, Record, Rejection, RejectReason, Verdict, layer_of
from core.suite_runs import RunnerUnavailable
from judges.cache import VerdictCache
from judges.config import CHECKS_OFF_WARNING
from judges.protocol import Judge, abstention
from judges.rules import DecisionRule, Outcome

log = logging.getLogger(__name__)
STAGE = Stage.JUDGE


def funnel_step(layer: Layer) -> str:
    """The funnel's name for one layer of the judge stage."""
    return f"{STAGE} {layer.value}"


class LayerDecision(Record):
    """One layer's part of a panel decision (its judges' verdicts are in the decision's `verdicts`)."""

    layer: Layer = Field(description="'checks' (deterministic judges) or 'models' (the model panel).")
    rule: str = Field(description="The layer's decision rule.")
    outcome: Outcome | None = Field(description="accept, reject or held; None when the layer was not asked "
                                    "(the checks did not accept the candidate).")
    judges: tuple[str, ...] = Field(description="Labels of the layer's judges, in panel order.")
    rejected_by: tuple[str, ...] = Field(default=(), description="Labels of the layer's judges that rejected.")
    failed_criteria: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Judge label -> criteria it found failed (rejecting judges only).")


class PanelDecision(Record):
    """The judge stage's record for one candidate: every verdict, each layer's part and the final decision.

    `rule`, `outcome`, `rejected_by` and `failed_criteria` are those of the layer that decided (the last
    one asked); `verdicts` holds the verdicts of every layer asked, the checks' first."""

    candidate_id: str = Field(description="The candidate judged.")
    rule: str = Field(description="The decision rule applied: 'majority', 'unanimous' or 'quorum:K'.")
    outcome: Outcome = Field(description="accept, reject, or held (fewer than two judges decided).")
    verdicts: tuple[Verdict, ...] = Field(description="One verdict per judge asked, in layer and panel order.")
    rejected_by: tuple[str, ...] = Field(default=(), description="Labels of the judges that rejected.")
    failed_criteria: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Judge label -> criteria it found failed (rejecting judges only).")
    layers: tuple[LayerDecision, ...] = Field(
        default=(), description="Each layer of the panel, checks first (empty from `combine` without a layer).")

    @property
    def deciding_layer(self) -> LayerDecision | None:
        """The last layer that was asked: its outcome is the decision."""
        return next((layer for layer in reversed(self.layers) if layer.outcome is not None), None)

    def detail(self) -> str:
        """One readable line: which layer decided, who rejected on what, or who abstained."""
        deciding = self.deciding_layer
        asked = [v for v in self.verdicts if deciding is None or v.judge.label in deciding.judges]
        if self.outcome is Outcome.HELD:
            abstained = [v.judge.label for v in asked if v.decision is Decision.ABSTAIN]
            text = f"held: {len(abstained)} of {len(asked)} judges abstained ({', '.join(abstained)})"
        elif self.outcome is Outcome.ACCEPT:
            text = f"accepted under {self.rule}"
        else:
            parts = [f"{j} ({', '.join(self.failed_criteria.get(j, ())) or 'no criterion named'})"
                     for j in self.rejected_by]
            text = f"rejected under {self.rule} by " + "; ".join(parts)
        if deciding is None:
            return text
        earlier = [f"{p.layer.value} accepted under {p.rule}" for p in self.layers if p is not deciding and p.outcome]
        unasked = [p.layer.value for p in self.layers if p.outcome is None]
        return ("; ".join([*earlier, f"{deciding.layer.value} {text}"])
                + (f" ({', '.join(unasked)} not asked)" if unasked else ""))

    def rejection(self) -> Rejection | None:
        """The `Rejection` record for a rejected or held candidate (None when accepted)."""
        if self.outcome is Outcome.ACCEPT:
            return None
        reason = RejectReason.JUDGE_ABSTAINED if self.outcome is Outcome.HELD else RejectReason.JUDGE_REJECTED
        deciding = self.deciding_layer
        return Rejection(candidate_id=self.candidate_id, stage=STAGE, reason=reason, detail=self.detail(),
                         evidence={"rule": self.rule, "rejected_by": list(self.rejected_by),
                                   "failed_criteria": {k: list(v) for k, v in self.failed_criteria.items()},
                                   "decisions": {v.judge.label: v.decision.value for v in self.verdicts},
                                   **({"layer": deciding.layer.value} if deciding is not None else {})})


def combine(candidate_id: str, verdicts: Sequence[Verdict], rule: DecisionRule,
            layer: Layer | None = None) -> PanelDecision:
    """The panel's decision from its verdicts (pure: no judge runs here); `layer` names the layer it is."""
    rejecting = [v for v in verdicts if v.decision is Decision.REJECT]
    outcome = rule.decide([v.decision for v in verdicts])
    failed = {v.judge.label: tuple(f.criterion for f in v.findings if f.ok is False) for v in rejecting}
    layers = () if layer is None else (LayerDecision(
        layer=layer, rule=rule.label, outcome=outcome, judges=tuple(v.judge.label for v in verdicts),
        rejected_by=tuple(failed), failed_criteria=failed),)
    return PanelDecision(candidate_id=candidate_id, rule=rule.label, outcome=outcome, verdicts=tuple(verdicts),
                         rejected_by=tuple(failed), failed_criteria=failed, layers=layers)


class Panel:
    """N judges and a decision rule: one layer. Its layer is the checks when every judge is offline (the
    judges with no model), else the models, unless named."""

    def __init__(self, judges: Sequence[Judge], rule: DecisionRule, cache: VerdictCache | None = None,
                 layer: Layer | None = None) -> None:
        rule.check_panel_size(len(judges))
        labels = [j.spec.label for j in judges]
        if len(set(labels)) != len(labels):
            raise InputError(f"judge panel: two judges share a name ({', '.join(labels)}); names must be unique")
        self.judges = tuple(judges)
        self.rule = rule
        self.cache = cache
        self.layer = layer or (Layer.CHECKS if all(layer_of(j.spec) is Layer.CHECKS for j in judges) else Layer.MODELS)
        models = Counter(j.spec.model for j in judges if j.spec.model)
        self.warnings = [f"judges {', '.join(j.spec.label for j in judges if j.spec.model == m)} share the model "
                         f"{m}: their errors are not independent" for m, n in models.items() if n > 1]
        for warning in self.warnings:
            log.warning(warning)

    def _verdict(self, judge: Judge, candidate: Candidate, report: GateReport | None,
                 checks: Sequence[Verdict]) -> Verdict:
        if self.cache is not None and (hit := self.cache.get(candidate, report, judge.spec, checks)) is not None:
            return hit
        try:
            verdict = judge.review(candidate, report, checks=checks) if checks else judge.review(candidate, report)
        except RunnerUnavailable:
            raise  # the machine cannot run the judge now: no verdict, not an abstention kept as data
        except Exception as exc:  # noqa: BLE001 - a judge that crashes abstains; the panel goes on
            log.warning("judge %s failed on %s: %s", judge.spec.label, candidate.candidate_id, exc)
            verdict = abstention(candidate.candidate_id, judge.spec, f"the judge failed: {type(exc).__name__}: {exc}")
        if self.cache is not None:
            self.cache.put(candidate, report, verdict, checks)
        return verdict

    def review(self, candidate: Candidate, report: GateReport | None,
               checks: Sequence[Verdict] = ()) -> PanelDecision:
        """Every judge's verdict on one candidate, combined by the rule; `checks` (the checks layer's
        verdicts) go to each judge as evidence."""
        verdicts = [self._verdict(j, candidate, report, checks) for j in self.judges]
        return combine(candidate.candidate_id, verdicts, self.rule, self.layer)

    def unasked(self) -> LayerDecision:
        """This layer's part of a decision made before it was reached."""
        return LayerDecision(layer=self.layer, rule=self.rule.label, outcome=None,
                             judges=tuple(j.spec.label for j in self.judges))


class LayeredPanel:
    """The checks, then the model panel on what the checks accepted; either may be absent (not both).

    With no model panel the checks' decision is the decision (the embedded offline default). With no
    checks (`[judges] offline = false`) the model panel judges every candidate alone, and says so in a
    warning. A candidate the checks reject or hold is not shown to any model: the checks held it because
    too few of them could decide, and a model's word does not replace a check that could not run.
    """

    def __init__(self, checks: Panel | None, models: Panel | None) -> None:
        if checks is None and models is None:
            raise InputError("a judge panel needs the deterministic checks, a model panel, or both")
        self.checks, self.models = checks, models
        self.warnings = [*(checks.warnings if checks else ()), *(models.warnings if models else ())]
        if checks is None:
            log.warning(CHECKS_OFF_WARNING)
            self.warnings.insert(0, CHECKS_OFF_WARNING)

    def review(self, candidate: Candidate, report: GateReport | None) -> PanelDecision:
        """The checks' decision, and the model panel's on a candidate they accepted (with their verdicts)."""
        if self.checks is None:
            return self.models.review(candidate, report)
        first = self.checks.review(candidate, report)
        if self.models is None:
            return first
        if first.outcome is not Outcome.ACCEPT:
            return first.model_copy(update={"layers": (*first.layers, self.models.unasked())})
        second = self.models.review(candidate, report, checks=first.verdicts)
        return second.model_copy(update={"verdicts": first.verdicts + second.verdicts,
                                         "layers": first.layers + second.layers})
