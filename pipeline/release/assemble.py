"""`release`: decontaminate, deduplicate, keep the chosen variants of each family, and write the next
immutable, versioned release.

Order matters: contaminated tasks are dropped before deduplication, so that a contaminated task can never
be the "first" copy that shadows a clean near-duplicate; deduplication meets the tasks in the order of
preference of their families' variants (`variants.py`), so the preferred of two near-duplicates stays; the
variant limit then keeps the head of each family's order among the survivors. Every dropped task becomes a `Rejection` record in
the run (stage `release`) with its evidence, and the full per-task reports are written beside them
(`release_decontamination.json`, `release_dedup.json`): rejection is data, not a log line.

A release folder holds every split so far (earlier splits copied byte for byte from the previous release,
or re-encoded with the same tasks when written before a column existed; the new split with the tasks that
survived), the export formats' files (`classeval.json`, and any format registered in `formats.py`),
`diff.json`, `README.md`, `tasks.md` (every task, one row each), `report.html` (figures) and `manifest.json` (written last, because it hashes
the others). It is filled in a temporary folder and renamed into place by
`ArtifactStore.new_release`, so no reader ever sees half a release, and an existing version is never
overwritten. When nothing new survives, no release is made.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core.agreement import Agreement
from core.errors import InputError
from core.funnel import Funnel, StageCount
from core.layout import Stage
from core.records import Record, Rejection, RejectReason, Task
from core.settings import PROJECT_ROOT
from core.store import ArtifactStore, atomic_write_text
from core.timing import timed
from pipeline.release.card import render_card
from pipeline.release.dataset_io import has_current_schema, read_split, split_file, write_split
from pipeline.release.decontam import ContaminationReport, DecontamSettings, decontaminate
from pipeline.release.dedup import DedupFinding, DedupSettings, NormalForms, deduplicate
from pipeline.release.diff import release_diff
from pipeline.release.export import ExportNotes
from pipeline.release.family import task_family
from pipeline.release.formats import write_exports
from pipeline.release.manifest import MANIFEST, build_manifest, manifest_text, verify_release
from pipeline.release.normalise import normal_forms
from pipeline.release.task_builder import task_requires_python
from pipeline.release.task_list import TASKS_FILE, task_list
from pipeline.release.variants import VariantChoice, choose_variants, features, preference_order
from pipeline.release.versioning import next_version, sorted_versions
from pipeline.report import collect_release, write_release_report

STAGE = Stage.RELEASE


class ReleaseConfig(BaseModel):
    """Settings of the release stage, recorded in the manifest. Unknown keys are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    near_duplicate_threshold: float = Field(default=0.85, gt=0, le=1, description="MinHash Jaccard for near duplicates.")
    shingle_size: int = Field(default=5, ge=1, description="Tokens per shingle for near-duplicate detection.")
    num_perm: int = Field(default=128, ge=16, description="MinHash permutations.")
    ngram_size: int = Field(default=10, ge=1, description="Tokens per n-gram for decontamination.")
    contamination_threshold: float = Field(default=0.5, gt=0, le=1,
                                           description="Share of a field's n-grams found in one benchmark entry that rejects.")
    max_variants_per_family: int | None = Field(
        default=2, ge=1, description="Tasks a release keeps per family (the seeds a task grew from), counting "
        "earlier releases' ones, chosen for distinct features, then the higher mutation score "
        "(pipeline.release.variants); the others are rejected variant_limit. None: every variant.")
    licence: str = Field(default="mit", description="Hugging Face licence identifier of the release.")
    pretty_name: str = Field(default="ClassEval-Pro", description="Dataset name on the card.")
    citation_title: str | None = Field(default=None, description="Title of the card's BibTeX entry; None = "
                                       "'<pretty_name> <version>: class-level code-generation tasks'.")
    citation_author: str | None = Field(default=None, description="Author of the card's BibTeX entry (a person "
                                        "list or an organisation); None = 'The <pretty_name> maintainers'.")
    citation_url: str | None = Field(default=None, description="Address of the card's BibTeX entry; None = the "
                                     "Hub's page of repo_hint when set, else no address.")
    repo_hint: str | None = Field(default=None, description="Hub repository (ORG/NAME) the card's loading example "
                                  "names; None = the release's local folder.")
    release_date: date | None = Field(default=None, description="Date that picks the version; None = today (UTC).")
    seed_corpus_hash: str | None = Field(default=None, description="Digest of the seed corpus (pipeline.stages.seeds.corpus_hash).")
    build_configuration: dict[str, Any] = Field(default_factory=dict, description="The build's settings, for the manifest.")
    model_usage: dict[str, Any] = Field(default_factory=dict, description="Model calls, cache hits, tokens and cost "
                                        "per role of the run (models.usage.UsageSummary); empty offline.")


