"""The build's stages as plain functions over the artifact store.

Each stage reads its inputs from the run's folder, writes one record per output under its own stage
folder (skipping records a previous attempt already wrote), and returns its `StageCount` for the funnel.
The Prefect flow in flows/build.py only sequences these; they are tested without Prefect.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence

from pipeline.base import progress
from pipeline import runs, settings
from pipeline.config import BuildConfig
from pipeline.domains import load_domains
from pipeline.base.errors import InputError
from pipeline.funnel import Funnel, StageCount
from pipeline.base.records import Candidate, GateReport, Rejection, RejectReason, SeedClass, Task, content_hash
from pipeline.runs import FUNNEL_FILE, RunOutcome, finished_outcome, record_outcome, run_seeds
from pipeline.seeds import load_corpus
from pipeline.base.store import ArtifactStore

SEEDS_STAGE = runs.SEEDS_STAGE
ENHANCE_STAGE = "enhance"
COMPOSE_STAGE = "compose"
VALIDATE_STAGE = "validate"
REPAIR_STAGE = "repair"
JUDGE_STAGE = "judge"
RELEASE_STAGE = "release"
REJECTIONS = "rejections"
MINE_STAGE = "mine"  # written by pipeline.mining.stage
CANDIDATE_STAGES = (ENHANCE_STAGE, COMPOSE_STAGE, MINE_STAGE)
# Failures that more tests can fix; any other reason (a failing or flaky test, a sandbox violation) cannot.
REPAIRABLE = frozenset({RejectReason.LOW_COVERAGE, RejectReason.LOW_INTERACTION,
                        RejectReason.OVERSPECIFIED_TESTS})  # weakened, then gated again


def record_file_id(record_id: str) -> str:
    """A record id as a file name: seed ids contain '/', which must not become a folder."""
    return record_id.replace("/", "__")


def load_seed_records(config: BuildConfig) -> tuple[SeedClass, ...]:
    """The valid seeds of the configured domains. A broken seed of those domains ends the build: building on
    a corpus that `seeds check` rejects would silently change what a release contains. Seeds of other
    domains are not read, so a broken one there does not stop a build restricted to these."""
    registry = load_domains(settings.domain_registry_path())
    unknown = set(config.domains) - set(registry.names)
    if unknown:
        raise InputError(f"configuration field domains: unknown domain(s) {sorted(unknown)}")
    corpus = load_corpus(settings.seeds_dir(), registry, config.domains)
    if corpus.problems:
        raise InputError(f"{corpus.problems[0]} ({len(corpus.problems)} seed problem(s); run `classeval-pro seeds check`)")
    seeds = corpus.seeds
    if not seeds:
        raise InputError(f"{settings.seeds_dir()}: no seeds in the configured domains")
    return seeds


def corpus_hash(seeds: Sequence[SeedClass]) -> str:
    """Digest of the whole seed corpus: part of the run id and of the release manifest. Taken in seed id
    order, so the live corpus and the run's own `seeds/` records of it give the same digest."""
    return content_hash([s.model_dump(mode="json") for s in sorted(seeds, key=lambda s: s.seed_id)])


def default_run_id(config: BuildConfig, seeds: tuple[SeedClass, ...]) -> str:
    """Same settings and corpus give the same run id, so rerunning an interrupted build resumes it."""
    return f"run-{config.fingerprint()}-{corpus_hash(seeds)[:10]}"


def stage_seeds(store: ArtifactStore, run_id: str, config: BuildConfig) -> StageCount:
    """Record the seeds the run starts from. Later stages read these records (`runs.run_seeds`), never the
    live corpus, which is read here once: a resumed run keeps the seeds it started with."""
    if (done := finished_count(store, run_id, SEEDS_STAGE)) is not None:
        return done
    seeds = load_seed_records(config)
    for seed in seeds:
        store.write(run_id, SEEDS_STAGE, record_file_id(seed.seed_id), seed)
    return finish_stage(store, run_id, SEEDS_STAGE, StageCount(received=len(seeds), accepted=len(seeds)))


