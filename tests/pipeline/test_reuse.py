"""Results reused across runs by content (core/results.py, pipeline/stages/reuse.py): a run that meets the
inputs an earlier run worked on writes the same records without the work, byte for byte; a changed input,
setting or stage version misses; a damaged entry is recomputed; two processes sharing one store leave it
whole; a candidate an earlier release holds is reported `duplicate` before the sandbox sees it.

Synthesis is replaced by a counting fake here (its records are then deterministic, so a run that computed
everything can be compared byte for byte); the gate runs for real in the sandbox in the last tests.
"""

from __future__ import annotations

import multiprocessing
import os
from contextlib import nullcontext
from pathlib import Path

import pytest
from typer.testing import CliRunner

from commands.main import app
from core.layout import Folder, Stage, record_file_id
from core.records import Candidate, GateReport, GeneratorSpec, Origin, Provenance, Rejection, RejectReason, SeedClass

from core.results import ResultStore
from core.settings import Settings
from core.store import ArtifactStore
from pipeline.release.dedup import module_structure
from pipeline.stages.config import BuildConfig, CacheConfig
from pipeline.stages.driver import RunContext, ThreadExecutor, run_stage
from pipeline.stages import reuse
from pipeline.stages.gate import GateStage
from pipeline.stages.judge import JudgeStage
from pipeline.stages.repair import RepairStage
from core.results import REUSE_FILE, run_reuse
from pipeline.stages.synthesis import SynthesisStage
from validation.policy import GatePolicy

SEEDS = (("Math_Stats", "Histogram"), ("Math_Stats", "Mean"), ("Utils_Tools", "Units"))
FOLDERS = (Stage.ENHANCE, Folder.REJECTIONS, Folder.SYNTHESIS_WORK)
MADE: list[str] = []  # the seeds the fake synthesis worked on
FAIL_INTERNALLY: set[str] = set()


def _seed(domain: str, name: str, body: str = "return 1") -> SeedClass:
    source = f"class {name}:\n    def f(self):\n        {body}\n"
    return SeedClass(seed_id=f"{domain}/{name.lower()}", domain=domain, name=name.lower(), class_name=name,
                     description=f"{name}.", source=source, tests=f"def test_{name.lower()}():\n    pass\n",
                     provenance=Provenance(licence="MIT"))


def _made(seed: SeedClass, config, *, pool) -> list[Candidate | Rejection]:  # noqa: ANN001
    """Fake enhance: one candidate per seed, made of its source and the setting that shapes it."""
    MADE.append(seed.seed_id)
    if seed.class_name in FAIL_INTERNALLY:
        return [Rejection(candidate_id=f"enh-{seed.class_name}", stage="enhance", reason=RejectReason.INTERNAL_ERROR,
                          detail="lost")]
    source = seed.source + f"    LEVEL = {config.max_features}\n"
    return [Candidate(candidate_id=Candidate.make_id(seed.class_name, source, "t"), class_name=seed.class_name,
                      module_name=seed.name, domains=(seed.domain,), description="d", skeleton=source,
                      solution_code=source, test_code="t", origin=Origin.ENHANCED,
                      provenance=Provenance(seed_ids=(seed.seed_id,)), generator=GeneratorSpec(backend="offline"))]