@dataclass
class ReleaseResult:
    """What `release` did. `version` and `path` are None when nothing new survived (no release was made)."""

    version: str | None
    path: Path | None
    released: list[str]
    rejections: list[Rejection]
    funnel: Funnel
    message: str
    diff: dict[str, Any] = field(default_factory=dict)

    @property
    def created(self) -> bool:
        return self.version is not None


def local_name(folder: Path, artifacts: Path) -> str:
    """A release folder as the card names it when no Hub repository is configured: relative to the checkout
    when inside it (the same text on every clone), else relative to the artifacts folder. Never absolute:
    the card is published as it is (the manifest pins it), and an absolute path names the maintainer's
    machine and home folder."""
    folder = Path(folder).resolve()
    if folder.is_relative_to(PROJECT_ROOT):
        return folder.relative_to(PROJECT_ROOT).as_posix()
    return folder.relative_to(Path(artifacts).resolve()).as_posix()


PENDING_FILE = "release.pending.json"


class PendingRelease(Record):
    """The release a run is about to make visible, written to the run's `PENDING_FILE` just before the rename.

    Failure mode it closes: a run stopped or killed after its release folder appeared but before the run's
    outcome was recorded used to come back, find every task of its own release a duplicate, and record "no
    new release". This record lets the rerun recognise that release as its own and finish with it."""

    version: str = Field(description="The version the run released.")
    manifest_sha256: str = Field(description="sha256 of the release's manifest as the run wrote it: a folder "
                                             "of that version made by another run has another manifest.")
    released: list[str] = Field(description="Task ids of the release's own split.")
    message: str = Field(description="The release stage's one-line summary.")
    funnel: Funnel = Field(description="The funnel with the release stage counted.")
    rejections: list[Rejection] = Field(description="What the release stage rejected (decontamination, dedup, "
                                        "the variant limit).")
    diff: dict[str, Any] = Field(description="The release's diff against the previous one (`diff.json`).")


def _made_before(store: ArtifactStore, run_id: str) -> ReleaseResult | None:
    """The release this run made on an earlier attempt that did not get to record it, if there is one: the
    pending record's version exists and its manifest is byte for byte the one the run wrote."""
    path = store.runs / run_id / PENDING_FILE
    try:
        pending = PendingRelease.from_json(path.read_bytes())
        folder = store.release_dir(pending.version)
        manifest = (folder / MANIFEST).read_bytes()
    except FileNotFoundError:
        return None  # no pending record, or its release never appeared (the rename did not happen)
    except ValueError as exc:
        raise InputError(f"{path}: not a valid PendingRelease record ({exc}); remove it to release again") from None
    if hashlib.sha256(manifest).hexdigest() != pending.manifest_sha256:
        return None  # the version was made by another run
    return ReleaseResult(pending.version, folder, pending.released, pending.rejections, pending.funnel,
                         pending.message, pending.diff)


def earlier_tasks(store: ArtifactStore, versions: Sequence[str]) -> list[tuple[str, Task]]:
    """Each earlier release's own split: together, every task ever released."""
    out = []
    for version in versions:
        path = store.release_dir(version) / split_file(version)
        if not path.is_file():
            raise InputError(f"{path}: release {version} has no split file of its own; the artifact tree is damaged")
        out.extend((version, task) for task in read_split(path))
    return out


def _rejection(task: Task, reason: RejectReason, detail: str, evidence: dict[str, Any]) -> Rejection:
    return Rejection(candidate_id=task.candidate_id or task.task_id, stage=STAGE, reason=reason, detail=detail,
                     evidence={"task_id": task.task_id, **evidence})