def _done_marker(stage: str) -> str:
    return f"{stage.replace(' ', '_')}.done.json"  # a funnel step's name may hold a space ("judge checks")


def finished_count(store: ArtifactStore, run_id: str, stage: str) -> StageCount | None:
    """The count a finished stage left behind, so that a resumed run does not redo it."""
    path = store.runs / run_id / _done_marker(stage)
    return StageCount.from_json(path.read_bytes()) if path.is_file() else None


def finish_stage(store: ArtifactStore, run_id: str, stage: str, count: StageCount) -> StageCount:
    store.write_run_file(run_id, _done_marker(stage), count.to_json() + "\n")
    return count


def _rejection_count(rejections: Iterable[Rejection]) -> dict[RejectReason, int]:
    return dict(sorted(Counter(r.reason for r in rejections).items()))


def store_generated(store: ArtifactStore, run_id: str, stage: str, items: Iterable[Candidate | Rejection],
                     received: int | None = None) -> StageCount:
    """Write a generating stage's candidates and rejections. `received` defaults to what came out (one
    attempt per candidate or rejection), for stages whose inputs are the attempts themselves (pairs)."""
    accepted = 0
    rejections: list[Rejection] = []
    for item in items:
        if isinstance(item, Rejection):
            store.write(run_id, REJECTIONS, record_file_id(item.candidate_id), item)
            rejections.append(item)
        else:
            store.write(run_id, stage, item.candidate_id, item)
            accepted += 1
    return StageCount(received=accepted + len(rejections) if received is None else received, accepted=accepted,
                      rejected=_rejection_count(rejections))


def _with_models(store: ArtifactStore, run_id: str, stage: str, seeds: Sequence[SeedClass],
                 config: BuildConfig) -> StageCount:
    """A generating stage on the model backend (pipeline/models/stage.py). Its done marker is written only
    when every item was made: work the budget stopped is done by a rerun with a raised budget."""
    from pipeline.models.stage import compose_blueprints, enhance_blueprints, run_model_stage

    blueprints = enhance_blueprints(seeds) if stage == ENHANCE_STAGE else compose_blueprints(seeds, config)
    count, complete = run_model_stage(store, run_id, stage, blueprints, config)
    return finish_stage(store, run_id, stage, count) if complete else count


def stage_enhance(store: ArtifactStore, run_id: str, config: BuildConfig) -> StageCount:
    """Stage 1: enhanced candidates from every seed the run recorded (offline synthesis; oracle runs in the
    sandbox)."""
    if (done := finished_count(store, run_id, ENHANCE_STAGE)) is not None:
        return done
    seeds = run_seeds(store, run_id)
    if config.models.backend_for(ENHANCE_STAGE) == "model":
        return _with_models(store, run_id, ENHANCE_STAGE, seeds, config)
    from pipeline.synthesis.enhance import enhance_seeds

    with config.sandbox_pool() as pool, \
            progress.step(ENHANCE_STAGE, total=len(seeds)) as step:
        candidates = enhance_seeds(seeds, config.enhance_config(), pool=pool, jobs=config.jobs, on_done=step.advance)
        count = store_generated(store, run_id, ENHANCE_STAGE, candidates,
                                 received=len(seeds))
    return finish_stage(store, run_id, ENHANCE_STAGE, count)


def stage_compose(store: ArtifactStore, run_id: str, config: BuildConfig) -> StageCount:
    """Stage 2: hybrid classes fused from pairs of the run's seeds of different domains."""
    if (done := finished_count(store, run_id, COMPOSE_STAGE)) is not None:
        return done
    seeds = run_seeds(store, run_id)
    if config.models.backend_for(COMPOSE_STAGE) == "model":
        return _with_models(store, run_id, COMPOSE_STAGE, seeds, config)
    from pipeline.synthesis.compose import compose_seeds

    compose_config = config.compose_config(load_domains(settings.domain_registry_path()))
    with config.sandbox_pool() as pool, \
            progress.step(COMPOSE_STAGE) as step:
        candidates = compose_seeds(seeds, compose_config, pool=pool, jobs=config.jobs, on_pairs=step.set_total,
                                   on_done=step.advance)
        count = store_generated(store, run_id, COMPOSE_STAGE, candidates)  # received: the pairs tried
    return finish_stage(store, run_id, COMPOSE_STAGE, count)


