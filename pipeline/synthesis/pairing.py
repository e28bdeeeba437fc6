"""Which seeds are composed with which: seeded, spread over domain pairs, with a cap on reuse.

Spreading matters more than volume: taking pairs domain-pair by domain-pair in rounds keeps one prolific
domain pair from filling the quota, and the per-seed cap keeps one class from appearing in every hybrid.

Seeds of one domain are not paired (their hybrid would be one domain's class made larger, which is what
enhance does), with one exception: mined classes taken as seeds (`[mine] as_seeds`, `SeedClass.mined_from`)
of one domain are paired when they come from different repositories, since two independent authors' code of
one field is as fresh a combination as two domains.

Pairs holding a mined class (fresh pairs) are chosen apart from the pairs of bundled seeds, each kind with
its own quota (`max_pairs`) and its own use counter, so that a rebuild composes what changed and nothing
else:

- the bundled pairs are those of the bundled seeds alone: whatever mining found (and a rebuild finds the
  classes an earlier release holds no more: they are `duplicate` at the mine stage), they are the pairs of
  every build of the same corpus and settings, and a rebuild reuses them or drops them as released;
- each mined class's pairs with bundled seeds depend on it and the bundled seeds alone: its partners in an
  order drawn from its own seed id, spread over the partners' domains, at most `max_uses_per_seed` of them.
  Pairs of two mined classes come after, in an order drawn from their ids, each class in at most
  `max_uses_per_seed` of them. So a class found by a later build adds its own pairs and leaves those of
  the classes found before as they were. The fresh pairs come first in the list.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Callable, Mapping, Sequence

from core.records import SeedClass

Pair = tuple[SeedClass, SeedClass]
Fits = Callable[[SeedClass, SeedClass], bool]


def domains_compatible(a: str, b: str, matrix: Mapping[str, Sequence[str]]) -> bool:
    """Different domains, each allowed by the other's `composable_with` (empty or missing = any)."""
    if a == b:
        return False
    return (not matrix.get(a) or b in matrix[a]) and (not matrix.get(b) or a in matrix[b])


def from_other_repositories(a: SeedClass, b: SeedClass) -> bool:
    """Both are mined classes, from different repositories: the only seeds of one domain that are paired."""
    return a.mined_from is not None and b.mined_from is not None and a.mined_from != b.mined_from


def pairable(a: SeedClass, b: SeedClass, composable: Mapping[str, Sequence[str]]) -> bool:
    """Whether the composer may try the pair before any link is looked for."""
    return domains_compatible(a.domain, b.domain, composable) or (a.domain == b.domain and from_other_repositories(a, b))


def allowed_pairs(seeds: Sequence[SeedClass], composable: Mapping[str, Sequence[str]]) -> list[Pair]:
    """Every pair the composer may try before any link is looked for: seeds of different, composable
    domains, and mined seeds of one domain from different repositories (by seed id)."""
    ordered = sorted(seeds, key=lambda s: s.seed_id)
    return [(a, b) for a, b in itertools.combinations(ordered, 2) if pairable(a, b, composable)]


def pair_seeds(seeds: Sequence[SeedClass], *, rng_seed: int, max_pairs: int, max_uses_per_seed: int,
               composable: Mapping[str, Sequence[str]], fits: Fits | None = None) -> list[Pair]:
    """Pairs of seeds from different, composable domains (and of mined classes of one domain from different
    repositories): at most `max_pairs` fresh pairs, then at most `max_pairs` pairs of bundled seeds, those
    of a corpus of bundled seeds alone (see the module's docstring); with `fits`, only the pairs it accepts
    (the offline composer's `may_link`: a pair that cannot be linked would only be rejected, and would take
    a seed's turn from a pair that can)."""
    bundled = [s for s in seeds if s.mined_from is None]
    mined = sorted((s for s in seeds if s.mined_from is not None), key=lambda s: s.seed_id)
    chosen = fresh_pairs(bundled, mined, rng_seed=rng_seed, max_uses_per_seed=max_uses_per_seed,
                         composable=composable, fits=fits)[:max_pairs]
    return chosen + bundled_pairs(bundled, rng_seed=rng_seed, max_pairs=max_pairs,
                                  max_uses_per_seed=max_uses_per_seed, composable=composable, fits=fits)


