"""Shared fixtures of the validation tests: one sandbox pool for the whole session (workers start once)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pipeline.records import Candidate, GeneratorSpec, Origin, Provenance
from validation.policy import GatePolicy
from validation.sandbox import SandboxPool

# Small limits keep the adversarial tests short: a loop or a fork bomb costs about two seconds.
FAST_POLICY = GatePolicy(per_test_seconds=2.0, wall_seconds=20.0, memory_mb=768, max_mutants=12)


@pytest.fixture(scope="session")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(jobs=2, limits=FAST_POLICY.limits()) as sandbox:
        yield sandbox


@pytest.fixture(scope="session")
def fast_policy() -> GatePolicy:
    return FAST_POLICY


@pytest.fixture(scope="session")
def candidate_of():
    """Build a Candidate from inline source: candidate_of(solution, tests, class_name, module)."""
    return make_candidate


def make_candidate(solution: str, tests: str, class_name: str, module: str) -> Candidate:
    return Candidate(
        candidate_id=Candidate.make_id(class_name, solution, tests),
        class_name=class_name,
        module_name=module,
        domains=("Testing",),
        description=f"{class_name} for the gate's tests.",
        skeleton="",
        solution_code=solution,
        test_code=tests,
        origin=Origin.SEED,
        provenance=Provenance(source="inline test fixture"),
        generator=GeneratorSpec(backend="seed"),
    )