def _nothing_new(tasks: Sequence[Task], per_reason: Counter[RejectReason], funnel: Funnel) -> str:
    """Why a build made no release, in one line: what the release stage dropped, or, when no task reached
    it, what the stages before it rejected (a rebuild whose mined classes were all released before says
    `mine: 2 duplicate`)."""
    def reasons(counts: Mapping[RejectReason, int]) -> str:
        return ", ".join(f"{n} {r.value}" for r, n in sorted(counts.items(), key=lambda kv: kv[0].value))

    if tasks:
        return f"no new release: none of {len(tasks)} task(s) survived ({reasons(per_reason)})"
    before = "; ".join(f"{stage}: {reasons(count.rejected)}" for stage, count in funnel.stages.items()
                       if stage != STAGE and count.rejected)
    return f"no new release: no task reached the release stage ({before or 'no candidate was made'})"


def release(store: ArtifactStore, run_id: str, tasks: Sequence[Task], funnel: Funnel, config: ReleaseConfig, *,
            benchmarks: Sequence[Path] = (), judging: Agreement | None = None,
            interpreters: Sequence[str] = (), forms: NormalForms = normal_forms) -> ReleaseResult:
    """Drop contaminated and duplicate tasks, then write the next release (or none if nothing is new).

    `forms` normalises a task's source for deduplication (the default computes it; a build passes one that
    keeps it across runs). `judging` is the judge stage's agreement figures over the run's gate survivors,
    when it ran:
    the card renders it and the manifest records it. `interpreters` names the Pythons the gate ran the new
    tasks on (the card says so).

    A run that made its release but was cut short before recording it gets that release back (see
    `PENDING_FILE`) instead of a second look that would find every one of its tasks a duplicate."""
    if (made := _made_before(store, run_id)) is not None:
        return made
    existing = sorted_versions(store.existing_releases())
    earlier = earlier_tasks(store, existing)

    decontam = DecontamSettings(ngram_size=config.ngram_size, threshold=config.contamination_threshold)
    with timed("release", "decontaminate"):
        reports = decontaminate(tasks, benchmarks, decontam)
    clean, rejections = _contamination_rejections(tasks, reports, decontam)
    dedup = DedupSettings(threshold=config.near_duplicate_threshold, shingle_size=config.shingle_size,
                          num_perm=config.num_perm)
    released_before = [t for _, t in earlier]
    with timed("release", "deduplicate"):
        # in the order of preference: of two near-duplicates the preferred variant stays
        outcome = deduplicate(preference_order(clean, released_before), earlier, dedup, forms)
    rejections += _duplicate_rejections(tasks, outcome.findings)
    choice = choose_variants(outcome.kept, released_before, config.max_variants_per_family)
    rejections += _variant_rejections(choice, config.max_variants_per_family)
    _record_checks(store, run_id, rejections, benchmarks, existing, (decontam, reports), (dedup, outcome.findings))

    per_reason = Counter(r.reason for r in rejections)
    funnel = funnel.with_stage(STAGE, StageCount(received=len(tasks), accepted=len(choice.kept), rejected=dict(per_reason)))
    if not choice.kept:
        return ReleaseResult(None, None, [], rejections, funnel, _nothing_new(tasks, per_reason, funnel))

    version = next_version(existing, config.release_date or datetime.now(timezone.utc).date())
    previous = existing[-1] if existing else None
    new_tasks = sorted(choice.kept, key=lambda t: t.task_id)
    with store.new_release(version) as folder:
        splits = _carried_splits(store, previous, folder)
        previous_tasks = [t for ts in splits.values() for t in ts]
        write_split(new_tasks, folder / split_file(version))
        splits[version] = new_tasks
        all_tasks = [t for ts in splits.values() for t in ts]

        notes = write_exports(folder, all_tasks)  # classeval.json, then any format added (formats.py)
        diff = release_diff(previous_tasks, all_tasks, previous_version=previous, version=version)
        atomic_write_text(folder / "diff.json", json.dumps(diff, indent=2, sort_keys=True) + "\n")
        atomic_write_text(folder / "README.md", _card(store, config, version, splits, funnel, diff, benchmarks,
                                                      judging, interpreters))
        atomic_write_text(folder / TASKS_FILE, task_list(version, splits, diff))
        write_release_report(folder, collect_release(store, run_id, version, splits, funnel))
        counts = {"received": len(tasks), "released": len(new_tasks),
                  "rejected": {r.value: n for r, n in sorted(per_reason.items(), key=lambda kv: kv[0].value)},
                  "domains": dict(sorted(Counter(d for t in all_tasks for d in t.domains).items())),
                  "origins": dict(sorted(Counter(t.origin.value for t in all_tasks).items()))}
        manifest_json = _write_manifest(folder, config, version, splits, benchmarks, counts, notes, previous, judging)
        _check_own_release(folder, version)
        path = store.release_dir(version)
        result = ReleaseResult(version, path, [t.task_id for t in new_tasks], rejections, funnel,
                               f"released {version}: {len(new_tasks)} new task(s), {len(all_tasks)} in all, at {path}",
                               diff)
        pending = PendingRelease(version=version,
                                 manifest_sha256=hashlib.sha256(manifest_json.encode("utf-8")).hexdigest(),
                                 released=result.released, message=result.message, funnel=funnel,
                                 rejections=rejections, diff=diff)
        store.write_run_file(run_id, PENDING_FILE, pending.to_json() + "\n")
    return result


