"""The build's stages, each one object of the stage protocol (pipeline/driver.py).

Each says what it reads, its items and the work for one item (a plain function writing the item's records
to the run's folder), and counts its funnel step(s) from what was written. The driver runs them (resume,
progress, stops, retries, done markers, the funnel) on the executor the caller chooses: threads in this
process, or Prefect mapped tasks in the build flow (flows/). The mine stage lives with its work in
pipeline/mining/stage.py, the model backend of enhance and compose in pipeline/models/stage.py.

Item records, per stage:
- enhance (per seed) and compose (per pair): the item's candidates and rejections, then a `SynthesisWork`
  record under `synthesis_work/` saying the item is finished and what it counted;
- validate (per candidate): its `GateReport` under `validate/`;
- repair (per candidate that failed only on coverage, interaction or over-specified tests): the repaired
  candidate under `repair/<original id>.json` and its report;
- judge (per gate survivor): the panel's `PanelDecision` under `judge/` (and its rejection).
An `internal_error` outcome (the pipeline, not the record, failed: a sandbox worker lost, a pool closed
under it) raises `TransientFailure` instead of being written, unless it is the item's last attempt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar

from pydantic import Field

from pipeline.base import progress
from pipeline.config import BuildConfig
from pipeline.domains import DomainRegistry, load_domains
from pipeline.driver import Counts, RecordStage, RunContext, TransientFailure
from pipeline.base.errors import InputError
from pipeline.funnel import Funnel, StageCount
from pipeline.base.layout import CANDIDATE_STAGES, Folder, Stage, record_file_id
from pipeline.base.records import Candidate, GateReport, Record, Rejection, RejectReason, SeedClass, Task, content_hash
from pipeline.mining.snapshot import sources_digest
from pipeline.runs import (FUNNEL_FILE, RunOutcome, finished_outcome, record_outcome, record_registry)
from pipeline.seeds import load_corpus
from pipeline.settings import Settings
from pipeline.base.store import ArtifactStore
from validation.policy import GatePolicy
from validation.sandbox import SandboxPool
from judges.panel import LayeredPanel, PanelDecision

# Failures that more tests can fix; any other reason (a failing or flaky test, a sandbox violation) cannot.
REPAIRABLE = frozenset({RejectReason.LOW_COVERAGE, RejectReason.LOW_INTERACTION,
                        RejectReason.OVERSPECIFIED_TESTS})  # weakened, then gated again
PAIR_SEPARATOR = "+"  # between the two seed ids of a compose item


def load_seed_records(config: BuildConfig, settings: Settings) -> tuple[DomainRegistry, tuple[SeedClass, ...]]:
    """The domain registry and the valid seeds of the configured domains, from the live corpus. A broken
    seed of those domains ends the build: building on a corpus that `seeds check` rejects would silently
    change what a release contains. Seeds of other domains are not read, so a broken one there does not
    stop a build restricted to these."""
    registry = load_domains(settings.domains)
    unknown = set(config.domains) - set(registry.names)
    if unknown:
        raise InputError(f"configuration field domains: unknown domain(s) {sorted(unknown)}")
    corpus = load_corpus(settings.seeds, registry, config.domains)
    if corpus.problems:
        raise InputError(f"{corpus.problems[0]} ({len(corpus.problems)} seed problem(s); run `classeval-pro seeds check`)")
    seeds = corpus.seeds
    if not seeds:
        raise InputError(f"{settings.seeds}: no seeds in the configured domains")
    return registry, seeds


def corpus_hash(seeds: Sequence[SeedClass]) -> str:
    """Digest of the whole seed corpus: part of the run id and of the release manifest. Taken in seed id
    order, so the live corpus and the run's own `seeds/` records of it give the same digest."""
    return content_hash([s.model_dump(mode="json") for s in sorted(seeds, key=lambda s: s.seed_id)])


def default_run_id(config: BuildConfig, seeds: tuple[SeedClass, ...], settings: Settings) -> str:
    """Same settings, corpus and mined sources give the same run id, so rerunning an interrupted build
    resumes it. With mining configured the id also names the state of the repositories it reads
    (pipeline/mining/snapshot.py): a rebuild after they moved on is a new run, not the finished old one."""
    run_id = f"run-{config.fingerprint()}-{corpus_hash(seeds)[:10]}"
    sources = sources_digest(config.mine, github_token=bool(settings.token()))
    return run_id if sources is None else f"{run_id}-{sources}"