def stage_mine(store: ArtifactStore, run_id: str, config: BuildConfig) -> StageCount:
    """Stage 3: classes first committed after the cut-off, from the configured local folder and/or GitHub
    (pipeline/mining); the flow runs it only when `[mine]` has a source."""
    if (done := finished_count(store, run_id, MINE_STAGE)) is not None:
        return done
    from pipeline.mining.stage import stage_mine as mine

    with config.sandbox_pool() as pool:
        result = mine(store, run_id, config.mine, load_domains(settings.domain_registry_path()), pool=pool)
    return finish_stage(store, run_id, MINE_STAGE, result.count)


def generated_candidates(store: ArtifactStore, run_id: str) -> list[Candidate]:
    """Every candidate the generating stages wrote, in stage then id order."""
    return [c for stage in CANDIDATE_STAGES for _, c in store.iter_records(run_id, stage, Candidate)]


def _gate_rejection(candidate: Candidate, report: GateReport) -> Rejection:
    failed = [c for c in report.checks if c.gated and not c.passed]
    detail = ("; ".join(f"{c.name}: {c.detail or c.value}" for c in failed[:3]) or str(report.evidence.get("error", ""))
              or "failed the validation gate")
    evidence = {"reasons": [r.value for r in report.reasons], "line_coverage": report.line_coverage,
                "interaction_edge_coverage": report.interaction_edge_coverage}
    if "traceback" in report.evidence:  # the gate could not check it (RejectReason.INTERNAL_ERROR)
        evidence["traceback"] = report.evidence["traceback"]
    return Rejection(candidate_id=candidate.candidate_id, stage=VALIDATE_STAGE, reason=report.reasons[0],
                     detail=detail, evidence=evidence)


# Runs the gate on candidates and hands each (candidate, report) to the callback as it is made. The default
# runs them in this process's threads; the build flow passes one that maps a Prefect task per candidate.
GateRunner = Callable[[Sequence[Candidate], Callable[[Candidate, GateReport], None]], None]


def _validate_all(store: ArtifactStore, run_id: str, candidates: Sequence[Candidate], config: BuildConfig,
                  pool, step_name: str, run_gate: GateRunner | None = None) -> dict[str, GateReport]:
    """Gate reports for `candidates`, reading the ones an earlier attempt wrote and running the rest."""
    from validation.gate import validate_many

    reports: dict[str, GateReport] = {}
    todo: list[Candidate] = []
    for candidate in candidates:
        if store.has(run_id, VALIDATE_STAGE, candidate.candidate_id):
            reports[candidate.candidate_id] = store.read(run_id, VALIDATE_STAGE, candidate.candidate_id, GateReport)
        else:
            todo.append(candidate)
    with progress.step(step_name, total=len(candidates)) as step:
        step.resume(len(reports))

        def keep(candidate: Candidate, report: GateReport) -> None:
            # Written as each report arrives: an interrupted validation keeps every finished report.
            store.write(run_id, VALIDATE_STAGE, candidate.candidate_id, report)
            reports[candidate.candidate_id] = report
            step.advance()

        if run_gate is None:
            validate_many(todo, config.gate, pool, jobs=config.jobs, on_report=keep)
        elif todo:
            run_gate(todo, keep)
    return reports


