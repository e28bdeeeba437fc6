"""The validate and repair stages' bookkeeping: reports written as they come, resume, repair in place of the
original.

The gate and the repair engine are replaced by small fakes here (they have their own tests and need the
sandbox); what is checked is what the stage writes and counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.funnel import StageCount
from core.layout import Folder, Stage
from core.records import Candidate, GateReport, GeneratorSpec, Origin, Provenance, Rejection, RejectReason
from core.settings import Settings
from core.store import ArtifactStore
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, ThreadExecutor, run_stage
from pipeline.stages.gate import GateStage, gate_rejection
from pipeline.stages.repair import RepairStage
from pipeline.stages.run_records import accepted_pairs


def _candidate(name: str, tests: str = "def test_x(): pass\n") -> Candidate:
    source = f"class {name}:\n    pass\n"
    return Candidate(candidate_id=Candidate.make_id(name, source, tests), class_name=name, module_name=name.lower(),
                     domains=("Math_Stats",), description="d", skeleton=source, solution_code=source, test_code=tests,
                     origin=Origin.ENHANCED, provenance=Provenance(seed_ids=("Math_Stats/x",)),
                     generator=GeneratorSpec(backend="offline"))


# Fake gate: a candidate passes when its tests mention "strong"; "Weak" fails on coverage, "Broken" on tests.
def _verdict(candidate: Candidate) -> GateReport:
    if "strong" in candidate.test_code:
        return GateReport(candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0)
    reason = RejectReason.TESTS_FAIL if candidate.class_name == "Broken" else RejectReason.LOW_COVERAGE
    return GateReport(candidate_id=candidate.candidate_id, passed=False, reasons=(reason,), line_coverage=0.5)


class FakePool:
    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.fixture
def fakes(monkeypatch):
    calls: list[str] = []

    def validate_guarded(candidate, policy, pool):
        calls.append(candidate.class_name)
        return _verdict(candidate)

    def repair_tests(candidate, report, *, pool):
        return _candidate(candidate.class_name, candidate.test_code + "def test_strong(): pass\n")

    monkeypatch.setattr("pipeline.stages.gate.validate_guarded", validate_guarded)
    monkeypatch.setattr("pipeline.stages.repair.repair_tests", repair_tests)
    monkeypatch.setattr("validation.sandbox.SandboxPool", FakePool)
    return calls


def _validate(store: ArtifactStore, config: BuildConfig) -> tuple[StageCount, StageCount]:
    """The gate, then the repair round, in threads of this process (one at a time: `calls` keeps order)."""
    ctx = RunContext(store, "run-1", config, Settings.from_environment().with_artifacts(store.root))
    executor = ThreadExecutor(jobs=1, pool=FakePool())
    return (run_stage(GateStage(), ctx, executor)[Stage.VALIDATE],
            run_stage(RepairStage(), ctx, executor)[Stage.REPAIR])


def test_validate_counts_repairs_and_keeps_rejections_as_records(tmp_path: Path, fakes):
    store = ArtifactStore(tmp_path)
    good, weak, broken = _candidate("Good", "def test_strong(): pass\n"), _candidate("Weak"), _candidate("Broken")
    for candidate in (good, weak, broken):
        store.write("run-1", Stage.ENHANCE, candidate.candidate_id, candidate)

    gate, repair = _validate(store, BuildConfig())

    assert (gate.received, gate.accepted) == (3, 1)
    assert gate.rejected == {RejectReason.TESTS_FAIL: 1, RejectReason.LOW_COVERAGE: 1}
    assert (repair.received, repair.accepted) == (1, 1) and repair.rejected == {}
    rejected = [r for _, r in store.iter_records("run-1", Folder.REJECTIONS, Rejection)]
    assert [(r.candidate_id, r.reason) for r in rejected] == [(broken.candidate_id, RejectReason.TESTS_FAIL)]
    accepted = {c.class_name: c for c, _ in accepted_pairs(store, "run-1")}
    assert set(accepted) == {"Good", "Weak"}
    assert "test_strong" in accepted["Weak"].test_code  # the repaired form replaces the original
    assert store.has("run-1", Stage.REPAIR, weak.candidate_id)


def test_a_resumed_validation_runs_only_what_has_no_report(tmp_path: Path, fakes):
    store = ArtifactStore(tmp_path)
    first, second = _candidate("First", "def test_strong(): pass\n"), _candidate("Second", "def test_strong(): pass\n")
    for candidate in (first, second):
        store.write("run-1", Stage.ENHANCE, candidate.candidate_id, candidate)
    store.write("run-1", Stage.VALIDATE, first.candidate_id, _verdict(first))  # left by an interrupted run

    gate, _ = _validate(store, BuildConfig())

    assert fakes == ["Second"]
    assert gate.accepted == 2


def test_repair_is_skipped_when_configured_off(tmp_path: Path, fakes):
    store = ArtifactStore(tmp_path)
    weak = _candidate("Weak")
    store.write("run-1", Stage.ENHANCE, weak.candidate_id, weak)

    gate, repair = _validate(store, BuildConfig(repair=False))

    assert repair.received == 0 and gate.accepted == 0
    assert [r.reason for _, r in store.iter_records("run-1", Folder.REJECTIONS, Rejection)] == [RejectReason.LOW_COVERAGE]


def test_validate_and_repair_report_progress_with_resumed_records(tmp_path: Path, fakes):
    import io

    from core import progress

    store = ArtifactStore(tmp_path)
    first, weak = _candidate("First", "def test_strong(): pass\n"), _candidate("Weak")
    for candidate in (first, weak):
        store.write("run-1", Stage.ENHANCE, candidate.candidate_id, candidate)
    store.write("run-1", Stage.VALIDATE, first.candidate_id, _verdict(first))  # left by an interrupted run
    out = io.StringIO()

    with progress.reporting(progress.LogReporter(out, every_records=1)):
        _validate(store, BuildConfig())

    lines = [line.split(" ", 2)[2] for line in out.getvalue().splitlines()]
    assert lines[0] == "validate: started (2 to do)"
    assert lines[1].startswith("validate: 1/2 (50%), 1 from an earlier attempt")
    assert lines[2].startswith("validate: 2/2 (100%), 1 from an earlier attempt")
    assert lines[3].startswith("validate: finished 2/2 (100%) in ")
    assert lines[4] == "repair: started (1 to do)"
    assert lines[-2].startswith("repair: 1/1 (100%)")  # the repaired candidate gated within its item
    assert lines[-1].startswith("repair: finished 1/1 (100%) in ")


def test_a_candidate_the_gate_could_not_check_is_rejected_with_its_traceback():
    from validation.gate import internal_error_report

    crash = _candidate("Crash")
    try:
        raise RuntimeError("the gate tripped")
    except RuntimeError as exc:
        report = internal_error_report(crash, exc, 1)
    rejection = gate_rejection(crash.candidate_id, report)
    assert rejection.reason is RejectReason.INTERNAL_ERROR and rejection.detail == "RuntimeError: the gate tripped"
    assert 'raise RuntimeError("the gate tripped")' in rejection.evidence["traceback"]


def test_the_validate_command_s_stage_runs_the_build_s_gate_work_through_the_driver(tmp_path, monkeypatch):
    """`GateOnInputs` (the `validate` command): the build's work for one candidate (`gate_one`, an internal
    error tried again), the reports in input order, the command's policy and pool, and no run written."""
    from pipeline.stages import driver
    from pipeline.stages.driver import command_context
    from pipeline.stages.inputs import GateOnInputs
    from validation.policy import GatePolicy

    policy, pool, seen = GatePolicy(run_mutation=False), FakePool(), []
    flaky = {"Flaky": 1}  # fails for a passing reason once

    def validate_guarded(candidate, given_policy, given_pool):
        seen.append((candidate.class_name, given_policy is policy, given_pool is pool))
        if flaky.get(candidate.class_name):
            flaky[candidate.class_name] -= 1
            return GateReport(candidate_id=candidate.candidate_id, passed=False, reasons=(RejectReason.INTERNAL_ERROR,))
        return _verdict(candidate)

    monkeypatch.setattr("pipeline.stages.gate.validate_guarded", validate_guarded)
    monkeypatch.setattr(driver, "RETRY_DELAY_S", 0)
    candidates = [_candidate("Broken"), _candidate("Flaky", "def test_strong(): pass\n"), _candidate("Broken")]
    settings = Settings(artifacts=tmp_path / "artifacts", seeds=tmp_path, domains=tmp_path)
    reports = run_stage(GateOnInputs(candidates, policy), command_context(settings), ThreadExecutor(jobs=2, pool=pool))
    assert [(r.candidate_id, r.passed) for r in reports] == [(c.candidate_id, c.class_name == "Flaky") for c in candidates]
    assert sorted(seen) == [("Broken", True, True)] * 2 + [("Flaky", True, True)] * 2
    assert not (tmp_path / "artifacts").exists()  # a command's stage reads and writes no run