def _rejection_count(rejections: Iterable[Rejection]) -> dict[RejectReason, int]:
    return dict(sorted(Counter(r.reason for r in rejections).items()))


def _sum_counts(counts: Iterable[StageCount]) -> StageCount:
    counts = list(counts)
    rejected: Counter[RejectReason] = Counter()
    for count in counts:
        rejected.update(count.rejected)
    return StageCount(received=sum(c.received for c in counts), accepted=sum(c.accepted for c in counts),
                      rejected=dict(sorted(rejected.items())))


def store_generated(store: ArtifactStore, run_id: str, stage: str, items: Iterable[Candidate | Rejection],
                    received: int) -> StageCount:
    """Write a generating item's candidates (under `stage`) and rejections; its share of the funnel."""
    accepted = 0
    rejections: list[Rejection] = []
    for item in items:
        if isinstance(item, Rejection):
            store.write(run_id, Folder.REJECTIONS, record_file_id(item.candidate_id), item)
            rejections.append(item)
        else:
            store.write(run_id, stage, item.candidate_id, item)
            accepted += 1
    return StageCount(received=received, accepted=accepted, rejected=_rejection_count(rejections))


class SeedsStage(RecordStage):
    """The seeds the run starts from, read from the live corpus once, with the domain registry they were
    read with. Later stages read these records (`RunContext.seeds`, `.registry`), never the live corpus:
    a resumed run keeps what it started with."""

    stage = Stage.SEEDS
    reads = ("the seed corpus", "the domain registry")
    in_process = True  # the corpus is read once, here
    uses_pool = False

    def __init__(self) -> None:
        self._read: tuple[DomainRegistry, dict[str, SeedClass]] | None = None

    def _corpus(self, ctx: RunContext) -> tuple[DomainRegistry, dict[str, SeedClass]]:
        if self._read is None:
            registry, seeds = load_seed_records(ctx.config, ctx.settings)
            self._read = registry, {record_file_id(s.seed_id): s for s in seeds}
        return self._read

    def items(self, ctx: RunContext) -> list[str]:
        return list(self._corpus(ctx)[1])

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return ctx.store.has(ctx.run_id, Stage.SEEDS, item)

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> None:
        ctx.store.write(ctx.run_id, Stage.SEEDS, item, self._corpus(ctx)[1][item])

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        record_registry(ctx.store, ctx.run_id, self._corpus(ctx)[0])
        return {self.stage: StageCount(received=len(items), accepted=len(items))}


class SynthesisWork(Record):
    """One finished synthesis item (a seed for enhance, a pair for compose) and what it added to the funnel."""

    stage: str = Field(description="enhance or compose.")
    item_id: str = Field(description="The seed id, or the pair's two seed ids joined by '+'.")
    candidate_ids: tuple[str, ...] = Field(default=(), description="Candidates the item produced.")
    count: StageCount = Field(description="The item's share of the stage's funnel counts.")


def _is_transient(item: Candidate | Rejection) -> bool:
    return isinstance(item, Rejection) and item.reason is RejectReason.INTERNAL_ERROR