def stage_validate(store: ArtifactStore, run_id: str, config: BuildConfig,
                   run_gate: GateRunner | None = None) -> tuple[StageCount, StageCount]:
    """The validation gate on every generated candidate, then one repair round for the repairable failures.

    Returns the counts of the gate and of the repair round. A candidate whose repaired tests pass is
    accepted in its repaired form (the repaired candidate is written under `repair/<original id>.json`).
    `run_gate` runs the gate on the candidates without a report (default: threads of this process).
    """
    gate_done, repair_done = (finished_count(store, run_id, s) for s in (VALIDATE_STAGE, REPAIR_STAGE))
    if gate_done is not None and repair_done is not None:
        return gate_done, repair_done
    from pipeline.synthesis.jobs import JobFailed
    from pipeline.synthesis.repair import repair_tests

    candidates = generated_candidates(store, run_id)
    with config.sandbox_pool() as pool:
        reports = _validate_all(store, run_id, candidates, config, pool, VALIDATE_STAGE, run_gate)
        failing = [c for c in candidates if not reports[c.candidate_id].passed]
        repairable = [c for c in failing if config.repair and set(reports[c.candidate_id].reasons) <= REPAIRABLE]
        repairable_ids = {c.candidate_id for c in repairable}
        repaired: dict[str, Candidate] = {}  # original candidate id -> repaired candidate
        with progress.step(REPAIR_STAGE, total=len(repairable)) as step:
            for candidate in repairable:
                original = candidate.candidate_id
                if store.has(run_id, REPAIR_STAGE, original):
                    repaired[original] = store.read(run_id, REPAIR_STAGE, original, Candidate)
                    step.resume(1)
                    continue
                try:
                    fixed = repair_tests(candidate, reports[original], pool=pool)
                except JobFailed:
                    fixed = candidate  # nothing could be added: the original's rejection stands
                if fixed.candidate_id != original:
                    store.write(run_id, REPAIR_STAGE, original, fixed)
                    repaired[original] = fixed
                step.advance()
        # The repaired candidates (few, stored under their original's id) are gated in this process.
        repair_reports = _validate_all(store, run_id, list(repaired.values()), config, pool, f"{REPAIR_STAGE} gate")
    gate_rejections = {c.candidate_id: _gate_rejection(c, reports[c.candidate_id]) for c in failing}
    rejections = []  # those that repair did not save
    for original, rejection in gate_rejections.items():
        fixed = repaired.get(original)
        if fixed is None or not repair_reports[fixed.candidate_id].passed:
            store.write(run_id, REJECTIONS, original, rejection)
            rejections.append(rejection)
    gate = StageCount(received=len(candidates), accepted=len(candidates) - len(failing),
                      rejected=_rejection_count(gate_rejections.values()))
    repair = StageCount(received=len(repairable), accepted=len(failing) - len(rejections),
                        rejected=_rejection_count(r for r in rejections if r.candidate_id in repairable_ids))
    return finish_stage(store, run_id, VALIDATE_STAGE, gate), finish_stage(store, run_id, REPAIR_STAGE, repair)


def accepted_pairs(store: ArtifactStore, run_id: str) -> Iterator[tuple[Candidate, GateReport]]:
    """Every candidate that passed the gate (a repaired one in place of its original), with its report."""
    for candidate in generated_candidates(store, run_id):
        if store.has(run_id, REPAIR_STAGE, candidate.candidate_id):
            candidate = store.read(run_id, REPAIR_STAGE, candidate.candidate_id, Candidate)
        if store.has(run_id, VALIDATE_STAGE, candidate.candidate_id):
            report = store.read(run_id, VALIDATE_STAGE, candidate.candidate_id, GateReport)
            if report.passed:
                yield candidate, report


def stage_judge(store: ArtifactStore, run_id: str, config: BuildConfig) -> dict[str, StageCount]:
    """The judge panel on the gate's survivors (judges/stage.py): the deterministic checks, then the model
    panel (when models are set) on what the checks accepted; one funnel step per layer."""
    if (done := finished_judge_steps(store, run_id, config)) is not None:
        return done
    from judges.stage import judge_survivors, model_client, panel_factory

    client = model_client() if config.judges.models else None  # its usage joins the run's model_usage.json
    open_panel = panel_factory(config.judges, jobs=config.jobs, limits=config.gate.limits(), client=client,
                               python=config.sandbox_python)
    counts, _ = judge_survivors(store, run_id, list(accepted_pairs(store, run_id)), open_panel,
                                jobs=config.judges.jobs if config.judges.models else config.jobs,
                                layers=config.judges.layers)
    if client is not None:
        from pipeline.models.run_state import RunLedger

        RunLedger(store, run_id, config.models).save_usage(client.usage())
    return finish_judge_steps(store, run_id, counts)