def _contamination_rejections(tasks: Sequence[Task], reports: Sequence[ContaminationReport],
                              decontam: DecontamSettings) -> tuple[list[Task], list[Rejection]]:
    """The clean tasks, and a rejection naming the closest benchmark entry for each contaminated one."""
    rejections: list[Rejection] = []
    clean: list[Task] = []
    for task, report in zip(tasks, reports):
        if report.contaminated:
            best = max(report.matches, key=lambda m: m.overlap)
            rejections.append(_rejection(task, RejectReason.CONTAMINATED,
                                         f"{best.field} shares {best.overlap:.0%} of its {decontam.ngram_size}-grams "
                                         f"with {best.entry} (threshold {decontam.threshold:.0%})",
                                         {"report": report.to_json()}))
        else:
            clean.append(task)
    return clean, rejections


def _duplicate_rejections(tasks: Sequence[Task], findings: Sequence[DedupFinding]) -> list[Rejection]:
    """A rejection per deduplication finding, naming the task it repeats and where that one is."""
    by_id = {t.task_id: t for t in tasks}
    rejections: list[Rejection] = []
    for f in findings:
        where = f"release {f.matched_release}" if f.matched_release else "this release"
        kind = "same normalised syntax tree as" if f.reason is RejectReason.DUPLICATE else f"Jaccard {f.similarity:.2f} with"
        rejections.append(_rejection(by_id[f.task_id], f.reason, f"{kind} {f.matched_task_id} ({where})",
                                     {"matched_task_id": f.matched_task_id, "matched_release": f.matched_release,
                                      "similarity": f.similarity, "structural_hash": f.structural_hash}))
    return rejections


def _variant_rejections(choice: VariantChoice, limit: int | None) -> list[Rejection]:
    """A rejection per variant left out, naming its family and the variants chosen ahead of it, with the
    figures they were chosen by."""
    def described(task: Task) -> dict[str, Any]:
        return {"task_id": task.task_id, "features": sorted(features(task)),
                "mutation_score": task.metrics.get("mutation_score")}

    rejections: list[Rejection] = []
    for task, ahead in choice.dropped:
        new = sorted(features(task) - set().union(*(features(t) for t in ahead)))
        rejections.append(_rejection(
            task, RejectReason.VARIANT_LIMIT,
            f"family {task_family(task)} already holds {len(ahead)} variant(s), the limit {limit}: "
            f"{', '.join(t.task_id for t in ahead)}, chosen ahead of it "
            f"({'it adds ' + ', '.join(new) if new else 'it adds no feature'}; mutation score "
            f"{task.metrics.get('mutation_score')})",
            {"family": task_family(task), "limit": limit, "task": described(task),
             "chosen_ahead": [described(t) for t in ahead]}))
    return rejections


