"""Shared fixtures of the validation tests: one sandbox pool for the whole session (workers start once)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.records import Candidate, GeneratorSpec, Origin, Provenance
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


_DIRECT_TRACE = """
import json, sys
sys.path.insert(0, '.')
from validation.sandbox.interaction import InteractionTracer
import pytest
tracer = InteractionTracer(sys.argv[1], sys.argv[2])
code = pytest.main(['-q', '-p', 'no:cacheprovider', '-o', 'addopts=', sys.argv[3]], plugins=[tracer])
print(json.dumps({'code': int(code), 'trace': tracer.result()}))
"""


@pytest.fixture(scope="session")
def direct_trace():
    """Run a test module under the interaction tracer alone, in a subprocess (it installs a profile hook),
    with the tracer's own hooks deciding when it profiles: direct_trace(folder, files, module, class_name,
    test_file) -> the trace. The suite must pass."""
    return run_direct_trace


def run_direct_trace(folder: Path, files: dict[str, str], module: str, class_name: str, test_file: str) -> dict:
    for name, text in files.items():
        (folder / name).write_text(text)
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run([sys.executable, "-c", _DIRECT_TRACE, module, class_name, test_file], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0
    return result["trace"]
