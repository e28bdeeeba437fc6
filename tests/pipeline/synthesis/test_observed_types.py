"""Type hints read off observed values give classes written without hints (ClassEval's shape) bridges."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from core import settings
from core.records import Provenance, RejectReason, SeedClass
from pipeline.synthesis.compose import compose_pair, fuse, pools_for
from pipeline.synthesis.config import ComposeConfig
from pipeline.synthesis.observed_types import observed_type, with_observed_types
from pipeline.synthesis.tracing import ArgumentPools, ObservedCall
from tests.pipeline.classeval_style import DICE_GAME, WALLET


@pytest.mark.parametrize(("literals", "expected"), [
    (["1", "-2"], "int"),
    (["1", "2.5"], "float"),  # an int is accepted where a float is annotated
    (["[1, 2]", "[]"], "list[int]"),
    (["[]"], "list"),
    (['{"a": (1, 2.5)}'], "dict[str, tuple[int, float]]"),
    (["(1, 2)", "(3, 4, 5)"], "tuple[int, ...]"),
    (["set()", "{1, 2}"], "set[int]"),
    (['frozenset({"a"})'], "frozenset[str]"),
    (["True", "1"], None),  # bool and int disagree
    (['"x"', "1"], None),
    (["None"], None),
    (["1", None], None),  # a value without a literal (an object)
    ([], None),
])
def test_the_type_of_observed_literals(literals, expected):
    assert observed_type(literals) == expected


SOURCE = '''
def total(x):
    return x


class Tally:
    def __init__(self, start, label=None):
        self.value = start

    def add(self, amount, note: object = ""):
        def inner(y):
            return y
        self.value += inner(amount)
        return self.value

    def total(self):
        return self.value

    def last(self):
        return None if self.value == 0 else self.value
'''


def _seed(source: str, class_name: str = "Tally") -> SeedClass:
    return SeedClass(seed_id=f"Math_Stats/{class_name.lower()}", domain="Math_Stats", name=class_name.lower(),
                     class_name=class_name, description="d", source=source, tests="", provenance=Provenance())


def test_only_missing_hints_that_every_observation_supports_are_written():
    pools = ArgumentPools(
        ctors=[ObservedCall("__init__", ("3",), (("label", '"a"'),))],
        calls={"add": [ObservedCall("add", ("2",)), ObservedCall("add", ("4", '"n"'))]},
        results={"add": ["5", "9"], "total": ["9"], "last": ["9", "None"]},
    )
    typed = with_observed_types(_seed(SOURCE), pools).source
    tree = ast.parse(typed)
    assert ast.unparse(tree.body[0]).startswith("def total(x):")  # a module function of a method's name
    methods = {f.name: f for f in tree.body[1].body}
    assert ast.unparse(methods["__init__"].args) == "self, start: int, label=None"  # defaults to None: optional
    assert methods["__init__"].returns is None
    assert ast.unparse(methods["add"].args) == 'self, amount: int, note: object=\'\''  # a written hint stays
    assert ast.unparse(methods["add"].returns) == "int"
    assert "def inner(y):" in typed  # a nested function keeps its signature
    assert ast.unparse(methods["total"].returns) == "int"
    assert methods["last"].returns is None  # None was observed


def test_a_seed_with_nothing_to_add_is_the_same_seed():
    seed = _seed("class Tally:\n    def total(self) -> int:\n        return 1\n")
    assert with_observed_types(seed, ArgumentPools(results={"total": ["1"]})) is seed


def test_classes_without_hints_compose_on_observed_types(tmp_path: Path, sandbox_pool):
    """Through the composer's entry point: the argument harvest records results in the sandbox, and the
    composer derives the classes' link ends on the types read off them, which the classes as written (no
    hints) do not give. A dice game's score fits a wallet's deposit by type, but a score is no amount of
    money: a derived score reaches only a consumer of any number, so the pair is not composed."""
    from pipeline.corpus.classeval_seeds import import_as_seeds
    from pipeline.corpus.seeds import load_seed

    import_as_seeds([DICE_GAME, WALLET], "style.json", tmp_path, settings.PROJECT_ROOT / "seeds" / "domains.toml")
    dice = load_seed(tmp_path / "Game_Sim" / "dice_game", "Game_Sim")
    wallet = load_seed(tmp_path / "Finance_Ecommerce" / "wallet", "Finance_Ecommerce")
    assert fuse(dice, wallet, random.Random(1), 3).links == ()
    rejection = compose_pair(dice, wallet, ComposeConfig(max_tests=10), pool=sandbox_pool)
    assert rejection.reason is RejectReason.INCOHERENT_FUSION, rejection
    assert rejection.evidence["skipped"] == "no_link"
    typed = fuse(*(with_observed_types(seed, pools_for(seed, pool=sandbox_pool)) for seed in (dice, wallet)),
                 random.Random(1), 3)
    assert "def deposit(self, amount: int) -> int:" in typed.source
    assert "def current_player(self) -> str:" in typed.source
