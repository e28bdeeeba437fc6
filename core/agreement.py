"""How far the judges agree: one more reducer over the verdicts the panel kept.

Agreement is measured within the panel that votes: the model panel when models judged, else the
deterministic checks (the only panel of an offline build). The checks and the models do not rate the same
candidates (the models see only what the checks accepted) nor answer the same question, so no kappa mixes
the two layers. Fleiss' kappa across the panel's judges and Cohen's kappa for every pair come from
statsmodels (`statsmodels.stats.inter_rater`), not from a hand-written formula. Abstentions are left out:
a pair is compared on the candidates both decided, Fleiss' kappa uses the candidates every judge of the
panel decided; an abstention is a failed call or a broken answer, not an opinion. Kappa is undefined when
every rating is the same category (chance agreement is total); it is then reported as None, never as 1.0
or 0.0.

Beside the kappas, for the judges of both layers: each judge's share of rejected (and abstained)
candidates among those it judged (the checks judge every gate survivor, the models what the checks
accepted), and the criteria that failed most often.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from pydantic import Field

from core.records import Decision, Layer, Record, Verdict, layer_of
from core.store import ArtifactStore

CATEGORIES = (Decision.ACCEPT, Decision.REJECT, Decision.ABSTAIN)
TOP_CRITERIA = 10


class PairKappa(Record):
    """Cohen's kappa of two judges over the candidates both judged."""

    judge_a: str = Field(description="First judge's label.")
    judge_b: str = Field(description="Second judge's label.")
    items: int = Field(description="Candidates both judged.")
    observed: float | None = Field(description="Share of those where both gave the same decision.")
    kappa: float | None = Field(description="Cohen's kappa; None when undefined (one category only).")


class CriterionCount(Record):
    """How often a criterion was found failed."""

    criterion: str = Field(description="Criterion name.")
    failed: int = Field(description="Verdicts in which it failed.")
    judges: dict[str, int] = Field(default_factory=dict, description="Per judge label, how many of those.")


class Agreement(Record):
    """Agreement figures over a set of judged candidates (a run's survivors, or a release's tasks)."""

    judged: int = Field(description="Candidates with at least one verdict.")
    judges: tuple[str, ...] = Field(default=(), description="Judge labels, sorted.")
    layers: dict[str, tuple[str, ...]] = Field(default_factory=dict,
                                               description="Layer ('checks', 'models') -> its judges' labels, sorted.")
    compared: str | None = Field(default=None, description="The layer whose judges the kappas compare: 'models' "
                                 "when models judged, else 'checks'.")
    rated_items: int = Field(default=0, description="Candidates every judge of the compared layer decided (Fleiss' "
                             "kappa uses these).")
    fleiss_kappa: float | None = Field(default=None, description="Fleiss' kappa; None when undefined.")
    pairwise: tuple[PairKappa, ...] = Field(default=(), description="Cohen's kappa for every pair of judges of the "
                                            "compared layer, over the candidates both decided.")
    decisions: dict[str, dict[str, int]] = Field(default_factory=dict,
                                                 description="Judge label -> decision -> count.")
    rejected_share: dict[str, float] = Field(default_factory=dict,
                                             description="Judge label -> share of the candidates it judged that it rejected.")
    abstained_share: dict[str, float] = Field(default_factory=dict,
                                              description="Judge label -> share it abstained on.")
    failed_criteria: tuple[CriterionCount, ...] = Field(default=(), description="Most frequent failed criteria first.")


