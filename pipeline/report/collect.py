"""What a report shows, read from the artifact tree (never from a build's memory).

Reading the run folder rather than the flow's variables means the same page can be drawn for a finished
run, an interrupted one (it shows how far the run got) and, later, for any run on disk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from core.agreement import Agreement, agreement, read_agreement
from core.funnel import Funnel
from core.layout import Folder, Stage
from core.records import Candidate, GateReport, Origin, Rejection, RejectReason, Task
from core.results import reuse_sentence
from core.store import ArtifactStore
from judges.panel import STAGE as JUDGE_STAGE
from models.run_state import USAGE_FILE
from models.usage import UsageSummary

# Stage folders whose records are candidates, and the source each stands for.
SOURCE_STAGES = {Stage.ENHANCE: Origin.ENHANCED, Stage.COMPOSE: Origin.COMPOSED, Stage.MINE: Origin.MINED}
GATE_STAGE = Stage.VALIDATE
REPAIR_STAGE = Stage.REPAIR
RELEASE_STAGE = Stage.RELEASE
AFTER_GATE_STAGES = (JUDGE_STAGE, RELEASE_STAGE)  # a gate pass they reject is not released
REJECTION_FOLDERS = (Folder.REJECTIONS, RELEASE_STAGE)
METRICS = ("line_coverage", "interaction_edge_coverage", "mutation_score")
# The per-source funnel's steps, in order.
SOURCE_STEPS = ("attempted", "generated", "passed gate", "released")


@dataclass(frozen=True)
class MetricSample:
    """One candidate's (or task's) gate figures, labelled with the group it is drawn in."""

    group: str
    values: dict[str, float | None]


@dataclass(frozen=True)
class ReasonRow:
    """Rejections of one reason, with the first one (by candidate id) as its example."""

    reason: RejectReason
    count: int
    example: Rejection


@dataclass(frozen=True)
class ReportData:
    """Everything one page draws. Empty parts are drawn as a sentence saying what is absent."""

    title: str
    subtitle: str
    funnel: Funnel | None
    sources: dict[str, dict[str, int]] = field(default_factory=dict)  # source -> step -> count
    samples: tuple[MetricSample, ...] = ()
    domains: dict[str, dict[str, int]] = field(default_factory=dict)  # group -> domain -> tasks
    reasons: tuple[ReasonRow, ...] = ()
    agreement: Agreement | None = None  # the judges' decisions and agreement, when judges ran
    usage: UsageSummary | None = None  # what the run's model calls spent, when models were called


def _read_usage(store: ArtifactStore, run_id: str) -> UsageSummary | None:
    """The run's model usage (runs/<id>/model_usage.json, written by the model client's callers), if any."""
    path = store.runs / run_id / USAGE_FILE
    return UsageSummary.from_json(path.read_bytes()) if path.is_file() else None


def _read_funnel(store: ArtifactStore, run_id: str) -> Funnel | None:
    path = store.runs / run_id / "funnel.json"
    return Funnel.from_json(path.read_bytes()) if path.is_file() else None


def _candidates(store: ArtifactStore, run_id: str) -> list[Candidate]:
    return [c for stage in SOURCE_STAGES for _, c in store.iter_records(run_id, stage, Candidate)]


def _rejections(store: ArtifactStore, run_id: str) -> list[Rejection]:
    """Every rejection of the run, once per (candidate, stage): the release stage writes its own twice."""
    seen: dict[tuple[str, str], Rejection] = {}
    for folder in REJECTION_FOLDERS:
        for _, rejection in store.iter_records(run_id, folder, Rejection):
            seen.setdefault((rejection.candidate_id, rejection.stage), rejection)
    return sorted(seen.values(), key=lambda r: (r.reason.value, r.candidate_id))


def _reason_rows(rejections: Iterable[Rejection]) -> tuple[ReasonRow, ...]:
    by_reason: dict[RejectReason, list[Rejection]] = {}
    for rejection in rejections:
        by_reason.setdefault(rejection.reason, []).append(rejection)
    rows = [ReasonRow(reason, len(items), items[0]) for reason, items in by_reason.items()]
    return tuple(sorted(rows, key=lambda row: (-row.count, row.reason.value)))


def _gate_outcomes(store: ArtifactStore, run_id: str, candidates: Sequence[Candidate]) -> dict[str, GateReport]:
    """Candidate id -> the report that decides it (the repaired candidate's, when repair replaced it)."""
    outcomes: dict[str, GateReport] = {}
    for candidate in candidates:
        decided = candidate
        if store.has(run_id, REPAIR_STAGE, candidate.candidate_id):
            decided = store.read(run_id, REPAIR_STAGE, candidate.candidate_id, Candidate)
        if store.has(run_id, GATE_STAGE, decided.candidate_id):
            outcomes[candidate.candidate_id] = store.read(run_id, GATE_STAGE, decided.candidate_id, GateReport)
    return outcomes


def released_candidates(candidates: Sequence[Candidate], outcomes: dict[str, GateReport],
                        rejections: Sequence[Rejection]) -> list[Candidate]:
    """The gate passes no later stage rejected: neither the judges (rejected or held) nor the release
    (duplicates, contamination, the variant limit); a repaired candidate is dropped under its original's id
    or its own."""
    out = {r.candidate_id for r in rejections if r.stage in AFTER_GATE_STAGES}
    return [c for c in candidates if (report := outcomes.get(c.candidate_id)) is not None and report.passed
            and c.candidate_id not in out and report.candidate_id not in out]


def _domains(candidates: Sequence[Candidate], outcomes: dict[str, GateReport], rejections: Sequence[Rejection],
             funnel: Funnel | None) -> dict[str, dict[str, int]]:
    """Tasks per domain: the released ones once the release stage ran (what the release's card counts),
    else the gate passes so far, labelled as such (an unfinished run shows how far it got)."""
    if (funnel is not None and RELEASE_STAGE in funnel.stages) or any(r.stage == RELEASE_STAGE for r in rejections):
        group, chosen = "released", released_candidates(candidates, outcomes, rejections)
    else:
        group = "passed the gate (not released yet)"
        chosen = [c for c in candidates if (r := outcomes.get(c.candidate_id)) is not None and r.passed]
    counts = Counter(d for c in chosen for d in c.domains)
    return {group: dict(sorted(counts.items()))} if counts else {}


def _source_funnel(candidates: Sequence[Candidate], outcomes: dict[str, GateReport],
                   rejections: Sequence[Rejection]) -> dict[str, dict[str, int]]:
    """Per source: attempts (candidates plus the generator's own rejections), candidates, gate passes, and
    gate passes that no later stage rejected: the judges (rejected or held) and the release (duplicates,
    contamination) both drop them (a repaired candidate counts under its original's id or its own)."""
    released = {c.candidate_id for c in released_candidates(candidates, outcomes, rejections)}
    origin_of_stage = {stage: origin.value for stage, origin in SOURCE_STAGES.items()}
    table: dict[str, dict[str, int]] = {}
    for candidate in candidates:
        row = table.setdefault(candidate.origin.value, dict.fromkeys(SOURCE_STEPS, 0))
        row["attempted"] += 1
        row["generated"] += 1
        report = outcomes.get(candidate.candidate_id)
        if report is not None and report.passed:
            row["passed gate"] += 1
            row["released"] += candidate.candidate_id in released
    for rejection in rejections:
        if rejection.stage in origin_of_stage:
            table.setdefault(origin_of_stage[rejection.stage], dict.fromkeys(SOURCE_STEPS, 0))["attempted"] += 1
    return dict(sorted(table.items()))


def collect_run(store: ArtifactStore, run_id: str) -> ReportData:
    """A run's page: its funnel, every gate report (passed and failed drawn apart), the domains of the
    released tasks (of the gate passes while the release has not run), its rejections, (when judges ran) their agreement figures and (when models were
    called) what they cost."""
    candidates = _candidates(store, run_id)
    outcomes = _gate_outcomes(store, run_id, candidates)
    rejections = _rejections(store, run_id)
    samples = tuple(
        MetricSample("passed the gate" if report.passed else "rejected by the gate",
                     {m: getattr(report, m) for m in METRICS})
        for _, report in sorted(outcomes.items()))
    funnel = _read_funnel(store, run_id)
    stages = ", ".join(funnel.stages) if funnel and funnel.stages else "none yet"
    reused = reuse_sentence(store.runs / run_id)
    return ReportData(
        title=f"Run {run_id}", funnel=funnel,
        subtitle=f"Stages recorded: {stages}." + (f" Results reused from earlier runs: {reused}." if reused else ""),
        sources=_source_funnel(candidates, outcomes, rejections), samples=samples,
        domains=_domains(candidates, outcomes, rejections, funnel),
        reasons=_reason_rows(rejections), agreement=read_agreement(store, run_id), usage=_read_usage(store, run_id))


def collect_release(store: ArtifactStore, run_id: str, version: str, splits: dict[str, Sequence[Task]],
                    funnel: Funnel) -> ReportData:
    """A release's page: the tasks of every split it holds (figures from their recorded metrics), and the
    funnel and rejections of the run that made its new split; judge agreement over every candidate that
    run judged (the released tasks' verdicts only when the run's figures are missing: those cover the
    accepted tasks alone, a panel that never disagrees on what it let through)."""
    run = collect_run(store, run_id)
    samples = tuple(MetricSample(f"split {name}", {m: t.metrics.get(m) for m in METRICS})
                    for name, tasks in splits.items() for t in tasks)
    domains = {f"split {name}": dict(sorted(Counter(d for t in tasks for d in t.domains).items()))
               for name, tasks in splits.items()}
    verdict_sets = [t.verdicts for tasks in splits.values() for t in tasks if t.verdicts]
    total = sum(len(tasks) for tasks in splits.values())
    return ReportData(
        title=f"Release {version}", subtitle=f"{total} task(s) in {len(splits)} split(s), new split made by run {run_id}.",
        funnel=funnel, sources=run.sources, samples=samples, domains=domains, reasons=run.reasons,
        agreement=run.agreement or (agreement(verdict_sets) if verdict_sets else None), usage=run.usage)