@pytest.fixture
def artifacts(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setattr("pipeline.stages.synthesis.enhance_seed", _made)
    monkeypatch.setattr("validation.sandbox.SandboxPool", lambda *args, **kwargs: nullcontext(object()))
    MADE.clear()
    FAIL_INTERNALLY.clear()
    return tmp_path / "artifacts"


def _run(artifacts: Path, run_id: str, config: BuildConfig | None = None, seeds=SEEDS, **changed: str) -> ArtifactStore:
    """Record the seeds under `run_id` (a seed's body replaced by `changed[name]`), then run enhance."""
    store = ArtifactStore(artifacts)
    for domain, name in seeds:
        seed = _seed(domain, name, changed.get(name, "return 1"))
        store.write(run_id, Stage.SEEDS, record_file_id(seed.seed_id), seed)
    ctx = RunContext(store, run_id, config or BuildConfig(), Settings.from_environment().with_artifacts(artifacts))
    run_stage(SynthesisStage(Stage.ENHANCE), ctx, ThreadExecutor(jobs=2, pool=object()))
    return store


def _files(store: ArtifactStore, run_id: str, folders=FOLDERS) -> dict[str, bytes]:
    return {str(p.relative_to(store.runs / run_id)): p.read_bytes() for folder in folders
            for p in sorted((store.runs / run_id / folder).glob("*.json"))}


def _entries(artifacts: Path, stage: str = Stage.ENHANCE) -> list[Path]:
    return sorted((artifacts / "cache" / "results" / stage).glob("??/*.json"))


def test_a_reused_result_is_the_computed_one_byte_for_byte(artifacts: Path, tmp_path: Path):
    first = _run(artifacts, "run-a")
    assert sorted(MADE) == ["Math_Stats/histogram", "Math_Stats/mean", "Utils_Tools/units"]
    MADE.clear()
    second = _run(artifacts, "run-b")
    assert MADE == []  # every item reused: no synthesis ran
    assert _files(second, "run-b") == _files(first, "run-a") and _files(first, "run-a")
    assert run_reuse(second.runs / "run-b")[Stage.ENHANCE] == {"hits": 3, "misses": 0, "stored": 0}
    assert run_reuse(first.runs / "run-a")[Stage.ENHANCE] == {"hits": 0, "misses": 3, "stored": 3}

    # A run that computed everything (the store off) wrote the very same bytes, and nothing to the store.
    off = _run(tmp_path / "elsewhere", "run-c", BuildConfig(cache=CacheConfig(enabled=False)))
    assert len(MADE) == 3 and _files(off, "run-c") == _files(second, "run-b")
    assert not (tmp_path / "elsewhere" / "cache").exists() and not (off.runs / "run-c" / REUSE_FILE).exists()
    # The counts a finished stage records are the same whether it computed or reused.
    assert (first.runs / "run-a" / "enhance.done.json").read_bytes() == (second.runs / "run-b" / "enhance.done.json").read_bytes()


def test_a_changed_input_setting_or_stage_version_misses(artifacts: Path, monkeypatch):
    _run(artifacts, "run-a")
    MADE.clear()
    _run(artifacts, "run-b", Histogram="return 2")  # one seed edited
    assert MADE == ["Math_Stats/histogram"]
    MADE.clear()
    _run(artifacts, "run-c", BuildConfig.model_validate({"enhance": {"max_features": 2}}))  # a setting
    assert len(MADE) == 3
    MADE.clear()
    _run(artifacts, "run-d", Histogram="return 2")  # every variant is kept side by side
    assert MADE == []
    monkeypatch.setattr(SynthesisStage, "result_version", 2)  # the project's version of the stage
    _run(artifacts, "run-e")
    assert len(MADE) == 3


def test_a_run_elsewhere_shares_the_store_a_configuration_names(artifacts: Path, tmp_path: Path):
    shared = BuildConfig(cache=CacheConfig(path=tmp_path / "shared"))
    _run(tmp_path / "one", "run-a", shared)
    MADE.clear()
    _run(tmp_path / "two", "run-b", shared)
    assert MADE == [] and len(list((tmp_path / "shared" / Stage.ENHANCE).glob("??/*.json"))) == 3
    assert not (tmp_path / "one" / "cache" / "results").exists()
    assert BuildConfig().fingerprint() == shared.fingerprint()  # where results are kept names no new run


@pytest.mark.parametrize("damage", ["truncate", "edit"])
def test_a_damaged_entry_is_recomputed_never_trusted(artifacts: Path, damage: str):
    first = _run(artifacts, "run-a")
    entries = _entries(artifacts)
    victim = entries[0]
    text = victim.read_text()
    if damage == "truncate":
        victim.write_text(text[: len(text) // 2])
    else:  # still valid JSON, but not what was written: its digest no longer matches
        victim.write_text(text.replace("LEVEL", "LEVEL_") if "LEVEL" in text else text.replace('"d"', '"e"'))
    MADE.clear()
    second = _run(artifacts, "run-b")
    assert len(MADE) == 1  # only the damaged one worked on again
    assert _files(second, "run-b") == _files(first, "run-a")
    assert victim.read_text() == text  # written again, whole
    assert ResultStore(artifacts / "cache" / "results").get(Stage.ENHANCE, victim.stem) is not None


def test_a_pipeline_failure_or_a_resumed_item_is_not_kept(artifacts: Path):
    FAIL_INTERNALLY.add("Units")
    _run(artifacts, "run-a")
    assert len(_entries(artifacts)) == 2  # the internal_error (written as the last attempt's data) is not kept
    FAIL_INTERNALLY.clear()

    # An item whose candidate an earlier attempt wrote before it stopped: its capture would lack it.
    store = ArtifactStore(artifacts)
    [candidate] = _made(_seed("Utils_Tools", "Units"), BuildConfig().enhance_config(), pool=None)
    store.write("run-b", Stage.ENHANCE, candidate.candidate_id, candidate)
    _run(artifacts, "run-b")
    assert len(_entries(artifacts)) == 2
    MADE.clear()
    _run(artifacts, "run-c")
    assert MADE == ["Utils_Tools/units"]  # computed whole this time, and kept
    assert len(_entries(artifacts)) == 3


def test_two_processes_sharing_one_store_leave_it_whole(artifacts: Path):
    many = tuple((domain, f"{name}{i}") for i in range(15) for domain, name in SEEDS)
    fork = multiprocessing.get_context("fork")  # the fakes installed here stay installed in the children
    workers = [fork.Process(target=lambda run_id=run_id: _run(artifacts, run_id, seeds=many)) for run_id in ("run-a", "run-b")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    store = ResultStore(artifacts / "cache" / "results")
    entries = _entries(artifacts)
    assert len(entries) == len(many)
    assert all(store.get(Stage.ENHANCE, path.stem) is not None for path in entries)
    assert not list((artifacts / "cache" / "results").rglob(".*.tmp"))  # no write left half-done
    ours = ArtifactStore(artifacts)
    assert _files(ours, "run-a") == _files(ours, "run-b")
    MADE.clear()
    _run(artifacts, "run-c", seeds=many)
    assert MADE == []


def test_the_cache_command_shows_hit_rates_and_prunes_what_no_recent_run_used(artifacts: Path, monkeypatch):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(artifacts))
    _run(artifacts, "run-a", Histogram="return 9")  # an entry only this old run used
    usage = artifacts / "cache" / "results" / "usage"
    store = ResultStore(artifacts / "cache" / "results")
    old = store.usage("run-a").model_copy(update={"started": 1000.0})
    (usage / "run-a.json").write_text(old.model_dump_json())
    for path in _entries(artifacts):
        os.utime(path, (1000.0, 1000.0))
    _run(artifacts, "run-b")
    shown = CliRunner().invoke(app, ["cache"])
    assert shown.exit_code == 0, shown.output
    row = next(line for line in shown.output.splitlines() if "enhance" in line).split()
    assert "4" in row and "33%" in row, shown.output  # four results kept; 2 hits of 6 lookups over the two runs
    pruned = CliRunner().invoke(app, ["cache", "--prune", "--keep-runs", "1"])
    assert pruned.exit_code == 0, pruned.output
    assert "pruned 1 results" in pruned.output
    assert len(_entries(artifacts)) == 3 and [u.run_id for u in store.runs()] == ["run-b"]


COUNTER = '''
class Counter:
    """Counts up from a start."""

    def __init__(self, start: int = 0) -> None:
        self.value = start

    def add(self, step: int) -> int:
        """Add `step` and return the new value."""
        self.value += step
        return self.value

    def twice(self, step: int) -> int:
        """Add `step` two times (through `add`) and return the new value."""
        self.add(step)
        return self.add(step)

    def current(self) -> int:
        """The value now."""
        return self.value
'''

COUNTER_TESTS = '''
from counter import Counter


def test_add():
    assert Counter(1).add(2) == 3


def test_twice():
    counter = Counter()
    assert counter.twice(2) == 4
    assert counter.add(1) == 5
    assert counter.current() == 5
'''


def _counter(suffix: str = "") -> Candidate:
    solution = COUNTER + suffix
    return Candidate(candidate_id=Candidate.make_id("Counter", solution, COUNTER_TESTS), class_name="Counter",
                     module_name="counter", domains=("Math_Stats",), description="Counts.", skeleton=solution,
                     solution_code=solution, test_code=COUNTER_TESTS, origin=Origin.ENHANCED,
                     provenance=Provenance(seed_ids=("Math_Stats/counter",)), generator=GeneratorSpec(backend="offline"))


def _gate(artifacts: Path, run_id: str, candidates: list[Candidate], config: BuildConfig) -> ArtifactStore:
    """The gate, repair and the checks' panel on `candidates`, as enhance's."""
    store = ArtifactStore(artifacts)
    for candidate in candidates:
        store.write(run_id, Stage.ENHANCE, candidate.candidate_id, candidate)
    ctx = RunContext(store, run_id, config, Settings.from_environment().with_artifacts(artifacts))
    with config.sandbox_pool() as pool:
        for stage in (GateStage(), RepairStage(), JudgeStage()):
            run_stage(stage, ctx, ThreadExecutor(pool=pool))
    return store


GATE = BuildConfig(jobs=1, gate=GatePolicy(run_mutation=False, robustness=False, min_line_coverage=0.5))


@pytest.mark.slow
def test_gate_reports_are_reused_whole_and_a_released_candidate_never_reaches_the_sandbox(tmp_path: Path, monkeypatch):
    artifacts = tmp_path / "artifacts"
    candidates = [_counter(), _counter("\n\nLIMIT = 3\n")]
    first = _gate(artifacts, "run-a", candidates, GATE)
    reports = _files(first, "run-a", (Stage.VALIDATE,))
    decisions = _files(first, "run-a", (Stage.JUDGE, Folder.REJECTIONS))
    assert len(reports) == 2 and any(name.startswith("judge/") for name in decisions)

    monkeypatch.setattr("pipeline.stages.gate.validate_guarded", lambda *a, **k: pytest.fail("gated again"))
    monkeypatch.setattr("pipeline.stages.judge.review_one", lambda *a, **k: pytest.fail("judged again"))
    second = _gate(artifacts, "run-b", candidates, GATE)
    assert _files(second, "run-b", (Stage.VALIDATE,)) == reports  # byte for byte, though reports hold timings
    assert _files(second, "run-b", (Stage.JUDGE, Folder.REJECTIONS)) == decisions
    reused = run_reuse(second.runs / "run-b")
    assert reused[Stage.VALIDATE]["hits"] == 2 and reused[Stage.JUDGE]["misses"] == 0

    # The first candidate's code is in an earlier release: reported duplicate, whatever the store holds,
    # and never gated (validate_guarded still fails the test if called).
    released = {module_structure(candidates[0].solution_code): ("2026.12.0", "task-counter")}
    monkeypatch.setattr("pipeline.stages.gate.released_code", lambda store, results=None: released)
    handed: list[str] = []  # items given to the executor: the duplicate's report is written at once
    executor_run = ThreadExecutor.run
    monkeypatch.setattr(ThreadExecutor, "run", lambda self, stage, ctx, items, on_done: (
        handed.extend(items), executor_run(self, stage, ctx, items, on_done))[1])
    third = _gate(artifacts, "run-c", candidates, GATE)
    assert candidates[0].candidate_id not in handed
    report = third.read("run-c", Stage.VALIDATE, candidates[0].candidate_id, GateReport)
    assert (report.passed, report.reasons, report.tests) == (False, (RejectReason.DUPLICATE,), ())
    assert "released in 2026.12.0 as task-counter" in report.checks[0].detail
    rejection = third.read("run-c", Folder.REJECTIONS, candidates[0].candidate_id, Rejection)
    assert (rejection.stage, rejection.reason) == (Stage.VALIDATE, RejectReason.DUPLICATE)
    assert _files(third, "run-c", (Stage.VALIDATE,))[f"validate/{candidates[1].candidate_id}.json"] == \
        reports[f"validate/{candidates[1].candidate_id}.json"]


def test_normal_forms_are_kept_across_runs_and_a_damaged_one_is_computed_again(tmp_path: Path, monkeypatch):
    """Deduplication's normalised sources are kept by content: a rebuild does not normalise every task
    released so far again; a truncated file is a miss."""
    computed: list[str] = []
    real = reuse.normal_forms
    monkeypatch.setattr(reuse, "normal_forms", lambda source: (computed.append(source), real(source))[1])
    settings = Settings.from_environment().with_artifacts(tmp_path / "artifacts")
    source = COUNTER
    first = reuse.kept_normal_forms(BuildConfig(), settings)(source)
    assert first == real(source) and computed == [source]
    assert reuse.kept_normal_forms(BuildConfig(), settings)(source) == first and computed == [source]
    [kept] = (tmp_path / "artifacts" / "cache" / "results" / reuse.NORMAL_FORMS).glob("??/*.json")
    kept.write_text(kept.read_text()[:20])
    assert reuse.kept_normal_forms(BuildConfig(), settings)(source) == first and computed == [source, source]
    off = BuildConfig(cache=CacheConfig(enabled=False))
    assert reuse.kept_normal_forms(off, settings) is reuse.normal_forms