def _finite(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else round(float(value), 6)


def fleiss(ratings: Sequence[Sequence[Decision]]) -> float | None:
    """Fleiss' kappa of items each rated by the same judges (statsmodels); None when undefined."""
    from statsmodels.stats.inter_rater import fleiss_kappa

    if len(ratings) < 1 or len(ratings[0]) < 2:
        return None
    table = [[sum(r is c for r in row) for c in CATEGORIES] for row in ratings]
    totals = [sum(col) for col in zip(*table)]
    if sum(t > 0 for t in totals) < 2:
        return None  # one category only: kappa is 0/0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _finite(fleiss_kappa(table, method="fleiss"))


def cohen(pairs: Sequence[tuple[Decision, Decision]]) -> float | None:
    """Cohen's kappa of two judges' paired decisions (statsmodels); None when undefined."""
    from statsmodels.stats.inter_rater import cohens_kappa

    if not pairs:
        return None
    index = {c: i for i, c in enumerate(CATEGORIES)}
    table = [[0] * len(CATEGORIES) for _ in CATEGORIES]
    for a, b in pairs:
        table[index[a]][index[b]] += 1
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table)]
    n = len(pairs)
    if sum(r * c for r, c in zip(rows, cols)) == n * n:
        return None  # chance agreement is 1: both judges used one and the same category throughout
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _finite(cohens_kappa(table, return_results=False))


def agreement(verdict_sets: Sequence[Sequence[Verdict]]) -> Agreement:
    """The agreement figures over candidates, each given as the verdicts it received (of either layer)."""
    judged = [list(vs) for vs in verdict_sets if vs]
    by_item = [{v.judge.label: v for v in vs} for vs in judged]
    labels = sorted({label for item in by_item for label in item})
    layer_of_label = {v.judge.label: layer_of(v.judge) for vs in judged for v in vs}
    layers = {layer.value: tuple(l for l in labels if layer_of_label[l] is layer) for layer in Layer}
    layers = {name: members for name, members in layers.items() if members}
    compared = Layer.MODELS.value if Layer.MODELS.value in layers else (Layer.CHECKS.value if layers else None)
    panel = layers.get(compared, ()) if compared else ()
    decided = [{l: item[l].decision for l in panel if l in item and item[l].decision is not Decision.ABSTAIN}
               for item in by_item]
    full = [item for item in decided if panel and set(item) == set(panel)]
    fleiss_value = fleiss([[item[l] for l in panel] for item in full]) if full else None
    pairwise = []
    for i, a in enumerate(panel):
        for b in panel[i + 1:]:
            both = [(item[a], item[b]) for item in decided if a in item and b in item]
            observed = sum(x is y for x, y in both) / len(both) if both else None
            pairwise.append(PairKappa(judge_a=a, judge_b=b, items=len(both),
                                      observed=None if observed is None else round(observed, 6), kappa=cohen(both)))
    decisions: dict[str, Counter] = {label: Counter() for label in labels}
    failed: dict[str, Counter] = {}
    for item in by_item:
        for label, verdict in item.items():
            decisions[label][verdict.decision.value] += 1
            for finding in verdict.findings:
                if finding.ok is False:
                    failed.setdefault(finding.criterion, Counter())[label] += 1
    seen = {label: sum(c.values()) for label, c in decisions.items()}
    top = sorted(failed.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))[:TOP_CRITERIA]
    return Agreement(
        judged=len(judged), judges=tuple(labels), layers=layers, compared=compared, rated_items=len(full),
        fleiss_kappa=fleiss_value,
        pairwise=tuple(pairwise),
        decisions={label: {d.value: c.get(d.value, 0) for d in CATEGORIES} for label, c in decisions.items()},
        rejected_share={label: round(decisions[label]["reject"] / seen[label], 6) for label in labels if seen[label]},
        abstained_share={label: round(decisions[label]["abstain"] / seen[label], 6) for label in labels if seen[label]},
        failed_criteria=tuple(CriterionCount(criterion=name, failed=sum(c.values()), judges=dict(sorted(c.items())))
                              for name, c in top),
    )


AGREEMENT_FILE = "judge_agreement.json"


def read_agreement(store: ArtifactStore, run_id: str) -> Agreement | None:
    """The run's agreement figures, as the judge stage wrote them (None before it ran, or when it was off)."""
    path = Path(store.runs) / run_id / AGREEMENT_FILE
    return Agreement.from_json(path.read_bytes()) if path.is_file() else None