class SynthesisStage(RecordStage):
    """Offline enhance (one item per seed the run recorded, the bundled ones and the mined classes that
    passed the gate: `RunContext.all_seeds`) or compose (one per pair of seeds of different domains, or of
    mined classes of one domain from different repositories: pipeline/synthesis/pairing.py): candidates made
    by libcst transforms, with tests derived by running the reference as the oracle in the sandbox."""

    reads = (Stage.SEEDS,)

    def __init__(self, stage: Stage) -> None:
        if stage not in (Stage.ENHANCE, Stage.COMPOSE):
            raise ValueError(f"not a synthesis stage: {stage}")
        self.stage = stage

    def items(self, ctx: RunContext) -> list[str]:
        if self.stage is Stage.ENHANCE:
            return [s.seed_id for s in ctx.all_seeds]
        from pipeline.synthesis.compose import may_bridge
        from pipeline.synthesis.pairing import pair_seeds

        compose = ctx.config.compose_config(ctx.registry)
        pairs = pair_seeds(ctx.all_seeds, rng_seed=compose.rng_seed, max_pairs=compose.max_pairs,
                           max_uses_per_seed=compose.max_uses_per_seed, composable=compose.composable,
                           fits=may_bridge)
        return [f"{a.seed_id}{PAIR_SEPARATOR}{b.seed_id}" for a, b in pairs]

    def _work_id(self, item: str) -> str:
        return f"{self.stage}-{record_file_id(item).replace(PAIR_SEPARATOR, '.')}"

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return ctx.store.has(ctx.run_id, Folder.SYNTHESIS_WORK, self._work_id(item))

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> SynthesisWork:
        """Make the candidates (or rejections) of one seed or pair, write them and the item's work record."""
        store, run_id = ctx.store, ctx.run_id
        if self.is_done(ctx, item):
            return store.read(run_id, Folder.SYNTHESIS_WORK, self._work_id(item), SynthesisWork)
        seeds = {s.seed_id: s for s in ctx.all_seeds}
        try:
            chosen = [seeds[seed_id] for seed_id in item.split(PAIR_SEPARATOR)]
        except KeyError as missing:
            raise InputError(f"{store.runs / run_id}: item {item!r} names seed {missing} the run did not record") from None
        if self.stage is Stage.ENHANCE:
            from pipeline.synthesis.enhance import enhance_seeds

            made = list(enhance_seeds(chosen, ctx.config.enhance_config(), pool=kit))
        else:
            from pipeline.synthesis.compose import compose_guarded

            made = compose_guarded((chosen[0], chosen[1]), ctx.config.compose_config(ctx.registry), pool=kit)
        if not last_attempt and any(_is_transient(m) for m in made):
            raise TransientFailure(f"{self.stage} {item}: " + "; ".join(m.detail for m in made if _is_transient(m)))
        count = store_generated(store, run_id, self.stage, made, received=1)
        work = SynthesisWork(stage=self.stage, item_id=item, count=count,
                             candidate_ids=tuple(m.candidate_id for m in made if isinstance(m, Candidate)))
        store.write(run_id, Folder.SYNTHESIS_WORK, self._work_id(item), work)
        return work

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        """Added up from the items' work records (every item is finished)."""
        return {self.stage: _sum_counts(ctx.store.read(ctx.run_id, Folder.SYNTHESIS_WORK, self._work_id(item),
                                                       SynthesisWork).count for item in items)}


def generating_stage(stage: Stage, config: BuildConfig) -> RecordStage:
    """Enhance or compose on the backend `[models]` chooses for it."""
    if config.models.backend_for(stage) == "model":
        from pipeline.models.stage import ModelStage

        return ModelStage(stage)
    return SynthesisStage(stage)


def generated_candidates(store: ArtifactStore, run_id: str) -> list[Candidate]:
    """Every candidate the generating stages wrote, in stage then id order."""
    return [c for stage in CANDIDATE_STAGES for _, c in store.iter_records(run_id, stage, Candidate)]


def _candidate(store: ArtifactStore, run_id: str, candidate_id: str) -> Candidate:
    for stage in CANDIDATE_STAGES:
        if store.has(run_id, stage, candidate_id):
            return store.read(run_id, stage, candidate_id, Candidate)
    raise InputError(f"{store.runs / run_id}: no generated candidate {candidate_id}")


def _report(store: ArtifactStore, run_id: str, candidate_id: str) -> GateReport:
    return store.read(run_id, Stage.VALIDATE, candidate_id, GateReport)


def gate_one(candidate: Candidate, policy: GatePolicy, pool: SandboxPool, last_attempt: bool) -> GateReport:
    """The work for one candidate of every gate stage (the build's and the `validate` command's): its
    report (validation/gate.py `validate_guarded`). An `internal_error` (the pipeline, not the candidate,
    failed) is a passing failure while attempts remain, and the report of the last attempt."""
    from validation.gate import validate_guarded

    report = validate_guarded(candidate, policy, pool)
    if not last_attempt and RejectReason.INTERNAL_ERROR in report.reasons:
        raise TransientFailure(f"gate {candidate.candidate_id}: {report.evidence.get('error', 'internal error')}")
    return report


def review_one(panel: LayeredPanel, candidate: Candidate, report: GateReport | None, *,
               last_attempt: bool) -> PanelDecision:
    """The work for one candidate of every judge stage (the build's and the `judge` command's): the panel's
    decision. A judge whose model call failed after the client's own retries abstains; while attempts
    remain that is a passing failure (nothing kept), so that a brief outage does not become a held task."""
    from judges.model_judge import CALL_FAILED

    decision = panel.review(candidate, report)
    failed = [f.note for v in decision.verdicts for f in v.findings if f.note.startswith(CALL_FAILED)]
    if failed and not last_attempt:
        raise TransientFailure(f"judge {decision.candidate_id}: {failed[0]}")
    return decision


