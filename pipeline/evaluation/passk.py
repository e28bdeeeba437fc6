"""The unbiased Pass@k estimator (Chen et al., 2021): from n samples of which c are correct,
pass@k = 1 - C(n-c, k) / C(n, k), the chance that at least one of k samples drawn without replacement is
correct. Averaging it over problems estimates the expected pass@k with far less variance than drawing k.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k of one problem; raises ValueError when k > n (not estimable) or the counts are off."""
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"pass@k needs 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} samples per problem, got {n}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def mean_pass_at_k(counts: Iterable[tuple[int, int]], k: int) -> float | None:
    """Mean pass@k over problems given as (n, c); None when there is no problem or some n is below k."""
    values = []
    for n, c in counts:
        if k > n:
            return None
        values.append(pass_at_k(n, c, k))
    return sum(values) / len(values) if values else None
