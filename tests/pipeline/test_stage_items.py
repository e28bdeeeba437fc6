"""The stages item by item, under the driver: an item's work writes the same records whatever order or
executor runs it, the driver skips what an earlier attempt finished, retries a passing failure (and the
item writes nothing unless it is its last attempt), and a finished stage is not run again.

Synthesis and the gate are replaced by small fakes here (they have their own tests and need the sandbox);
what is checked is what the items write and count. The Prefect executor (tasks, retries, runners) is
tested in tests/flows.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path

import pytest

from core import stopping
from core.layout import Folder, Stage, record_file_id
from core.records import Candidate, GateReport, GeneratorSpec, Origin, Provenance, Rejection, RejectReason, SeedClass
from core.settings import Settings
from core.store import ArtifactStore
from pipeline.stages import driver
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, ThreadExecutor, TransientFailure, run_stage
from pipeline.stages.gate import GateStage
from pipeline.stages.judge import JudgeStage
from pipeline.stages.repair import RepairStage
from pipeline.stages.synthesis import SynthesisStage

RUN = "run-1"
SEEDS = (("Math_Stats", "Histogram"), ("Math_Stats", "Mean"), ("Utils_Tools", "Units"))


def _seed(domain: str, name: str) -> SeedClass:
    source = f"class {name}:\n    def f(self):\n        return 1\n"
    return SeedClass(seed_id=f"{domain}/{name.lower()}", domain=domain, name=name.lower(), class_name=name,
                     description=f"{name}.", source=source, tests=f"def test_{name.lower()}():\n    pass\n",
                     provenance=Provenance(licence="MIT"))


def _candidate(name: str, seeds: tuple[str, ...]) -> Candidate:
    source = f"class {name}:\n    pass\n"
    return Candidate(candidate_id=Candidate.make_id(name, source, "t"), class_name=name, module_name=name.lower(),
                     domains=("Math_Stats",), description="d", skeleton=source, solution_code=source, test_code="t",
                     origin=Origin.ENHANCED, provenance=Provenance(seed_ids=seeds), generator=GeneratorSpec(backend="offline"))


def _made(seeds: list[SeedClass]) -> list[Candidate | Rejection]:
    """Fake synthesis: two candidates per seed, except Mean, which is rejected; a pair makes one candidate."""
    ids = tuple(s.seed_id for s in seeds)
    name = "".join(s.class_name for s in seeds)
    if name == "Mean":
        return [Rejection(candidate_id=f"enh-{name}", stage="enhance", reason=RejectReason.GENERATION_FAILED, detail="x")]
    if name == "Units" and FLAKY:
        return [Rejection(candidate_id=f"enh-{name}", stage="enhance", reason=RejectReason.INTERNAL_ERROR, detail="lost")]
    return [_candidate(name + suffix, ids) for suffix in (("A", "B") if len(seeds) == 1 else ("",))]


FLAKY: list[bool] = []


@pytest.fixture
def store(tmp_path: Path, monkeypatch) -> ArtifactStore:
    monkeypatch.setattr("pipeline.stages.synthesis.enhance_seed", lambda seed, config, *, pool: _made([seed]))
    monkeypatch.setattr("pipeline.stages.synthesis.compose_guarded", lambda pair, config, *, pool: _made(list(pair)))
    monkeypatch.setattr("validation.sandbox.SandboxPool", lambda *args, **kwargs: nullcontext(object()))
    FLAKY.clear()
    store = ArtifactStore(tmp_path / "artifacts")
    for domain, name in SEEDS:
        seed = _seed(domain, name)
        store.write(RUN, Stage.SEEDS, record_file_id(seed.seed_id), seed)
    return store


def _ctx(store: ArtifactStore, config: BuildConfig | None = None) -> RunContext:
    return RunContext(store, RUN, config or BuildConfig(), Settings.from_environment().with_artifacts(store.root))


class _Serial:
    """An executor that runs the items in reverse order, one at a time, and remembers what it was given."""

    def __init__(self) -> None:
        self.given: list[list[str]] = []

    def run(self, stage, ctx, items, on_done):  # noqa: ANN001
        self.given.append(list(items))
        for item in reversed(items):  # any order: records are named by content, not by arrival
            on_done(item, driver.with_retries(lambda last: stage.run_one(ctx, item, None, last_attempt=last)))


def _files(store: ArtifactStore, folders: tuple[str, ...]) -> dict[str, str]:
    return {str(p.relative_to(store.runs / RUN)): p.read_text() for folder in folders
            for p in sorted((store.runs / RUN / folder).glob("*.json"))}


@pytest.mark.parametrize("stage", [Stage.ENHANCE, Stage.COMPOSE])
def test_every_executor_writes_and_counts_the_same(store: ArtifactStore, tmp_path: Path, stage):
    serial = _Serial()
    counts = run_stage(SynthesisStage(stage), _ctx(store), serial)
    [items] = serial.given
    assert items and counts[stage].received == len(items)

    threads = ArtifactStore(tmp_path / "threads")
    for _, seed in store.iter_records(RUN, Stage.SEEDS, SeedClass):
        threads.write(RUN, Stage.SEEDS, record_file_id(seed.seed_id), seed)
    assert run_stage(SynthesisStage(stage), _ctx(threads), ThreadExecutor(jobs=2, pool=object())) == counts
    folders = (stage, Folder.REJECTIONS, Folder.SYNTHESIS_WORK)
    assert _files(store, folders) == _files(threads, folders)
    if stage == Stage.ENHANCE:
        assert counts[stage].accepted == 4 and counts[stage].rejected == {RejectReason.GENERATION_FAILED: 1}


def test_a_finished_item_or_stage_is_not_run_again(store: ArtifactStore, monkeypatch):
    ctx, enhance = _ctx(store), SynthesisStage(Stage.ENHANCE)
    first = enhance.run_one(ctx, "Math_Stats/histogram", None, last_attempt=True)
    serial = _Serial()
    counts = run_stage(enhance, ctx, serial)
    assert "Math_Stats/histogram" not in serial.given[0]  # resumed: the written item is skipped
    monkeypatch.setattr("pipeline.stages.synthesis.enhance_seed", lambda *a, **k: pytest.fail("made again"))
    assert enhance.run_one(ctx, "Math_Stats/histogram", None, last_attempt=True) == first
    assert len(first.candidate_ids) == 2 and first.count.accepted == 2
    assert run_stage(enhance, ctx, serial) == counts and len(serial.given) == 1  # done marker: nothing run
    assert (store.runs / RUN / "enhance.done.json").is_file()


def test_a_passing_failure_writes_nothing_until_the_last_attempt(store: ArtifactStore):
    FLAKY.append(True)
    ctx, enhance = _ctx(store), SynthesisStage(Stage.ENHANCE)
    with pytest.raises(TransientFailure, match="lost"):
        enhance.run_one(ctx, "Utils_Tools/units", None, last_attempt=False)
    assert _files(store, (Folder.REJECTIONS, Folder.SYNTHESIS_WORK)) == {}
    work = enhance.run_one(ctx, "Utils_Tools/units", None, last_attempt=True)
    assert work.count.rejected == {RejectReason.INTERNAL_ERROR: 1}  # the last attempt's outcome is the record's data
    [(_, rejection)] = store.iter_records(RUN, Folder.REJECTIONS, Rejection)
    assert rejection.detail == "lost"


def test_the_driver_retries_a_passing_failure_and_marks_the_last_attempt(monkeypatch):
    monkeypatch.setattr(driver, "RETRY_DELAY_S", 0)
    attempts: list[bool] = []

    def flaky(last_attempt: bool) -> str:
        attempts.append(last_attempt)
        if len(attempts) < 3:
            raise TransientFailure("worker lost")
        return "written"

    assert driver.with_retries(flaky) == "written" and attempts == [False, False, True]
    with pytest.raises(ValueError):  # any other error is not retried
        driver.with_retries(lambda last: attempts.append(last) or int("x"))
    assert len(attempts) == 4


def test_a_stopped_build_starts_no_item(store: ArtifactStore):
    stopping.reset()
    stopping.request("interrupted", 130)
    try:
        with pytest.raises(stopping.BuildStopped):
            run_stage(SynthesisStage(Stage.ENHANCE), _ctx(store), ThreadExecutor(pool=object()))
    finally:
        stopping.reset()
    assert _files(store, (Stage.ENHANCE, Folder.SYNTHESIS_WORK)) == {}


def test_an_item_naming_a_seed_the_run_did_not_record_is_an_input_error(store: ArtifactStore):
    from core.errors import InputError

    with pytest.raises(InputError, match="Math_Stats/nothing"):
        SynthesisStage(Stage.COMPOSE).run_one(_ctx(store), "Math_Stats/histogram+Math_Stats/nothing", None,
                                                     last_attempt=True)


def test_the_gate_per_candidate_retries_what_the_gate_could_not_check(store: ArtifactStore, monkeypatch):
    from validation.gate import internal_error_report

    good, crash = _candidate("Good", ("Math_Stats/histogram",)), _candidate("Crash", ("Math_Stats/histogram",))
    for candidate in (good, crash):
        store.write(RUN, Stage.ENHANCE, candidate.candidate_id, candidate)
    calls: list[str] = []

    def validate_guarded(candidate, policy, pool):
        calls.append(candidate.class_name)
        if candidate.class_name == "Crash":
            return internal_error_report(candidate, RuntimeError("sandbox pool is closed"), 1)
        return GateReport(candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0)

    monkeypatch.setattr("pipeline.stages.gate.validate_guarded", validate_guarded)
    ctx, gate = _ctx(store), GateStage()
    assert gate.run_one(ctx, good.candidate_id, None, last_attempt=False) is True
    assert gate.run_one(ctx, good.candidate_id, None, last_attempt=True) is True  # read back, not rerun
    with pytest.raises(TransientFailure, match="sandbox pool is closed"):
        gate.run_one(ctx, crash.candidate_id, None, last_attempt=False)
    assert not store.has(RUN, Stage.VALIDATE, crash.candidate_id)
    assert gate.run_one(ctx, crash.candidate_id, None, last_attempt=True) is False
    report = json.loads(store.record_path(RUN, Stage.VALIDATE, crash.candidate_id).read_text())
    assert report["reasons"] == ["internal_error"]
    assert calls == ["Good", "Crash", "Crash"]


def test_the_gate_is_given_only_the_candidates_without_a_report(store: ArtifactStore, monkeypatch):
    done, todo = _candidate("Done", ("Math_Stats/histogram",)), _candidate("Todo", ("Math_Stats/histogram",))
    for candidate in (done, todo):
        store.write(RUN, Stage.ENHANCE, candidate.candidate_id, candidate)
    store.write(RUN, Stage.VALIDATE, done.candidate_id,
                GateReport(candidate_id=done.candidate_id, passed=True, line_coverage=1.0))
    monkeypatch.setattr("pipeline.stages.gate.validate_guarded", lambda candidate, policy, pool: GateReport(
        candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0))
    serial = _Serial()
    gate = run_stage(GateStage(), _ctx(store), serial)[Stage.VALIDATE]
    repair = run_stage(RepairStage(), _ctx(store), serial)[Stage.REPAIR]
    assert serial.given == [[todo.candidate_id]]  # nothing to repair: no second call
    assert (gate.received, gate.accepted, repair.received) == (2, 2, 0)
    assert store.has(RUN, Stage.VALIDATE, todo.candidate_id)


class _Judge:
    """A judge that accepts, rejects, or (while `outage` holds) abstains because its model call failed."""

    def __init__(self, name: str, decision, outage: list[bool] | None = None):
        from core.records import JudgeSpec

        self.spec = JudgeSpec(backend="litellm", name=name, model=f"openai/{name}")
        self.decision, self.outage = decision, outage

    def review(self, candidate, report):
        from core.records import Finding, Verdict
        from judges.model_judge import CALL_FAILED
        from judges.protocol import abstention

        if self.outage:
            return abstention(candidate.candidate_id, self.spec, f"{CALL_FAILED}: 503 after 4 retries")
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec, decision=self.decision,
                       findings=(Finding(criterion="coherent", ok=True),))


def test_judges_one_survivor_at_a_time_decide_and_count(store: ArtifactStore):
    from core.records import Decision
    from judges.decisions import read_decisions
    from judges.panel import Panel
    from judges.rules import DecisionRule

    outage = [True]
    panel = Panel([_Judge("a", Decision.ACCEPT, outage), _Judge("b", Decision.REJECT), _Judge("c", Decision.ACCEPT)],
                  DecisionRule.parse("majority"))
    kept, failed, repaired = (_candidate(n, ("Math_Stats/histogram",)) for n in ("Kept", "Failed", "Original"))
    fixed = _candidate("Fixed", ("Math_Stats/histogram",))
    for candidate in (kept, failed, repaired):
        store.write(RUN, Stage.ENHANCE, candidate.candidate_id, candidate)
    store.write(RUN, Stage.REPAIR, repaired.candidate_id, fixed)
    for candidate, passed in ((kept, True), (failed, False), (repaired, False), (fixed, True)):
        store.write(RUN, Stage.VALIDATE, candidate.candidate_id,
                    GateReport(candidate_id=candidate.candidate_id, passed=passed, line_coverage=1.0))

    models = BuildConfig.model_validate({"judges": {"offline": False, "models": ["openai/a", "openai/b", "openai/c"]}})
    ctx, judge = _ctx(store, models), JudgeStage(panel)  # the fake panel is the model layer
    items = judge.items(ctx)
    assert sorted(items) == sorted([kept.candidate_id, repaired.candidate_id])  # named by the generated id
    with pytest.raises(TransientFailure, match="503"):
        judge.run_one(ctx, kept.candidate_id, None, last_attempt=False)
    assert read_decisions(store, RUN) == {}  # nothing written while attempts remain
    outage.clear()  # the model answers again on the retry
    counts = run_stage(judge, ctx, _Serial())
    assert sorted(read_decisions(store, RUN)) == sorted([kept.candidate_id, fixed.candidate_id])  # the repaired form
    [(step, count)] = counts.items()
    assert step == "judge models" and (count.received, count.accepted) == (2, 2)


def test_the_last_attempt_keeps_a_failed_model_call_as_an_abstention(store: ArtifactStore):
    from core.records import Decision
    from judges.decisions import read_decisions
    from judges.panel import Panel
    from judges.rules import DecisionRule

    panel = Panel([_Judge("a", Decision.ACCEPT, [True]), _Judge("b", Decision.ACCEPT, [True]),
                   _Judge("c", Decision.ACCEPT)], DecisionRule.parse("majority"))
    kept = _candidate("Kept", ("Math_Stats/histogram",))
    store.write(RUN, Stage.ENHANCE, kept.candidate_id, kept)
    store.write(RUN, Stage.VALIDATE, kept.candidate_id,
                GateReport(candidate_id=kept.candidate_id, passed=True, line_coverage=1.0))
    JudgeStage(panel).run_one(_ctx(store), kept.candidate_id, None, last_attempt=True)
    [decision] = read_decisions(store, RUN).values()
    assert [v.decision for v in decision.verdicts] == [Decision.ABSTAIN, Decision.ABSTAIN, Decision.ACCEPT]
    assert decision.outcome.value == "held"
    [(_, rejection)] = store.iter_records(RUN, Folder.REJECTIONS, Rejection)
    assert rejection.reason is RejectReason.JUDGE_ABSTAINED


def test_a_resumed_run_keeps_the_domain_registry_it_recorded(store: ArtifactStore, tmp_path: Path):
    """An edit to the live registry between two attempts does not change the pairs of the run."""
    import shutil

    from core.settings import PROJECT_ROOT

    live = tmp_path / "domains.toml"
    shutil.copy(PROJECT_ROOT / "seeds" / "domains.toml", live)

    def compose_items() -> list[str]:
        settings = Settings(artifacts=store.root, seeds=tmp_path, domains=live)
        return SynthesisStage(Stage.COMPOSE).items(RunContext(store, RUN, BuildConfig(), settings))

    pairs = compose_items()  # a run that recorded no registry gets the live one recorded now
    assert pairs and (store.runs / RUN / "domains.json").is_file()
    edited = live.read_text().replace('name = "Math_Stats"\n', 'name = "Math_Stats"\ncomposable_with = ["Text_NLP"]\n')
    assert edited != live.read_text()
    live.write_text(edited)  # Math_Stats may no longer be paired with Utils_Tools
    assert compose_items() == pairs


def test_the_release_builds_each_task_as_an_item_then_assembles_them_in_the_gate_s_order(store: ArtifactStore,
                                                                                          monkeypatch):
    from core.funnel import Funnel, StageCount
    from core.records import Task
    from pipeline.release.assemble import ReleaseResult
    from pipeline.stages.release import ReleaseStage
    from pipeline.stages.runs import finished_outcome

    candidates = [_candidate(name, ("Math_Stats/mean",)) for name in ("Zeta", "Alpha", "Mid")]
    for candidate in candidates:
        store.write(RUN, Stage.ENHANCE, candidate.candidate_id, candidate)
        store.write(RUN, Stage.VALIDATE, candidate.candidate_id,
                    GateReport(candidate_id=candidate.candidate_id, passed=candidate.class_name != "Mid"))
    assembled: list[list[str]] = []

    def release(store, run_id, tasks, funnel, config, **kwargs):  # noqa: ANN001, ANN003
        assembled.append([t.class_name for t in tasks])
        count = StageCount(received=len(tasks), accepted=len(tasks))
        return ReleaseResult("2026.12.0", None, [t.task_id for t in tasks], [], funnel.with_stage("release", count), "made")

    monkeypatch.setattr("pipeline.stages.release.release", release)
    ctx = _ctx(store, BuildConfig.model_validate({"judges": {"enabled": False}}))
    serial = _Serial()
    counts = run_stage(ReleaseStage(Funnel(run_id=RUN)), ctx, serial)
    passed = [c for c in sorted(candidates, key=lambda c: c.candidate_id) if c.class_name != "Mid"]
    # every task is an item of its own, written as a record; the release comes after them, alone
    assert serial.given == [[c.candidate_id for c in passed], [ReleaseStage.ITEM]]
    written = [task.class_name for _, task in store.iter_records(RUN, Folder.RELEASE_TASKS, Task)]
    assert written == [c.class_name for c in passed]
    assert assembled == [[c.class_name for c in passed]]  # in the gate's order, whatever order they were built in
    assert counts == {Stage.RELEASE: StageCount(received=2, accepted=2)}
    assert finished_outcome(store, RUN).version == "2026.12.0"
    assert run_stage(ReleaseStage(Funnel(run_id=RUN)), ctx, serial) == counts and len(serial.given) == 2