def gate_recorded(ctx: RunContext, candidate: Candidate, pool: SandboxPool, last_attempt: bool) -> GateReport:
    """The candidate's gate report, written once (read back when an earlier attempt wrote it): the gate stage,
    repair, and the mined-seeds stage that gates mined candidates before enhance and compose."""
    if ctx.store.has(ctx.run_id, Stage.VALIDATE, candidate.candidate_id):
        return _report(ctx.store, ctx.run_id, candidate.candidate_id)
    report = gate_one(candidate, ctx.config.gate, pool, last_attempt)
    ctx.store.write(ctx.run_id, Stage.VALIDATE, candidate.candidate_id, report)
    return report


def _gate_rejection(candidate_id: str, report: GateReport) -> Rejection:
    failed = [c for c in report.checks if c.gated and not c.passed]
    detail = ("; ".join(f"{c.name}: {c.detail or c.value}" for c in failed[:3]) or str(report.evidence.get("error", ""))
              or "failed the validation gate")
    evidence = {"reasons": [r.value for r in report.reasons], "line_coverage": report.line_coverage,
                "interaction_edge_coverage": report.interaction_edge_coverage}
    if "traceback" in report.evidence:  # the gate could not check it (RejectReason.INTERNAL_ERROR)
        evidence["traceback"] = report.evidence["traceback"]
    return Rejection(candidate_id=candidate_id, stage=Stage.VALIDATE.value, reason=report.reasons[0],
                     detail=detail, evidence=evidence)


class GateStage(RecordStage):
    """The validation gate (validation/gate.py) on every generated candidate: one `GateReport` each. The
    model backend writes the reports of its candidates as it makes them; those are not gated again."""

    stage = Stage.VALIDATE
    reads = CANDIDATE_STAGES

    def items(self, ctx: RunContext) -> list[str]:
        return [c.candidate_id for c in generated_candidates(ctx.store, ctx.run_id)]

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return ctx.store.has(ctx.run_id, Stage.VALIDATE, item)

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> bool:
        return gate_recorded(ctx, _candidate(ctx.store, ctx.run_id, item), kit, last_attempt).passed

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        failing = [(item, report) for item in items if not (report := _report(ctx.store, ctx.run_id, item)).passed]
        return {self.stage: StageCount(received=len(items), accepted=len(items) - len(failing),
                                       rejected=_rejection_count(_gate_rejection(i, r) for i, r in failing))}


class RepairStage(RecordStage):
    """One round of tests aimed at what the gate found missing, for the candidates that failed only on
    coverage, interaction or over-specified tests (`REPAIRABLE`), then the gate again on the repaired
    candidate. A candidate whose repaired tests pass is accepted in its repaired form (written under
    `repair/<original id>.json`); the gate's rejection of every other failing candidate is written here."""

    stage = Stage.REPAIR
    reads = CANDIDATE_STAGES + (Stage.VALIDATE,)

    def _failing(self, ctx: RunContext) -> list[str]:
        return [c.candidate_id for c in generated_candidates(ctx.store, ctx.run_id)
                if not _report(ctx.store, ctx.run_id, c.candidate_id).passed]

    def items(self, ctx: RunContext) -> list[str]:
        if not ctx.config.repair:
            return []
        return [c for c in self._failing(ctx) if repairable(ctx, _report(ctx.store, ctx.run_id, c))]

    def _repaired(self, ctx: RunContext, item: str) -> Candidate | None:
        if ctx.store.has(ctx.run_id, Stage.REPAIR, item):
            return ctx.store.read(ctx.run_id, Stage.REPAIR, item, Candidate)
        return None

    def is_done(self, ctx: RunContext, item: str) -> bool:
        # A candidate repair could add nothing to leaves no record: it is tried again by a resumed run.
        fixed = self._repaired(ctx, item)
        return fixed is not None and ctx.store.has(ctx.run_id, Stage.VALIDATE, fixed.candidate_id)

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> None:
        repair_recorded(ctx, item, kit, last_attempt)

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        store, run_id = ctx.store, ctx.run_id
        repairable = set(items)
        rejections = []  # the gate's rejections that repair did not lift
        for original in self._failing(ctx):
            fixed = self._repaired(ctx, original)
            if fixed is None or not _report(store, run_id, fixed.candidate_id).passed:
                rejection = _gate_rejection(original, _report(store, run_id, original))
                store.write(run_id, Folder.REJECTIONS, original, rejection)
                rejections.append(rejection)
        saved = sum(1 for item in items if (f := self._repaired(ctx, item)) is not None
                    and _report(store, run_id, f.candidate_id).passed)
        return {self.stage: StageCount(received=len(items), accepted=saved, rejected=_rejection_count(
            r for r in rejections if r.candidate_id in repairable))}


