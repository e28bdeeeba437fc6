"""The per-record units the build flow maps over: each writes exactly what the whole stage writes, counts the
same, skips what an earlier attempt finished, and on a passing failure writes nothing unless it is the
record's last attempt.

Synthesis and the gate are replaced by small fakes here (they have their own tests and need the sandbox);
what is checked is what the units write and count. The Prefect side (tasks, retries, runners) is tested in
tests/flows.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path

import pytest

from pipeline import per_record, stages
from pipeline.config import BuildConfig
from pipeline.base.records import (Candidate, GateReport, GeneratorSpec, Origin, Provenance, Rejection, RejectReason,
                              SeedClass)
from pipeline.base.store import ArtifactStore

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
    def enhance_seeds(seeds, config, *, pool, jobs=1, on_done=None):
        for seed in seeds:
            yield from _made([seed])
            if on_done is not None:
                on_done()

    monkeypatch.setattr("pipeline.synthesis.enhance.enhance_seeds", enhance_seeds)
    monkeypatch.setattr("pipeline.synthesis.compose.compose_guarded", lambda pair, config, *, pool: _made(list(pair)))
    monkeypatch.setattr("validation.sandbox.SandboxPool", lambda *args, **kwargs: nullcontext(object()))
    FLAKY.clear()
    store = ArtifactStore(tmp_path / "artifacts")
    for domain, name in SEEDS:
        seed = _seed(domain, name)
        store.write(RUN, stages.SEEDS_STAGE, stages.record_file_id(seed.seed_id), seed)
    return store


def _files(store: ArtifactStore, folders: tuple[str, ...]) -> dict[str, str]:
    return {str(p.relative_to(store.runs / RUN)): p.read_text() for folder in folders
            for p in sorted((store.runs / RUN / folder).glob("*.json"))}


@pytest.mark.parametrize("stage", [stages.ENHANCE_STAGE, stages.COMPOSE_STAGE])
def test_items_one_at_a_time_write_and_count_what_the_whole_stage_does(store: ArtifactStore, tmp_path: Path, stage):
    config = BuildConfig()
    items = per_record.synthesis_items(store, RUN, stage, config)
    assert items and per_record.pending_items(store, RUN, stage, items) == items
    for item in reversed(items):  # any order: records are named by content, not by arrival
        per_record.synthesize_one(store, RUN, stage, item, config, pool=None)
    assert per_record.pending_items(store, RUN, stage, items) == []
    per_item = per_record.synthesis_count(store, RUN, stage, items)

    whole = ArtifactStore(tmp_path / "whole")
    for _, seed in store.iter_records(RUN, stages.SEEDS_STAGE, SeedClass):
        whole.write(RUN, stages.SEEDS_STAGE, stages.record_file_id(seed.seed_id), seed)
    run_stage = stages.stage_enhance if stage == stages.ENHANCE_STAGE else stages.stage_compose
    assert run_stage(whole, RUN, config) == per_item
    assert per_item.received == len(items)
    assert _files(store, (stage, stages.REJECTIONS)) == _files(whole, (stage, stages.REJECTIONS))
    if stage == stages.ENHANCE_STAGE:
        assert per_item.accepted == 4 and per_item.rejected == {RejectReason.GENERATION_FAILED: 1}


def test_a_finished_item_is_not_made_again(store: ArtifactStore, monkeypatch):
    config = BuildConfig()
    first = per_record.synthesize_one(store, RUN, stages.ENHANCE_STAGE, "Math_Stats/histogram", config, pool=None)
    monkeypatch.setattr("pipeline.synthesis.enhance.enhance_seeds", lambda *a, **k: pytest.fail("made again"))
    assert per_record.synthesize_one(store, RUN, stages.ENHANCE_STAGE, "Math_Stats/histogram", config, pool=None) == first
    assert len(first.candidate_ids) == 2 and first.count.accepted == 2


def test_a_passing_failure_writes_nothing_until_the_last_attempt(store: ArtifactStore):
    FLAKY.append(True)
    config = BuildConfig()
    with pytest.raises(per_record.TransientFailure, match="lost"):
        per_record.synthesize_one(store, RUN, stages.ENHANCE_STAGE, "Utils_Tools/units", config, pool=None,
                                  last_attempt=False)
    assert _files(store, (stages.REJECTIONS, per_record.WORK_STAGE)) == {}
    work = per_record.synthesize_one(store, RUN, stages.ENHANCE_STAGE, "Utils_Tools/units", config, pool=None,
                                     last_attempt=True)
    assert work.count.rejected == {RejectReason.INTERNAL_ERROR: 1}  # the last attempt's outcome is the record's data
    [(_, rejection)] = store.iter_records(RUN, stages.REJECTIONS, Rejection)
    assert rejection.detail == "lost"


def test_an_item_naming_a_seed_the_run_did_not_record_is_an_input_error(store: ArtifactStore):
    from pipeline.base.errors import InputError

    with pytest.raises(InputError, match="Math_Stats/nothing"):
        per_record.synthesize_one(store, RUN, stages.COMPOSE_STAGE, "Math_Stats/histogram+Math_Stats/nothing",
                                  BuildConfig(), pool=None)


def test_the_gate_per_candidate_retries_what_the_gate_could_not_check(store: ArtifactStore, monkeypatch):
    from validation.gate import internal_error_report

    good, crash = _candidate("Good", ("Math_Stats/histogram",)), _candidate("Crash", ("Math_Stats/histogram",))
    for candidate in (good, crash):
        store.write(RUN, stages.ENHANCE_STAGE, candidate.candidate_id, candidate)
    calls: list[str] = []

    def validate_guarded(candidate, policy, pool):
        calls.append(candidate.class_name)
        if candidate.class_name == "Crash":
            return internal_error_report(candidate, RuntimeError("sandbox pool is closed"), 1)
        return GateReport(candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0)

    monkeypatch.setattr("validation.gate.validate_guarded", validate_guarded)
    config = BuildConfig()
    assert per_record.gate_one(store, RUN, good.candidate_id, config, pool=None, last_attempt=False) is True
    assert per_record.gate_one(store, RUN, good.candidate_id, config, pool=None) is True  # read back, not rerun
    with pytest.raises(per_record.TransientFailure, match="sandbox pool is closed"):
        per_record.gate_one(store, RUN, crash.candidate_id, config, pool=None, last_attempt=False)
    assert not store.has(RUN, stages.VALIDATE_STAGE, crash.candidate_id)
    assert per_record.gate_one(store, RUN, crash.candidate_id, config, pool=None, last_attempt=True) is False
    report = json.loads(store.record_path(RUN, stages.VALIDATE_STAGE, crash.candidate_id).read_text())
    assert report["reasons"] == ["internal_error"]
    assert calls == ["Good", "Crash", "Crash"]


def test_validate_uses_the_given_gate_runner_for_the_first_pass(store: ArtifactStore, monkeypatch):
    """The flow hands stage_validate a runner that maps a task per candidate; the stage gives it only the
    candidates without a report and keeps what it hands back."""
    done, todo = _candidate("Done", ("Math_Stats/histogram",)), _candidate("Todo", ("Math_Stats/histogram",))
    for candidate in (done, todo):
        store.write(RUN, stages.ENHANCE_STAGE, candidate.candidate_id, candidate)
    store.write(RUN, stages.VALIDATE_STAGE, done.candidate_id,
                GateReport(candidate_id=done.candidate_id, passed=True, line_coverage=1.0))
    given: list[list[str]] = []

    def run_gate(candidates, keep):
        given.append([c.class_name for c in candidates])
        for candidate in candidates:
            keep(candidate, GateReport(candidate_id=candidate.candidate_id, passed=True, line_coverage=1.0))

    gate, repair = stages.stage_validate(store, RUN, BuildConfig(), run_gate=run_gate)
    assert given == [["Todo"]]
    assert (gate.received, gate.accepted, repair.received) == (2, 2, 0)
    assert store.has(RUN, stages.VALIDATE_STAGE, todo.candidate_id)


class _Judge:
    """A judge that accepts, rejects, or (while `outage` holds) abstains because its model call failed."""

    def __init__(self, name: str, decision, outage: list[bool] | None = None):
        from pipeline.base.records import JudgeSpec

        self.spec = JudgeSpec(backend="litellm", name=name, model=f"openai/{name}")
        self.decision, self.outage = decision, outage

    def review(self, candidate, report):
        from judges.model_judge import CALL_FAILED
        from judges.protocol import abstention
        from pipeline.base.records import Finding, Verdict

        if self.outage:
            return abstention(candidate.candidate_id, self.spec, f"{CALL_FAILED}: 503 after 4 retries")
        return Verdict(candidate_id=candidate.candidate_id, judge=self.spec, decision=self.decision,
                       findings=(Finding(criterion="coherent", ok=True),))


def test_judges_one_survivor_at_a_time_decide_and_count_what_the_whole_stage_does(store: ArtifactStore, tmp_path):
    from contextlib import contextmanager

    from judges.panel import Panel
    from judges.rules import DecisionRule
    from judges.stage import judge_survivors, read_decisions, tally_decisions
    from pipeline.base.records import Decision

    outage = [True]
    panel = Panel([_Judge("a", Decision.ACCEPT, outage), _Judge("b", Decision.REJECT), _Judge("c", Decision.ACCEPT)],
                  DecisionRule.parse("majority"))
    kept, failed, repaired = (_candidate(n, ("Math_Stats/histogram",)) for n in ("Kept", "Failed", "Original"))
    fixed = _candidate("Fixed", ("Math_Stats/histogram",))
    for candidate in (kept, failed, repaired):
        store.write(RUN, stages.ENHANCE_STAGE, candidate.candidate_id, candidate)
    store.write(RUN, stages.REPAIR_STAGE, repaired.candidate_id, fixed)
    for candidate, passed in ((kept, True), (failed, False), (repaired, False), (fixed, True)):
        store.write(RUN, stages.VALIDATE_STAGE, candidate.candidate_id,
                    GateReport(candidate_id=candidate.candidate_id, passed=passed, line_coverage=1.0))

    items = per_record.judge_items(store, RUN)
    assert sorted(items) == sorted([kept.candidate_id, repaired.candidate_id])  # named by the generated id
    with pytest.raises(per_record.TransientFailure, match="503"):
        per_record.judge_one(store, RUN, kept.candidate_id, panel, last_attempt=False)
    assert read_decisions(store, RUN) == {}  # nothing written while attempts remain
    outage.clear()  # the model answers again on the retry
    decided = [per_record.judge_one(store, RUN, item, panel, last_attempt=False) for item in items]
    assert sorted(decided) == sorted([kept.candidate_id, fixed.candidate_id])  # the repaired form is judged
    assert [per_record.judged_id(store, RUN, item) for item in items] == decided
    counts, _ = tally_decisions(store, RUN, [read_decisions(store, RUN)[d] for d in decided])

    whole = ArtifactStore(tmp_path / "whole")

    @contextmanager
    def open_panel():
        yield panel

    assert judge_survivors(whole, RUN, list(stages.accepted_pairs(store, RUN)), open_panel)[0] == counts
    [(step, count)] = counts.items()
    assert step == "judge models" and (count.received, count.accepted) == (2, 2)


def test_the_last_attempt_keeps_a_failed_model_call_as_an_abstention(store: ArtifactStore):
    from judges.panel import Panel
    from judges.rules import DecisionRule
    from judges.stage import read_decisions
    from pipeline.base.records import Decision

    panel = Panel([_Judge("a", Decision.ACCEPT, [True]), _Judge("b", Decision.ACCEPT, [True]),
                   _Judge("c", Decision.ACCEPT)], DecisionRule.parse("majority"))
    kept = _candidate("Kept", ("Math_Stats/histogram",))
    store.write(RUN, stages.ENHANCE_STAGE, kept.candidate_id, kept)
    store.write(RUN, stages.VALIDATE_STAGE, kept.candidate_id,
                GateReport(candidate_id=kept.candidate_id, passed=True, line_coverage=1.0))
    per_record.judge_one(store, RUN, kept.candidate_id, panel, last_attempt=True)
    [decision] = read_decisions(store, RUN).values()
    assert [v.decision for v in decision.verdicts] == [Decision.ABSTAIN, Decision.ABSTAIN, Decision.ACCEPT]
    assert decision.outcome.value == "held"
    [(_, rejection)] = store.iter_records(RUN, stages.REJECTIONS, Rejection)
    assert rejection.reason is RejectReason.JUDGE_ABSTAINED