def finished_judge_steps(store: ArtifactStore, run_id: str, config: BuildConfig) -> dict[str, StageCount] | None:
    """The judge layers' counts a finished judge stage left behind (None unless every configured layer's)."""
    from judges.panel import funnel_step

    counts = {step: finished_count(store, run_id, step) for step in map(funnel_step, config.judges.layers)}
    return counts if all(c is not None for c in counts.values()) else None


def finish_judge_steps(store: ArtifactStore, run_id: str, counts: dict[str, StageCount]) -> dict[str, StageCount]:
    return {step: finish_stage(store, run_id, step, count) for step, count in counts.items()}


def judged_tasks(store: ArtifactStore, run_id: str, config: BuildConfig,
                 interpreters: set[str] | None = None) -> Iterator[Task]:
    """Tasks of the gate survivors the judges accepted (every survivor when the judge stage is off), with
    every judge's verdict on the task; `interpreters` collects the Pythons their gate runs used."""
    from judges.rules import Outcome
    from judges.stage import read_decisions
    from pipeline.release.card import interpreter_label
    from pipeline.release.task_builder import build_task

    decisions = read_decisions(store, run_id) if config.judges.enabled else {}
    for candidate, report in accepted_pairs(store, run_id):
        verdicts = ()
        if config.judges.enabled:
            decision = decisions.get(candidate.candidate_id)
            if decision is None or decision.outcome is not Outcome.ACCEPT:
                continue
            verdicts = decision.verdicts
        if interpreters is not None and report.interpreter:
            interpreters.add(interpreter_label(report.interpreter))
        yield build_task(candidate, report, verdicts)


def stage_release(store: ArtifactStore, run_id: str, funnel: Funnel, config: BuildConfig) -> RunOutcome:
    """Build tasks from the accepted candidates and write the next release (or none when nothing is new).

    Writes the final funnel and then the run's outcome, last: a finished run's release stage never runs
    again, so its funnel and rejection records stay those of the build that made the release.
    """
    if (outcome := finished_outcome(store, run_id)) is not None:
        return outcome
    from judges.stage import read_agreement
    from pipeline.models.run_state import manifest_usage
    from pipeline.release.assemble import release

    from pipeline.base.timing import timed

    tasks: list[Task] = []
    interpreters: set[str] = set()
    with progress.step(f"{RELEASE_STAGE} tasks") as step, timed("release", "build tasks (and judges' verdicts)"):
        for task in judged_tasks(store, run_id, config, interpreters):
            tasks.append(task)
            step.advance()
    release_config = config.release.model_copy(update={
        "seed_corpus_hash": corpus_hash(run_seeds(store, run_id)),
        "build_configuration": config.model_dump(mode="json"),
        "model_usage": manifest_usage(store.runs / run_id),
    })
    judging = read_agreement(store, run_id) if config.judges.enabled else None
    with progress.step(RELEASE_STAGE):  # decontamination, deduplication, the files and their self-check
        result = release(store, run_id, tasks, funnel, release_config, benchmarks=config.benchmarks, judging=judging,
                         interpreters=sorted(interpreters))
    for rejection in result.rejections:
        store.write(run_id, REJECTIONS, record_file_id(rejection.candidate_id), rejection)
    store.write_run_file(run_id, FUNNEL_FILE, result.funnel.to_json() + "\n")
    outcome = RunOutcome(run_id=run_id, version=result.version, message=result.message,
                         released=tuple(result.released))
    record_outcome(store, outcome)
    return outcome