def bundled_pairs(seeds: Sequence[SeedClass], *, rng_seed: int, max_pairs: int, max_uses_per_seed: int,
                  composable: Mapping[str, Sequence[str]], fits: Fits | None = None) -> list[Pair]:
    """Pairs of seeds of different domains, domain pair by domain pair in a seeded order, each seed in at
    most `max_uses_per_seed` of them, at most `max_pairs` in all."""
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
    chosen: list[Pair] = []
    round_robin(queues, list(queues), chosen, {}, max_pairs=max_pairs, max_uses_per_seed=max_uses_per_seed)
    return chosen


def fresh_pairs(bundled: Sequence[SeedClass], mined: Sequence[SeedClass], *, rng_seed: int, max_uses_per_seed: int,
                composable: Mapping[str, Sequence[str]], fits: Fits | None = None) -> list[Pair]:
    """Each mined class (in seed id order) with its bundled partners, then the pairs of two mined classes."""
    chosen: list[Pair] = []
    for seed in mined:
        chosen += partners_of(seed, bundled, rng_seed=rng_seed, max_uses=max_uses_per_seed,
                              composable=composable, fits=fits)
    between = sorted(((a, b) for a, b in itertools.combinations(mined, 2)
                      if pairable(a, b, composable) and (fits is None or fits(a, b))),
                     key=lambda pair: _draw(rng_seed, pair[0].seed_id, pair[1].seed_id))
    uses: dict[str, int] = {}
    for a, b in between:  # each mined class in at most `max_uses_per_seed` of them
        if uses.get(a.seed_id, 0) < max_uses_per_seed and uses.get(b.seed_id, 0) < max_uses_per_seed:
            chosen.append((a, b))
            uses[a.seed_id], uses[b.seed_id] = uses.get(a.seed_id, 0) + 1, uses.get(b.seed_id, 0) + 1
    return chosen


def partners_of(seed: SeedClass, bundled: Sequence[SeedClass], *, rng_seed: int, max_uses: int,
                composable: Mapping[str, Sequence[str]], fits: Fits | None = None) -> list[Pair]:
    """A mined class's pairs with bundled seeds: at most `max_uses`, one partner domain after another in an
    order drawn from the class's seed id, each domain's partners likewise (and which of the two comes first)."""
    by_domain: dict[str, list[SeedClass]] = {}
    for other in bundled:
        if domains_compatible(seed.domain, other.domain, composable) and (fits is None or fits(seed, other)):
            by_domain.setdefault(other.domain, []).append(other)
    queues = [sorted(partners, key=lambda other: _draw(rng_seed, seed.seed_id, other.seed_id))
              for _, partners in sorted(by_domain.items(), key=lambda item: _draw(rng_seed, seed.seed_id, item[0]))]
    ordered = [other for turn in itertools.zip_longest(*queues) for other in turn if other is not None]
    return [(seed, other) if int(_draw(rng_seed, seed.seed_id, other.seed_id, "order"), 16) % 2 else (other, seed)
            for other in ordered[:max_uses]]


def _draw(rng_seed: int, *names: str) -> str:
    """A seeded order that does not move when other names are added (unlike shuffling a list)."""
    return hashlib.sha256(":".join((str(rng_seed), "pairing", *names)).encode()).hexdigest()


def _shuffled(pairs: list[Pair], rng: random.Random) -> list[Pair]:
    rng.shuffle(pairs)
    return [(x, y) if rng.random() < 0.5 else (y, x) for x, y in pairs]


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