def repair_recorded(ctx: RunContext, item: str, pool: SandboxPool, last_attempt: bool) -> Candidate | None:
    """The repaired candidate of a gated one (`item`), written once under `repair/<item>.json` and gated; None
    when repair could add nothing (the original's rejection stands). The repair stage's work for one item,
    and the mined-seeds stage's for a mined candidate the gate found short."""
    from pipeline.synthesis.jobs import JobFailed
    from pipeline.synthesis.repair import repair_tests

    store, run_id = ctx.store, ctx.run_id
    fixed = store.read(run_id, Stage.REPAIR, item, Candidate) if store.has(run_id, Stage.REPAIR, item) else None
    if fixed is None:
        try:
            fixed = repair_tests(_candidate(store, run_id, item), _report(store, run_id, item), pool=pool)
        except JobFailed:
            return None  # nothing could be added: the original's rejection stands
        if fixed.candidate_id == item:
            return None
        store.write(run_id, Stage.REPAIR, item, fixed)
    gate_recorded(ctx, fixed, pool, last_attempt)
    return fixed


def repairable(ctx: RunContext, report: GateReport) -> bool:
    """Whether the repair round is on and may lift what the gate found (`REPAIRABLE` reasons only)."""
    return ctx.config.repair and not report.passed and set(report.reasons) <= REPAIRABLE


def _survivor(store: ArtifactStore, run_id: str, candidate_id: str) -> tuple[Candidate, GateReport]:
    """The candidate the gate decided on (the repaired one, when repair replaced it) and its report."""
    if store.has(run_id, Stage.REPAIR, candidate_id):
        candidate = store.read(run_id, Stage.REPAIR, candidate_id, Candidate)
    else:
        candidate = _candidate(store, run_id, candidate_id)
    return candidate, _report(store, run_id, candidate.candidate_id)


def accepted_pairs(store: ArtifactStore, run_id: str) -> Iterator[tuple[Candidate, GateReport]]:
    """Every candidate that passed the gate (a repaired one in place of its original), with its report."""
    for candidate in generated_candidates(store, run_id):
        if store.has(run_id, Stage.REPAIR, candidate.candidate_id):
            candidate = store.read(run_id, Stage.REPAIR, candidate.candidate_id, Candidate)
        if store.has(run_id, Stage.VALIDATE, candidate.candidate_id):
            report = _report(store, run_id, candidate.candidate_id)
            if report.passed:
                yield candidate, report


