"""A feature transform is one file plus one registration line: a toy one, registered from this test's folder,
is chosen by the enhance stage's own code, woven into the class and tested like the bundled ones."""

from __future__ import annotations

import pytest
from synthesis_samples import ACCOUNT, ACCOUNT_TESTS

from core.records import Candidate, Provenance, SeedClass
from pipeline.synthesis import transforms
from pipeline.synthesis.config import EnhanceConfig
from pipeline.synthesis.enhance import enhance_seed

SEED = SeedClass(seed_id="Finance_Ecommerce/account", domain="Finance_Ecommerce", name="account", class_name="Account",
                 description="A bank account.", source=ACCOUNT, tests=ACCOUNT_TESTS, provenance=Provenance())
TOY = "toy_call_tally"


def test_a_registered_transform_is_woven_in_and_tested(sandbox_pool):
    with transforms.REGISTRY.registered(TOY, "toy_transform:CallTally"):
        config = EnhanceConfig(transforms=("history_undo", TOY), candidates_per_seed=1, min_features=2,
                               max_features=2)
        made = enhance_seed(SEED, config, pool=sandbox_pool)
    [candidate] = made
    assert isinstance(candidate, Candidate), candidate
    assert candidate.generator.parameters["features"] == ["history_undo", TOY]  # the registry's order: last
    assert "def tally(self) -> int:" in candidate.solution_code and "def tally(self) -> int:" in candidate.skeleton
    assert ".tally()" in candidate.test_code


def test_an_unregistered_transform_is_refused_by_the_configuration():
    assert TOY not in transforms.REGISTRY
    with pytest.raises(ValueError, match=f"unknown transforms \\['{TOY}'\\]"):
        EnhanceConfig(transforms=(TOY,))
