"""Which seeds are composed with which: seeded, spread over domain pairs, with a cap on reuse.

Spreading matters more than volume: taking pairs domain-pair by domain-pair in rounds keeps one prolific
domain pair from filling the quota, and the per-seed cap keeps one class from appearing in every hybrid.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence

from pipeline.base.records import SeedClass


def domains_compatible(a: str, b: str, matrix: Mapping[str, Sequence[str]]) -> bool:
    """Different domains, each allowed by the other's `composable_with` (empty or missing = any)."""
    if a == b:
        return False
    return (not matrix.get(a) or b in matrix[a]) and (not matrix.get(b) or a in matrix[b])


def pair_seeds(seeds: Sequence[SeedClass], *, rng_seed: int, max_pairs: int, max_uses_per_seed: int,
               composable: Mapping[str, Sequence[str]],
               fits: Callable[[SeedClass, SeedClass], bool] | None = None) -> list[tuple[SeedClass, SeedClass]]:
    """Pairs of seeds from different, composable domains, in a seeded order; with `fits`, only the pairs it
    accepts (the offline composer's `may_bridge`: a pair that cannot be bridged would only be rejected, and
    would take a seed's turn from a pair that can)."""
    rng = random.Random(f"{rng_seed}:pairing")
    by_domain: dict[str, list[SeedClass]] = {}
    for seed in sorted(seeds, key=lambda s: s.seed_id):
        by_domain.setdefault(seed.domain, []).append(seed)
    domain_pairs = [(a, b) for a, b in itertools.combinations(sorted(by_domain), 2) if domains_compatible(a, b, composable)]
    rng.shuffle(domain_pairs)
    queues: dict[tuple[str, str], list[tuple[SeedClass, SeedClass]]] = {}
    for a, b in domain_pairs:
        pairs = [(x, y) for x in by_domain[a] for y in by_domain[b] if fits is None or fits(x, y)]
        rng.shuffle(pairs)
        queues[(a, b)] = [(x, y) if rng.random() < 0.5 else (y, x) for x, y in pairs]
    uses: dict[str, int] = {}
    chosen: list[tuple[SeedClass, SeedClass]] = []
    while len(chosen) < max_pairs and any(queues.values()):
        for key in domain_pairs:
            queue = queues[key]
            while queue:
                x, y = queue.pop(0)
                if uses.get(x.seed_id, 0) < max_uses_per_seed and uses.get(y.seed_id, 0) < max_uses_per_seed:
                    chosen.append((x, y))
                    uses[x.seed_id] = uses.get(x.seed_id, 0) + 1
                    uses[y.seed_id] = uses.get(y.seed_id, 0) + 1
                    break
            if len(chosen) >= max_pairs:
                break
    return chosen
