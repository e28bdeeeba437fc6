"""Pairing spreads and caps; composition renames collisions and adds typed bridges (static parts)."""

import random

from pipeline.records import Provenance, SeedClass
from pipeline.analysis.class_model import analyse
from pipeline.synthesis.compose import fuse
from pipeline.synthesis.pairing import domains_compatible, pair_seeds

from synthesis_samples import ACCOUNT

LOG = '''"""A text log."""


class Log:
    """Lines of text."""

    def __init__(self, owner: str) -> None:
        """Start an empty log."""
        self.owner = owner
        self.lines: list[str] = []

    def deposit(self, text: str) -> int:
        """Keep a line; return how many there are."""
        self.lines.append(text)
        return len(self.lines)

    def describe(self, count: int) -> str:
        """Describe a count."""
        return f"{count} items"
'''


def _seed(domain: str, name: str, class_name: str = "Account", source: str = ACCOUNT) -> SeedClass:
    return SeedClass(seed_id=f"{domain}/{name}", domain=domain, name=name, class_name=class_name,
                     description=f"{name} in {domain}.", source=source, tests="", provenance=Provenance())


def test_pairing_is_seeded_spread_and_capped():
    seeds = [_seed(d, f"{d.lower()}_{i}") for d in ("A", "B", "C") for i in range(4)]
    pairs = pair_seeds(seeds, rng_seed=7, max_pairs=12, max_uses_per_seed=2, composable={})
    again = pair_seeds(seeds, rng_seed=7, max_pairs=12, max_uses_per_seed=2, composable={})
    assert [(a.seed_id, b.seed_id) for a, b in pairs] == [(a.seed_id, b.seed_id) for a, b in again]
    assert all(a.domain != b.domain for a, b in pairs)
    uses: dict[str, int] = {}
    for a, b in pairs:
        uses[a.seed_id] = uses.get(a.seed_id, 0) + 1
        uses[b.seed_id] = uses.get(b.seed_id, 0) + 1
    assert max(uses.values()) <= 2
    domain_pairs = {tuple(sorted((a.domain, b.domain))) for a, b in pairs[:3]}
    assert len(domain_pairs) == 3  # the first round visits every domain pair


def test_composable_matrix_limits_pairs():
    assert domains_compatible("A", "B", {"A": ("B",)})
    assert not domains_compatible("A", "C", {"A": ("B",)})
    assert not domains_compatible("A", "A", {})
    seeds = [_seed(d, f"{d.lower()}_{i}") for d in ("A", "B", "C") for i in range(2)]
    pairs = pair_seeds(seeds, rng_seed=1, max_pairs=50, max_uses_per_seed=9, composable={"A": ("B",), "B": ("A",)})
    assert {tuple(sorted((a.domain, b.domain))) for a, b in pairs} == {("A", "B")}


def test_fuse_renames_collisions_consistently_and_bridges_types():
    fusion = fuse(_seed("Finance", "account"), _seed("Text", "log", "Log", LOG), random.Random(3), max_bridges=3)
    model = analyse(fusion.source, "AccountLog")
    assert fusion.method_map_b == {"deposit": "log_deposit"}
    assert {"deposit", "log_deposit", "withdraw", "describe"} <= set(model.methods)
    assert "self.log_owner = log_owner" in fusion.source  # colliding field and parameter both renamed
    assert "self.lines.append(text)" in fusion.source
    init = model.methods["__init__"]
    assert [p.name for p in init.params] == ["owner", "log_owner", "balance"]
    # across the halves only: Account.deposit -> int feeds Log.describe(count: int), and
    # Log.deposit (renamed log_deposit) -> int feeds Account.deposit(amount: int)
    assert {b.name for b in fusion.bridges} == {"describe_from_deposit", "deposit_from_log_deposit"}
    assert "value = self.deposit(amount)\n        return self.describe(value)" in fusion.source
    compile(fusion.source, "hybrid", "exec")


def test_fused_module_holds_only_the_hybrid_class():
    fusion = fuse(_seed("Finance", "account"), _seed("Text", "log", "Log", LOG), random.Random(3), max_bridges=3)
    assert "class Account" not in fusion.source.replace("class AccountLog", "")
    assert "class Log" not in fusion.source


def test_a_hybrid_is_dated_by_its_newer_seed():
    from pipeline.synthesis.compose import _newest_date

    old = _seed("Math_Stats", "a").model_copy(update={"provenance": Provenance(first_commit_date="2025-03-01")})
    new = _seed("Game_Sim", "b").model_copy(update={"provenance": Provenance(first_commit_date="2026-01-09")})
    undated = _seed("Text_NLP", "c")
    assert _newest_date(old, new) == _newest_date(new, old) == "2026-01-09"
    assert _newest_date(undated, old) == "2025-03-01" and _newest_date(undated, undated) is None
