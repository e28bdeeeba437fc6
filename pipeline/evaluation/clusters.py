"""A score's uncertainty when tasks come in families.

Tasks grown from one seed are near-variants: a model that cannot do the seed's class fails them together,
so they are not independent draws, and an interval that treats them so is too narrow. The mean over tasks
is kept (it is what Pass@k means), but its confidence interval is cluster-robust with the family as the
cluster (statsmodels' OLS of the per-task scores on a constant, `cov_type="cluster"`: the sandwich
estimator with the small-sample correction and a t distribution on families - 1 degrees of freedom).
Beside it, the mean over families (each family's mean task score, averaged) weighs every seed once.
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from collections.abc import Sequence

from pydantic import Field

from core.records import Record

LEVEL = 0.95


class ClusteredMean(Record):
    """The mean of per-task scores, its family-clustered confidence interval and the per-family mean."""

    mean: float = Field(description="Mean over tasks.")
    low: float | None = Field(description="Lower end of the 95% interval (families as clusters); None: "
                                          "fewer than two families, no interval.")
    high: float | None = Field(description="Upper end of that interval, clipped to [0, 1].")
    family_mean: float = Field(description="Mean over families of each family's mean task score.")
    families: int = Field(description="Families (clusters) the tasks fall in.")


def clustered_mean(values: Sequence[float], clusters: Sequence[str]) -> ClusteredMean | None:
    """`values` (one per task, in [0, 1]) with each task's family in `clusters`; None when there is no task."""
    if not values:
        return None
    if len(values) != len(clusters):
        raise ValueError(f"{len(values)} values but {len(clusters)} cluster labels")
    by_family: dict[str, list[float]] = defaultdict(list)
    for value, family in zip(values, clusters):
        by_family[family].append(value)
    mean = sum(values) / len(values)
    family_mean = sum(sum(v) / len(v) for v in by_family.values()) / len(by_family)
    low = high = None
    if len(by_family) >= 2:
        low, high = _interval(values, clusters, mean)
    return ClusteredMean(mean=round(mean, 6), low=low, high=high, family_mean=round(family_mean, 6),
                         families=len(by_family))


def _interval(values: Sequence[float], clusters: Sequence[str], mean: float) -> tuple[float | None, float | None]:
    import numpy as np  # statsmodels and numpy cost about a second: only an evaluation's summary needs them
    from statsmodels.regression.linear_model import OLS

    if all(v == mean for v in values):  # no spread at all: the sandwich is 0/0 in places, the interval a point
        return round(mean, 6), round(mean, 6)
    labels = {family: i for i, family in enumerate(dict.fromkeys(clusters))}
    groups = np.array([labels[c] for c in clusters])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # statsmodels warns about few clusters; the t quantile accounts for it
        fit = OLS(np.asarray(values, dtype=float), np.ones((len(values), 1))).fit(
            cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
        low, high = (float(x) for x in fit.conf_int(alpha=1 - LEVEL)[0])
    if math.isnan(low) or math.isnan(high):  # a degenerate sandwich: no interval rather than a false one
        return None, None
    return round(max(0.0, low), 6), round(min(1.0, high), 6)