class JudgeStage(RecordStage):
    """The judge panel on the gate's survivors (judges/): the deterministic checks, then the model panel
    (when models are set) on what the checks accepted; one funnel step per layer. Items are named by the
    generated candidate's id, so that each resolves without reading the others; each item's panel has a
    model client of its own, so that what its calls spent comes back with it."""

    stage = Stage.JUDGE
    reads = (Stage.VALIDATE, Stage.REPAIR)

    def __init__(self, panel: Any = None) -> None:
        self.panel = panel  # replaces the configured panel (tests)

    def needs_pool(self, ctx: RunContext) -> bool:
        return ctx.config.judges.offline  # the checks' specification judge runs code; model judges do not

    def steps(self, ctx: RunContext) -> tuple[str, ...]:
        from judges.panel import funnel_step

        return tuple(map(funnel_step, ctx.config.judges.layers))

    def items(self, ctx: RunContext) -> list[str]:
        return [c.candidate_id for c in generated_candidates(ctx.store, ctx.run_id)
                if _survivor(ctx.store, ctx.run_id, c.candidate_id)[1].passed]

    def _decided_id(self, ctx: RunContext, item: str) -> str | None:
        """The id the panel's decision on this item is stored under, once it is written."""
        decided = _survivor(ctx.store, ctx.run_id, item)[0].candidate_id
        return decided if ctx.store.has(ctx.run_id, Stage.JUDGE, decided) else None

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return self._decided_id(ctx, item) is not None

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> Any:
        """The panel's decision on one survivor (`review_one`: a failed model call is a passing failure
        while attempts remain), written with its rejection; returns what its model calls spent (None without
        models)."""
        from judges.cache import VerdictCache
        from judges.stage import layered_panel, model_client, record_decision

        judges = ctx.config.judges
        client = model_client(ctx.settings.model_cache) if judges.models and self.panel is None else None
        panel = self.panel or layered_panel(judges, pool=kit if judges.offline else None, client=client,
                                            limits=ctx.config.gate.limits(), cache=VerdictCache(ctx.settings.verdict_cache))
        decision = review_one(panel, *_survivor(ctx.store, ctx.run_id, item), last_attempt=last_attempt)
        record_decision(ctx.store, ctx.run_id, decision)
        return client.usage() if client is not None else None

    def count(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> Counts:
        """Counted per layer, and the agreement figures written, from the decisions in the store; the model
        calls of this attempt join the run's model_usage.json."""
        from judges.stage import tally_decisions
        from pipeline.models.usage import UsageSummary

        decisions = [ctx.store.read(ctx.run_id, Stage.JUDGE, self._decided_id(ctx, item), PanelDecision)
                     for item in items]
        counts, _ = tally_decisions(ctx.store, ctx.run_id, decisions, ctx.config.judges.layers)
        spent = UsageSummary()
        for usage in notes.values():
            if usage is not None:
                spent = spent.plus(usage)
        if spent.rows:
            from pipeline.models.run_state import RunLedger

            RunLedger(ctx.store, ctx.run_id, ctx.config.models).save_usage(spent)
        return counts


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


class ReleaseStage(RecordStage):
    """Tasks from the accepted candidates, decontaminated and deduplicated, written as the next release (or
    none when nothing is new). One item, the release itself; its done marker is the run's outcome
    (`release.done.json`), written last, after the final funnel: a finished run's release stage never runs
    again, so its funnel and rejection records stay those of the build that made the release."""

    stage = Stage.RELEASE
    reads = (Stage.SEEDS, Stage.VALIDATE, Stage.REPAIR, Stage.JUDGE)
    in_process = True
    uses_pool = False
    ITEM: ClassVar[str] = "release"

    def __init__(self, funnel: Funnel) -> None:
        self.funnel = funnel  # the counts of the stages before it

    def finished(self, ctx: RunContext) -> RunOutcome | None:
        return finished_outcome(ctx.store, ctx.run_id)

    def items(self, ctx: RunContext) -> list[str]:
        return [self.ITEM]

    def is_done(self, ctx: RunContext, item: str) -> bool:
        return False

    def run_one(self, ctx: RunContext, item: str, kit: Any, *, last_attempt: bool) -> RunOutcome:
        from judges.stage import read_agreement
        from pipeline.models.run_state import manifest_usage
        from pipeline.release.assemble import release
        from pipeline.base.timing import timed

        store, run_id, config = ctx.store, ctx.run_id, ctx.config
        tasks: list[Task] = []
        interpreters: set[str] = set()
        with progress.step(f"{Stage.RELEASE} tasks") as step, timed("release", "build tasks (and judges' verdicts)"):
            for task in judged_tasks(store, run_id, config, interpreters):
                tasks.append(task)
                step.advance()
        release_config = config.release.model_copy(update={
            "seed_corpus_hash": corpus_hash(ctx.seeds),
            "build_configuration": config.model_dump(mode="json"),
            "model_usage": manifest_usage(store.runs / run_id),
        })
        judging = read_agreement(store, run_id) if config.judges.enabled else None
        result = release(store, run_id, tasks, self.funnel, release_config, benchmarks=config.benchmarks,
                         judging=judging, interpreters=sorted(interpreters))
        for rejection in result.rejections:
            store.write(run_id, Folder.REJECTIONS, record_file_id(rejection.candidate_id), rejection)
        store.write_run_file(run_id, FUNNEL_FILE, result.funnel.to_json() + "\n")
        return RunOutcome(run_id=run_id, version=result.version, message=result.message,
                          released=tuple(result.released))

    def finish(self, ctx: RunContext, items: Sequence[str], notes: dict[str, Any]) -> RunOutcome:
        outcome = notes[self.ITEM]
        record_outcome(ctx.store, outcome)
        return outcome
