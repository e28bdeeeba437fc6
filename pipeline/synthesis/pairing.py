"""Which seeds are composed with which: seeded, spread over domain pairs, with a cap on reuse.

Spreading matters more than volume: taking pairs domain-pair by domain-pair in rounds keeps one prolific
domain pair from filling the quota, and the per-seed cap keeps one class from appearing in every hybrid.

Seeds of one domain are not paired (their hybrid would be one domain's class made larger, which is what
enhance does), with one exception: mined classes taken as seeds (`[mine] as_seeds`, `SeedClass.mined_from`)
of one domain are paired when they come from different repositories, since two independent authors' code of
one field is as fresh a combination as two domains. Pairs holding a mined class are taken before any pair of
bundled seeds: the bundled pairs are the same in every build (a rebuild's release drops them as duplicates),
so with a quota it is the fresh pairs that must not be crowded out.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence

from core.records import SeedClass

Pair = tuple[SeedClass, SeedClass]


def domains_compatible(a: str, b: str, matrix: Mapping[str, Sequence[str]]) -> bool:
    """Different domains, each allowed by the other's `composable_with` (empty or missing = any)."""
    if a == b:
        return False
    return (not matrix.get(a) or b in matrix[a]) and (not matrix.get(b) or a in matrix[b])


def from_other_repositories(a: SeedClass, b: SeedClass) -> bool:
    """Both are mined classes, from different repositories: the only seeds of one domain that are paired."""
    return a.mined_from is not None and b.mined_from is not None and a.mined_from != b.mined_from


def allowed_pairs(seeds: Sequence[SeedClass], composable: Mapping[str, Sequence[str]]) -> list[Pair]:
    """Every pair the composer may try before any link is looked for: seeds of different, composable
    domains, and mined seeds of one domain from different repositories (by seed id)."""
    ordered = sorted(seeds, key=lambda s: s.seed_id)
    return [(a, b) for a, b in itertools.combinations(ordered, 2)
            if domains_compatible(a.domain, b.domain, composable) or (a.domain == b.domain and from_other_repositories(a, b))]


def pair_seeds(seeds: Sequence[SeedClass], *, rng_seed: int, max_pairs: int, max_uses_per_seed: int,
               composable: Mapping[str, Sequence[str]], fits: Callable[[SeedClass, SeedClass], bool] | None = None
               ) -> list[Pair]:
    """Pairs of seeds from different, composable domains (and of mined classes of one domain from different
    repositories), in a seeded order, pairs holding a mined class first; with `fits`, only the pairs it
    accepts (the offline composer's `may_link`: a pair that cannot be linked would only be rejected, and
    would take a seed's turn from a pair that can). Without mined seeds the pairs are those of a corpus of
    bundled seeds alone, whatever else changed here."""
    rng = random.Random(f"{rng_seed}:pairing")
    by_domain: dict[str, list[SeedClass]] = {}
    for seed in sorted(seeds, key=lambda s: s.seed_id):
        by_domain.setdefault(seed.domain, []).append(seed)
    domain_pairs = [(a, b) for a, b in itertools.combinations(sorted(by_domain), 2) if domains_compatible(a, b, composable)]
    rng.shuffle(domain_pairs)
    queues: dict[tuple[str, str], list[Pair]] = {}
    for a, b in domain_pairs:
        pairs = [(x, y) for x in by_domain[a] for y in by_domain[b] if fits is None or fits(x, y)]
        queues[(a, b)] = _shuffled(pairs, rng)
    # Drawn after the cross-domain queues, so that those take the same numbers as for bundled seeds alone.
    for domain in sorted(by_domain):
        same = [(x, y) for x, y in itertools.combinations(by_domain[domain], 2)
                if from_other_repositories(x, y) and (fits is None or fits(x, y))]
        if same:
            queues[(domain, domain)] = _shuffled(same, rng)
    keys = list(queues)
    chosen: list[Pair] = []
    uses: dict[str, int] = {}
    for fresh in (True, False):
        round_robin({key: [p for p in queues[key] if _holds_mined(p) is fresh] for key in keys}, keys, chosen, uses,
                    max_pairs=max_pairs, max_uses_per_seed=max_uses_per_seed)
    return chosen


def _shuffled(pairs: list[Pair], rng: random.Random) -> list[Pair]:
    rng.shuffle(pairs)
    return [(x, y) if rng.random() < 0.5 else (y, x) for x, y in pairs]


def _holds_mined(pair: Pair) -> bool:
    return pair[0].mined_from is not None or pair[1].mined_from is not None


def round_robin(queues: dict[tuple[str, str], list[Pair]], keys: Sequence[tuple[str, str]], chosen: list[Pair],
                uses: dict[str, int], *, max_pairs: int, max_uses_per_seed: int) -> None:
    """Take pairs into `chosen`, one per domain pair in turn, skipping pairs with a seed used up, until
    `max_pairs` are chosen or the queues are empty (`queues` and `uses` are consumed and updated)."""
    while len(chosen) < max_pairs and any(queues[key] for key in keys):
        for key in keys:
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