def _record_checks(store: ArtifactStore, run_id: str, rejections: Sequence[Rejection], benchmarks: Sequence[Path],
                   existing: Sequence[str], decontaminated: tuple[DecontamSettings, Sequence[ContaminationReport]],
                   deduplicated: tuple[DedupSettings, Sequence[DedupFinding]]) -> None:
    """The run's record of both checks: each rejection, and the settings and findings of each check (written
    before any release is made, so that a run that makes none still says why)."""
    (decontam, reports), (dedup, findings) = decontaminated, deduplicated
    for rejection in rejections:
        store.write(run_id, STAGE, rejection.candidate_id, rejection)
    store.write_run_file(run_id, "release_decontamination.json", json.dumps(
        {"settings": decontam.__dict__, "benchmarks": [str(p) for p in benchmarks],
         "reports": [r.to_json() for r in reports]}, indent=2, sort_keys=True) + "\n")
    store.write_run_file(run_id, "release_dedup.json", json.dumps(
        {"settings": dedup.__dict__, "earlier_releases": existing,
         "findings": [{**f.__dict__, "reason": f.reason.value} for f in findings]}, indent=2, sort_keys=True) + "\n")


def _carried_splits(store: ArtifactStore, previous: str | None, folder: Path) -> dict[str, list[Task]]:
    """Every split of the previous release, copied into `folder` (in version order) and read back."""
    splits: dict[str, list[Task]] = {}
    if previous is None:
        return splits
    for name in sorted_versions(p.stem for p in (store.release_dir(previous) / "data").glob("*.parquet")):
        source = store.release_dir(previous) / split_file(name)
        target = folder / split_file(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        if has_current_schema(source):
            shutil.copyfile(source, target)  # byte-identical: the Hub sees an unchanged file
        else:  # written before a column existed: the same tasks with today's columns, or no load works
            updated = [t.model_copy(update={"family": task_family(t), "requires_python": task_requires_python(t)})
                       for t in read_split(source)]
            earlier = [t for ts in splits.values() for t in ts]
            write_split(choose_variants(updated, earlier).kept, target)  # ranked as a release ranks them
        splits[name] = read_split(target)
    return splits


def _card(store: ArtifactStore, config: ReleaseConfig, version: str, splits: dict[str, list[Task]], funnel: Funnel,
          diff: dict[str, Any], benchmarks: Sequence[Path], judging: Agreement | None,
          interpreters: Sequence[str]) -> str:
    """The release's dataset card, saying what its contamination check could and could not see."""
    contamination = {"summary": (f"{config.ngram_size}-gram overlap >= {config.contamination_threshold:.0%} with one "
                                 f"entry of {len(benchmarks)} maintainer-supplied benchmark file(s)")
                                if benchmarks else "no benchmark files were supplied, so none was checked"}
    return render_card(
        version=version, splits=splits, funnel=funnel, diff=diff, licence=config.licence,
        pretty_name=config.pretty_name, repo_hint=config.repo_hint or local_name(store.release_dir(version), store.root),
        hub_repo=config.repo_hint, contamination=contamination,
        dedup={"threshold": config.near_duplicate_threshold}, judging=judging, interpreters=interpreters,
        variant_limit=config.max_variants_per_family,
        citation={"title": config.citation_title, "author": config.citation_author, "url": config.citation_url})


def _write_manifest(folder: Path, config: ReleaseConfig, version: str, splits: dict[str, list[Task]],
                    benchmarks: Sequence[Path], counts: dict[str, Any], notes: ExportNotes, previous: str | None,
                    judging: Agreement | None) -> str:
    """Write the manifest (the hashes of every file and task, the configuration, the counts); returns its text."""
    manifest = build_manifest(
        folder, version=version, splits=splits,
        configuration={"release": config.model_dump(mode="json", exclude={"build_configuration", "seed_corpus_hash",
                                                                          "model_usage"}),
                       "build": config.build_configuration, "benchmarks": [Path(p).name for p in benchmarks]},
        seed_corpus_hash=config.seed_corpus_hash, counts=counts, export_notes=notes, previous_version=previous,
        judging=judging, model_usage=config.model_usage)
    manifest_json = manifest_text(manifest)
    atomic_write_text(folder / MANIFEST, manifest_json)
    return manifest_json


def _check_own_release(folder: Path, version: str) -> None:
    """Self-check before the rename makes it visible: the data must reload through `datasets` to tasks whose
    hashes (taken from the records written) all match, no more and no fewer. A failure leaves no release
    behind."""
    problems = verify_release(folder)
    if problems:
        raise InputError(f"release {version} failed its own check and was not made: {'; '.join(problems[:3])}")
