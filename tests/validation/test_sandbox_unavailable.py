"""A sandbox that cannot start is the machine's fault: it is raised, never recorded as a candidate's result."""

from __future__ import annotations

import sys

import pytest

from pipeline.synthesis.jobs import never_fatal
from validation.gate import validate_guarded
from validation.policy import GatePolicy
from validation.sandbox import SandboxJob, SandboxPool, SandboxUnavailable
from validation.sandbox import pool as pool_module


@pytest.fixture
def broken_pool(monkeypatch: pytest.MonkeyPatch):
    """A pool whose workers exit before they are ready (as when bubblewrap or the interpreter fails)."""
    monkeypatch.setattr(pool_module._Worker, "_command",
                        lambda self: ([sys.executable, "-c", "import sys; sys.stderr.write('no sandbox here'); sys.exit(3)"], {}))
    with SandboxPool(jobs=1, isolation="none", cgroups=False) as pool:
        yield pool


def test_a_worker_that_does_not_start_is_named(broken_pool: SandboxPool) -> None:
    with pytest.raises(SandboxUnavailable, match="sandbox worker base did not start: no sandbox here"):
        broken_pool.run(SandboxJob(files={"m.py": "", "test_m.py": "def test_x():\n    pass\n"}, test_file="test_m.py"))
    # the failed start does not hold a place in the pool: the next run tries to start a worker again
    with pytest.raises(SandboxUnavailable):
        broken_pool.run(SandboxJob(files={"m.py": "", "test_m.py": "def test_x():\n    pass\n"}, test_file="test_m.py"))


def test_the_gate_raises_it_instead_of_an_internal_error_report(broken_pool: SandboxPool, candidate_of) -> None:
    candidate = candidate_of("class Box:\n    def put(self, x):\n        self.x = x\n",
                             "from box import Box\n\ndef test_put():\n    Box().put(1)\n", "Box", "box")
    with pytest.raises(SandboxUnavailable):
        validate_guarded(candidate, GatePolicy(), broken_pool)


def test_synthesis_guard_raises_it_and_keeps_other_errors_as_data() -> None:
    def work(item: str) -> list[str]:
        if item == "machine":
            raise SandboxUnavailable("sandbox worker base did not start")
        raise ValueError("this item is odd")

    guarded = never_fatal(work, lambda item, exc: f"{item}: {exc}")
    assert guarded("odd") == ["odd: this item is odd"]
    with pytest.raises(SandboxUnavailable):
        guarded("machine")


def test_the_judges_runner_raises_it_as_the_base_layer_s_and_no_judge_abstains_on_it(broken_pool: SandboxPool) -> None:
    """The judges see the sandbox through `SuiteRunner`: a pool that cannot start is `RunnerUnavailable`
    there, which the panel raises (no verdict) and the driver tries again, like `SandboxUnavailable`."""
    from core.suite_runs import RunnerUnavailable
    from judges.config import JudgesConfig
    from judges.offline.consistency import ConsistencyJudge
    from judges.offline.specification import SpecificationJudge
    from judges.panel import Panel
    from pipeline.stages.driver import is_retried
    from tests.judges.conftest import make_candidate
    from validation.suite_runner import SandboxSuiteRunner

    runner = SandboxSuiteRunner(broken_pool)
    with pytest.raises(RunnerUnavailable, match="sandbox worker base did not start"):
        runner.run_suite({"m.py": "", "test_m.py": "def test_x():\n    pass\n"}, "test_m.py")
    panel = Panel([SpecificationJudge(runner), ConsistencyJudge()], JudgesConfig().checks_rule())
    with pytest.raises(RunnerUnavailable):  # the skeleton has docstring examples: the judge runs them
        panel.review(make_candidate(), None)
    assert is_retried(RunnerUnavailable("no sandbox"))
