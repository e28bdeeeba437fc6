"""Small hand-made candidates for the judge tests."""

from __future__ import annotations

import pytest

from core.analysis.skeleton import make_skeleton
from core.records import Candidate, GeneratorSpec, Origin, Provenance

SOLUTION = '''class Counter:
    """Counts events per name."""

    def __init__(self):
        """Start with no counts."""
        self.counts = {}

    def add(self, name, times=1):
        """Count ``name`` ``times`` more times.

        :param name: the event name.
        :param times: how many; must be positive.
        :return: the new count of ``name``.
        :raises ValueError: if ``times`` is not positive.

        >>> Counter().add("x", 2)
        2
        """
        if times <= 0:
            raise ValueError("times must be positive")
        self.counts[name] = self.counts.get(name, 0) + times
        return self.counts[name]

    def total(self):
        """Return the sum of all counts.

        >>> c = Counter()
        >>> c.add("a")
        1
        >>> c.total()
        1
        """
        return sum(self.counts.values())
'''

SKELETON = make_skeleton(SOLUTION, "Counter")

TESTS = '''import pytest

from counter import Counter


@pytest.fixture
def counter():
    return Counter()


def test_add_then_total(counter):
    assert counter.add("a") == 1
    assert counter.add("a", 2) == 3
    assert counter.total() == 3


def test_times_must_be_positive(counter):
    with pytest.raises(ValueError):
        counter.add("a", 0)
'''


def make_candidate(solution: str = SOLUTION, skeleton: str = SKELETON, tests: str = TESTS) -> Candidate:
    return Candidate(candidate_id=Candidate.make_id("Counter", solution, tests), class_name="Counter",
                     module_name="counter", domains=("Utils_Tools",), description="Counts events per name.",
                     skeleton=skeleton, solution_code=solution, test_code=tests, origin=Origin.ENHANCED,
                     provenance=Provenance(), generator=GeneratorSpec(backend="offline"))


@pytest.fixture
def candidate() -> Candidate:
    return make_candidate()


def judge_run(store, survivors, panel, config=None):  # noqa: ANN001, ANN201
    """The judge stage (pipeline.stages.judge.JudgeStage, under the driver, in this process) with `panel` on
    `survivors`, written first as the gate survivors of run-1; returns its counts per layer."""
    from core.layout import Stage
    from core.settings import Settings
    from pipeline.stages.config import BuildConfig
    from pipeline.stages.driver import RunContext, ThreadExecutor, run_stage
    from pipeline.stages.judge import JudgeStage

    for candidate, report in survivors:
        store.write("run-1", Stage.ENHANCE, candidate.candidate_id, candidate)
        store.write("run-1", Stage.VALIDATE, candidate.candidate_id, report)
    return run_stage(JudgeStage(panel), RunContext(store, "run-1", config or BuildConfig(),
                                                        Settings.from_environment().with_artifacts(store.root)),
                     ThreadExecutor(jobs=1, pool=object()))
