"""The dataset card (`README.md`): Hugging Face YAML metadata, then what a reader needs to trust the data.

The YAML header is rendered by huggingface_hub's `DatasetCardData` (the Hub's own schema for licence,
task categories, size category and `configs`), so the Hub and `load_dataset` read it as they expect.
The statistics are computed here from the released tasks and the build's funnel, never typed in.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from core.agreement import Agreement, agreement
from core.funnel import Funnel
from core.layout import CANDIDATE_STAGES, Stage
from core.records import Layer, Origin, RejectReason, Task
from judges.panel import funnel_step
from pipeline.release.card_guide import (
    citation_section,
    example_section,
    fields_section,
    limitations_section,
    scoring_section,
    source_date_section,
)
from pipeline.release.dataset_io import split_file
from pipeline.release.diff import diff_rows
from pipeline.release.faithful_kinds import release_kinds, what_it_changes
from pipeline.release.family import family_counts
from pipeline.release.task_list import TASKS_FILE
from pipeline.release.template_prose import card_sentence, measure

SOURCE_STAGES = CANDIDATE_STAGES
TEST_DEF = re.compile(r"^\s*(?:async\s+)?def test", re.MULTILINE)
DISTRIBUTIONS = (("line_coverage", "Line coverage of the reference by its tests"),
                 ("interaction_edge_coverage", "Share of static interaction edges the tests exercise"),
                 ("mutation_score", "Mutation score of the tests"))
BUCKETS = ((0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.0000001))


def size_category(n: int) -> str:
    for bound, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if n < bound:
            return label
    return "100K<n<1M"


def yaml_header(splits: Mapping[str, Sequence[Task]], licence: str, pretty_name: str) -> str:
    from huggingface_hub import DatasetCardData

    total = sum(len(v) for v in splits.values())
    data = DatasetCardData(
        license=licence, language=["en"], pretty_name=pretty_name, task_categories=["text-generation"],
        tags=["code", "class-level-code-generation", "python"], size_categories=[size_category(total)],
        configs=[{"config_name": "default",
                  "data_files": [{"split": name, "path": split_file(name)} for name in splits]}],
    )
    return "---\n" + data.to_yaml() + "\n---\n"


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def funnel_section(funnel: Funnel) -> str:
    if not funnel.stages:
        return "No stage counts were recorded for this build."
    rows = []
    for name, count in funnel.stages.items():
        reasons = ", ".join(f"{r.value}: {n}" for r, n in sorted(count.rejected.items(), key=lambda kv: kv[0].value))
        rows.append((name, count.received, count.accepted, reasons or "none"))
    sources = [(s, funnel.stages[s].accepted) for s in SOURCE_STAGES if s in funnel.stages]
    text = _table(("stage", "received", "passed on", "rejected (per reason)"), rows)
    if sources:
        text = ("Candidates per source: " + ", ".join(f"{s} {n}" for s, n in sources) + ".\n\n" + text)
    return text


def faithful_section(tasks: Sequence[Task], funnel: Funnel) -> str:
    """How the release was checked against tests that fail correct implementations (validation/faithful/)."""
    checked = [t for t in tasks if t.metrics.get("faithful_variants") is not None]
    # The gate's count is every candidate it found over-specified; the repair round's, those still rejected
    # after their failing checks were weakened or dropped.
    found, rejected = (funnel.stages[s].rejected.get(RejectReason.OVERSPECIFIED_TESTS, 0) if s in funnel.stages else 0
                       for s in (Stage.VALIDATE, Stage.REPAIR))
    if not checked:
        return "Faithful variants were not run for the tasks of this release."
    failing = sum(1 for t in checked if (t.metrics.get("faithful_variants") or 0) > 0)
    rows = [(f"`{kind}`", what_it_changes(kind), sum(1 for t in checked if t.metrics.get(f"faithful_{kind}") is not None),
             int(sum(t.metrics.get(f"faithful_{kind}") or 0 for t in checked))) for kind in release_kinds(tasks)]
    return (f"A faithful variant is the reference changed only where the skeleton is silent; a correct solution "
            f"may differ from the reference there, so every test must pass it. {len(checked)} of {len(tasks)} tasks "
            f"were checked against the variants of their class, and {failing} of them fail one. In this build the "
            f"gate found {found} candidate(s) with a test that failed a variant; after the failing checks were "
            f"weakened or dropped, {rejected} were still rejected as `overspecified_tests`.\n\n"
            + _table(("variant", "what changes", "tasks with such a place", "places changed"), rows))


def coherence_section(tasks: Sequence[Task], funnel: Funnel) -> str:
    """How the offline compositions were checked for being one class rather than two halves side by side
    (pipeline/synthesis/compose.py, validation/seam.py)."""
    composed = [t for t in tasks if t.origin is Origin.COMPOSED]
    compose = funnel.stages.get("compose")
    no_link = compose.skipped.get("no_link", 0) if compose else 0
    rejected = funnel.stages["validate"].rejected.get(RejectReason.INCOHERENT_FUSION, 0) if "validate" in funnel.stages else 0
    woven = sum(any(n.startswith("woven:") for n in t.provenance.transforms) for t in composed)
    measured = [t for t in composed if t.metrics.get("seam_interaction") is not None]
    crossing = sorted(int(t.metrics["seam_interaction"]) for t in measured)
    figures = (f"{len(measured)} of the {len(composed)} composed tasks of this release were measured, with "
               f"{crossing[0]} to {crossing[-1]} tests (median {statistics.median(crossing):g}) crossing the seam."
               if measured else f"None of the {len(composed)} composed tasks of this release was measured.")
    return ("A composed task fuses two seed classes of different domains because one produces what the other exists "
            "to consume. Each seed declares what it produces and accepts, with a meaning and a unit (an amount in "
            "cents, a duration in milliseconds, a count of items, a piece of text), and a link joins only equal "
            "meanings in equal units (a consumer of statistics takes any measured number); a matching type alone "
            "links nothing. Where the producer is an operation, the link lives inside it (the operation hands its "
            "result on, and its docstring says so); otherwise it is a method whose summary says what it is for. "
            "The class docstring opens with what crosses and why. "
            f"{woven} of the {len(composed)} composed tasks have a woven link. {no_link} allowed pair(s) of seeds "
            "had no meaningful link and were not composed. The gate then measures interaction across the seam: a "
            "test crosses it when it calls a method that carries one part's state into the other and later reads "
            "what was carried; a composed candidate without such a test is rejected "
            f"`incoherent_fusion` ({rejected} in this build). " + figures)


def distribution_section(tasks: Sequence[Task]) -> str:
    parts = []
    for metric, title in DISTRIBUTIONS:
        values = [v for t in tasks if (v := t.metrics.get(metric)) is not None]
        if not values:
            parts.append(f"**{title}** (`{metric}`): not measured for any task.")
            continue
        counts = [sum(lo <= v < hi for v in values) for lo, hi in BUCKETS]
        labels = [f"[{lo:.1f}, {min(hi, 1.0):.1f}{']' if hi > 1 else ')'}" for lo, hi in BUCKETS]
        parts.append(
            f"**{title}** (`{metric}`, measured for {len(values)} of {len(tasks)} tasks): min {min(values):.3f}, "
            f"median {statistics.median(values):.3f}, mean {statistics.fmean(values):.3f}, max {max(values):.3f}.\n\n"
            + _table(labels, [counts]))
    return "\n\n".join(parts)


def _kappa(value: float | None) -> str:
    return "undefined" if value is None else f"{value:.3f}"


def agreement_table(figures) -> str:
    """Per-judge decisions and rejection shares (both layers); then agreement within the compared layer,
    abstentions left out: for the model panel Cohen's kappa per pair and Fleiss' kappa; for the deterministic
    checks percent agreement only (checks that give the same answer every time and accept nearly everything
    agree by construction, and a kappa of them, near zero or undefined, says nothing); failed criteria."""
    layers = figures.layers or {"": figures.judges}
    rows = [(layer or "-", j, *(figures.decisions[j].get(d, 0) for d in ("accept", "reject", "abstain")),
             f"{figures.rejected_share.get(j, 0):.0%}") for layer, judges in layers.items() for j in judges]
    text = _table(("layer", "judge", "accept", "reject", "abstain", "rejected share"), rows)
    within = f" within the {figures.compared}" if figures.compared else ""
    if figures.compared != "models":
        if figures.pairwise:
            decided = [p for p in figures.pairwise if p.observed is not None]
            text += (f"\n\nPercent agreement{within} (the share of the candidates both checks decided on which "
                     "they decided alike, abstentions left out; no kappa: deterministic checks are not raters "
                     "whose chance agreement a kappa corrects for):\n\n")
            text += _table(("judge", "judge", "candidates", "agreement"),
                           [(p.judge_a, p.judge_b, p.items, "-" if p.observed is None else f"{p.observed:.1%}")
                            for p in figures.pairwise])
            if decided:
                text += f"\n\nMean percent agreement over the pairs: {statistics.fmean(p.observed for p in decided):.1%}."
    else:
        if figures.pairwise:
            text += (f"\n\nPairwise agreement{within} (Cohen's kappa over the candidates both decided, "
                     "abstentions left out; observed = share decided alike):\n\n")
            text += _table(("judge", "judge", "candidates", "observed", "Cohen's kappa"),
                           [(p.judge_a, p.judge_b, p.items, "-" if p.observed is None else f"{p.observed:.2f}",
                             _kappa(p.kappa)) for p in figures.pairwise])
        text += (f"\n\nFleiss' kappa{within} over the {figures.rated_items} candidates every one of its judges "
                 "decided: " + (f"{figures.fleiss_kappa:.3f}." if figures.fleiss_kappa is not None
                                else "undefined (every rating was the same decision, or fewer than two judges rated)."))
    if figures.failed_criteria:
        text += "\n\nMost frequent failed criteria:\n\n" + _table(
            ("criterion", "failed", "by judge"),
            [(c.criterion, c.failed, ", ".join(f"{j} {n}" for j, n in c.judges.items())) for c in figures.failed_criteria])
    return text


def layers_section(funnel: Funnel) -> str:
    """What each judge layer of this build did, from its funnel steps; says so loudly when the checks were off."""
    checks, models = (funnel.stages.get(funnel_step(layer)) for layer in (Layer.CHECKS, Layer.MODELS))

    def counted(count) -> str:
        rejected = ", ".join(f"{r.value} {n}" for r, n in sorted(count.rejected.items(), key=lambda kv: kv[0].value))
        return f"{count.received} candidates judged, {count.accepted} accepted" + (f", {rejected}" if rejected else "")

    parts = []
    if checks is not None:
        parts.append("Layer 1, the deterministic checks (specification, consistency and adequacy judges: no model, "
                     f"the same answer every time; rule unanimous): {counted(checks)}.")
    if models is not None:
        parts.append("Layer 2, the model panel, on the candidates the checks accepted (a candidate they did not "
                      f"accept cost no model call): {counted(models)}." if checks is not None else
                      f"The model panel: {counted(models)}.")
    if models is not None and checks is None:
        parts.append("**The deterministic checks were turned off for this build** (`[judges] offline = false`): no "
                     "docstring example was run against its reference, and no test was checked against what the "
                     "skeleton states, except by the models' reading.")
    return "\n\n".join(parts)


def agreement_section(tasks: Sequence[Task], judging: Agreement | None = None, funnel: Funnel | None = None) -> str:
    """The judge layers and their figures: over every gate survivor of this build (`judging`, the run's
    `Agreement`, rejected candidates included) and over the released tasks; then what no model judge has seen."""
    judged = [t for t in tasks if t.verdicts]
    parts = [text] if funnel is not None and (text := layers_section(funnel)) else []
    if judging is not None and judging.judged:
        parts.append(f"The judges reviewed the {judging.judged} candidates of this build that passed the validation "
                     "gate (the judge steps of the funnel above):\n\n" + agreement_table(judging))
    if judged:
        figures = agreement([t.verdicts for t in judged])
        parts.append(f"{len(judged)} of {len(tasks)} tasks carry judge verdicts "
                     f"({sum(len(t.verdicts) for t in judged)} verdicts from {len(figures.judges)} judges). "
                     "Among the released tasks only (the judges' rejections are not here, so agreement on "
                     "survivors is higher than on all candidates):\n\n" + agreement_table(figures))
    else:
        parts.append("No judges ran for the tasks in this release: there are no verdicts, so no agreement can be "
                     "reported. The tasks passed the validation gate only.")
    unseen = Counter(t.origin.value for t in tasks if not any(v.judge.backend != "offline" for v in t.verdicts))
    if unseen:
        parts.append("No model judge has seen " + ", ".join(f"{n} {o}" for o, n in sorted(unseen.items()))
                     + " task(s). The offline judges check the specification, the tests' consistency with it and "
                     "their strength; they cannot judge whether a class is one coherent component (a composed "
                     "class may be two unrelated classes joined by a link): that takes a model panel "
                     "(`[judges] models`).")
    return "\n\n".join(parts)


def freshness_counts(tasks: Sequence[Task]) -> dict[tuple[str, str], int]:
    """Tasks per (month of the source date, origin), oldest month first; `undated` for a task without one.
    The month is what a contamination cut-off is stated in."""
    counts = Counter((t.source_date[:7] if t.source_date else "undated", t.origin.value) for t in tasks)
    return dict(sorted(counts.items(), key=lambda kv: (kv[0][0] == "undated", kv[0])))


def counts_section(tasks: Sequence[Task]) -> str:
    domains = Counter(d for t in tasks for d in t.domains)
    origins = Counter(t.origin.value for t in tasks)
    dated = sorted(t.source_date for t in tasks if t.source_date)
    return (_table(("domain", "tasks"), sorted(domains.items())) + "\n\n"
            + _table(("origin", "tasks"), sorted(origins.items())) + "\n\n"
            + (f"Source dates range from {dated[0]} to {dated[-1]} ({len(dated)} of {len(tasks)} tasks dated). "
               "Tasks per month of their source date and origin:\n\n"
               + _table(("source month", "origin", "tasks"), [(m, o, n) for (m, o), n in freshness_counts(tasks).items()])
               if dated else "No task carries a source date."))


def changes_section(diff: Mapping[str, Any], tasks: Sequence[Task]) -> str:
    """The diff's counts; the tasks themselves, one row each, are in `tasks.md` beside the card."""
    diff_rows(diff, tasks)  # a task the diff names must be in the release: raises InputError otherwise
    return (f"Added {len(diff.get('added', []))}, changed {len(diff.get('changed', []))}, removed "
            f"{len(diff.get('removed', []))} (details in `diff.json`; `classeval-pro release diff` prints them). "
            f"Every task of the release, one row each (class, origin, family, source date, source, what this "
            f"release did to it), is listed in [`{TASKS_FILE}`]({TASKS_FILE}).")


def size_rows(tasks: Sequence[Task]) -> list[tuple[str, ...]]:
    """Per origin and per domain (a composed task counts under both its domains): tasks, methods (in
    `methods_info`), lines of the reference module (not blank) and tests (test functions and methods), each
    as a total and a mean per task."""
    def figures(group: Sequence[Task]) -> tuple[str, ...]:
        methods = sum(len(t.methods_info) for t in group)
        lines = sum(sum(1 for line in t.module_source().splitlines() if line.strip()) for t in group)
        tests = sum(len(TEST_DEF.findall(t.test)) for t in group)
        n = len(group)
        return (str(n), *(f"{total} ({total / n:.1f})" for total in (methods, lines, tests)))

    rows = [("all", "", *figures(tasks))] if tasks else []
    for origin in sorted({t.origin.value for t in tasks}):
        rows.append(("origin", origin, *figures([t for t in tasks if t.origin.value == origin])))
    for domain in sorted({d for t in tasks for d in t.domains}):
        rows.append(("domain", domain, *figures([t for t in tasks if domain in t.domains])))
    return rows


def size_section(tasks: Sequence[Task]) -> str:
    if not tasks:
        return "This release holds no tasks."
    return ("How big the tasks are, per origin and per domain (a composed task counts under both its domains): "
            "totals, with the mean per task in parentheses.\n\n"
            + _table(("by", "group", "tasks", "methods", "reference lines", "tests"), size_rows(tasks)))


def interpreter_label(record: Mapping[str, str]) -> str:
    """'CPython 3.11.7' from a gate report's `interpreter`, '(configured)' when it was `sandbox_python`."""
    return record.get("label", record.get("version", "?")) + (" (configured)" if record.get("configured") == "yes" else "")


def python_section(tasks: Sequence[Task], interpreters: Sequence[str]) -> str:
    """Tasks per `requires_python`, and the interpreter the gate ran this release's new tasks on."""
    def key(version: str) -> tuple[int, ...]:
        return tuple(int(p) for p in version.split(".") if p.isdigit())

    needed = Counter(t.requires_python or "not recorded" for t in tasks)
    rows = sorted(needed.items(), key=lambda kv: key(kv[0]) if kv[0][0].isdigit() else (99,))
    ran = ", ".join(interpreters) if interpreters else "not recorded"
    return ("Each task records the oldest Python its solution and tests need (`requires_python`, from their syntax "
            "and the standard-library names they use); a solver's harness needs at least that version.\n\n"
            + _table(("requires_python", "tasks"), rows)
            + f"\n\nThe validation gate ran this release's new tasks on {ran} (the sandbox's interpreter).")


def transform_counts(tasks: Sequence[Task]) -> dict[str, int]:
    """Tasks per synthesis transform (a task counts once under each transform it applied); a composed task's
    links count under `link`, a task made without a transform (mined) under `none`."""
    counts: Counter[str] = Counter()
    for task in tasks:
        names = {"link" if n.startswith(("link:", "woven:")) else n for n in task.provenance.transforms}
        counts.update(names or {"none"})
    return dict(sorted(counts.items()))


def skipped_counts(tasks: Sequence[Task]) -> dict[tuple[str, str], int]:
    """(transform, reason) -> seeds of released enhanced tasks whose class that transform does not fit, from
    the skips the enhance stage records with each candidate (`skipped_transforms`): a feature is woven in
    only where it is a natural requirement of the class, and the reason says why it was not."""
    seen: dict[str, dict[str, dict[str, str]]] = {}
    for task in tasks:
        skipped = task.generator.parameters.get("skipped_transforms") if task.origin is Origin.ENHANCED else None
        if skipped and task.provenance.seed_ids:
            seen.setdefault(task.provenance.seed_ids[0], skipped)
    counts: Counter[tuple[str, str]] = Counter()
    for skipped in seen.values():
        counts.update((name, entry.get("reason", "unfit")) for name, entry in skipped.items())
    return dict(sorted(counts.items()))



def variants_sentence(funnel: Funnel, variant_limit: int | None) -> str:
    """How the variants of a family were chosen, and how many this build left out (the release's funnel
    step)."""
    release = funnel.stages.get(Stage.RELEASE)
    dropped = release.rejected.get(RejectReason.VARIANT_LIMIT, 0) if release is not None else 0
    order = ("the variant adding the most features (`provenance.transforms`) not covered by those chosen before "
             "it, then the higher mutation score of its tests, the `task_id` (a content hash) only to break a "
             "last tie")
    if variant_limit is None:
        return (f"This release keeps every variant (no limit was configured). Variants are ranked within their "
                f"family, one at a time: {order}. Column `variant_rank` is a task's place (1: its family's first "
                f"choice); deduplication keeps the better-ranked of two near-duplicates.")
    return (f"This release keeps at most {variant_limit} task(s) per family (`[release] max_variants_per_family`), "
            f"counting those of earlier releases, chosen one at a time: {order}. Deduplication meets the tasks "
            f"in the same order, so of two near-duplicates the better-ranked stays. {dropped} variant(s) of this "
            f"build were left out (`variant_limit` in the funnel above; each rejection names the variants chosen "
            f"ahead of it). Column `variant_rank` is a task's place (1: its family's first choice).")


def families_section(tasks: Sequence[Task], funnel: Funnel | None = None, variant_limit: int | None = None) -> str:
    """Tasks per family (the seeds a task grew from: near-variants share one), how variants were chosen,
    and tasks per transform."""
    families = family_counts(tasks)
    if not families:
        return "This release holds no tasks."
    largest = max(families.values())
    shared = sum(1 for n in families.values() if n > 1)
    rows = sorted(families.items(), key=lambda kv: (-kv[1], kv[0]))
    return (f"{len(tasks)} tasks come from {len(families)} families (a family is the seed a task grew from, the "
            f"pair of seeds of a composed task, or a mined class's own origin; column `family`). {shared} "
            f"families hold more than one task (at most {largest}): such tasks are near-variants, for example "
            f"one seed enhanced with different features, and their results correlate. A sample without "
            f"near-variants keeps each family's first choice ({len(families)} tasks; see How to load it); "
            f"an evaluation of every task should count a family as one cluster.\n\n"
            + variants_sentence(funnel or Funnel(run_id=""), variant_limit) + "\n\n"
            + _table(("transform", "tasks"), list(transform_counts(tasks).items()))
            + "\n\nA feature is woven into a seed only where its fit rule holds (undo for edits a user takes back, "
              "not a clock or a queue's arrivals; call counters for a class answering requests, not a measuring "
              "one; a lock for state that is set up and then read); seeds of this release where a feature was "
              "skipped, by reason:\n\n"
            + _table(("transform", "reason", "seeds"), [(n, r, c) for (n, r), c in skipped_counts(tasks).items()])
            + "\n\nThe largest families: " + ", ".join(f"`{f}` {n}" for f, n in rows[:5])
            + f"; every family and its tasks are listed in [`{TASKS_FILE}`]({TASKS_FILE}).")


SOURCES = {
    "enhanced": "seed classes made harder by weaving in features (`enhance`)",
    "composed": "two classes from different domains fused into one (`compose`)",
    "mined": "self-contained classes mined from recent public repositories (`mine`)",
}


def sources_sentence(tasks: Sequence[Task]) -> str:
    """Only the sources that contributed tasks: a card must not describe mining in a release without mined
    tasks."""
    origins = Counter(t.origin.value for t in tasks)
    parts = [f"{SOURCES.get(origin, origin)}: {n}" for origin, n in sorted(origins.items())]
    if not parts:
        return "This release holds no tasks."
    return f"The tasks come from {'one source' if len(parts) == 1 else f'{len(parts)} sources'}: " + "; ".join(parts) + "."


def render_card(*, version: str, splits: Mapping[str, Sequence[Task]], funnel: Funnel, diff: Mapping[str, Any],
                licence: str, pretty_name: str, repo_hint: str, contamination: Mapping[str, Any],
                dedup: Mapping[str, Any], judging: Agreement | None = None, interpreters: Sequence[str] = (),
                hub_repo: str | None = None, variant_limit: int | None = None,
                citation: Mapping[str, str | None] | None = None) -> str:
    """The whole README.md of a release. `repo_hint` is what the loading example loads: the Hub repository
    when one is configured (`hub_repo`), else the release's local folder, relative to the checkout or the
    artifacts folder (`assemble.local_name`: never a path on the maintainer's machine)."""
    tasks = [t for v in splits.values() for t in v]
    return (_card_contents(version, splits, licence, pretty_name, tasks)
            + _card_building(tasks, funnel, diff, contamination, dedup)
            + _card_quality(tasks, funnel, judging, interpreters, variant_limit)
            + _card_use(tasks, version, licence, pretty_name, repo_hint, hub_repo, citation or {}))


def _card_contents(version: str, splits: Mapping[str, Sequence[Task]], licence: str, pretty_name: str,
                   tasks: Sequence[Task]) -> str:
    """The card's header and what a task is: what it measures, the splits, the fields, an example, scoring."""
    split_rows = [(name, len(ts), "this release" if name == version else "earlier release") for name, ts in splits.items()]
    return f"""{yaml_header(splits, licence, pretty_name)}
# {pretty_name} {version}

## What it measures

Class-level code generation: each task is a Python class to implement from its skeleton (signatures and
docstrings, no bodies). A solution is graded by the task's test suite. Every reference solution passes its
tests in a sandbox, deterministically; the tests cover more than 90% of its lines and exercise methods
working together (shared state and calls between methods), which is what separates class-level from
function-level generation.

## Splits

One split per release version; each split holds the tasks first released in that version, all splits share
one schema. A later release carries the earlier splits unchanged.

{_table(("split", "tasks", "added by"), split_rows)}

{source_date_section(tasks)} Keep only tasks newer than a model's training cut-off to evaluate it
without contamination (`eval --after DATE`).

## Fields

{fields_section()}

## An example task

{example_section(tasks)}

## How solutions are scored

{scoring_section(tasks, version)}

"""


def _card_building(tasks: Sequence[Task], funnel: Funnel, diff: Mapping[str, Any], contamination: Mapping[str, Any],
                   dedup: Mapping[str, Any]) -> str:
    """How the release was built: its sources, the checks every task passed, the funnel, the changes."""
    return f"""## How it was built

{sources_sentence(tasks)}
Each candidate passed the validation gate (tests pass repeatedly in a sandbox, coverage, cross-method
interaction) and, where configured, a panel of judges. Then the release stage removed exact duplicates
(same normalised syntax tree), near duplicates (MinHash Jaccard >= {dedup.get('threshold')}) within this release
and against every earlier release, and tasks overlapping a public benchmark ({contamination.get('summary')}).

### Funnel of this build

{funnel_section(funnel)}

Figures of this build (the funnel per source, histograms of the gate's figures, tasks per domain, rejections
per reason with an example of each, judge agreement when judges ran) are in [`report.html`](report.html), a
self-contained page that opens offline in any browser.

### Changes against the previous release ({diff.get('previous_version') or 'none'})

{changes_section(diff, tasks)}

"""


def _card_quality(tasks: Sequence[Task], funnel: Funnel, judging: Agreement | None,
                  interpreters: Sequence[str], variant_limit: int | None = None) -> str:
    """What the tests and the judges say of the tasks, and what the tasks are made of."""
    return f"""## Quality of the tests

{distribution_section(tasks)}

### Tests that a correct implementation passes

{faithful_section(tasks, funnel)}

### Docstrings written for each class

{card_sentence(measure(tasks))}

### Composed classes are one class

{coherence_section(tasks, funnel)}

## Judges and their agreement

{agreement_section(tasks, judging, funnel)}

## Domains and origins

{counts_section(tasks)}

### Size

{size_section(tasks)}

## Python

{python_section(tasks, interpreters)}

## Families and transforms

{families_section(tasks, funnel, variant_limit)}

"""


def _card_use(tasks: Sequence[Task], version: str, licence: str, pretty_name: str, repo_hint: str,
              hub_repo: str | None, citation: Mapping[str, str | None]) -> str:
    """How to load and cite the release, its limitations and its licence."""
    return f"""## How to load it

```python
from datasets import concatenate_datasets, load_dataset

tasks = load_dataset("{repo_hint}", split="{version}")  # the tasks this release added
recent = tasks.filter(lambda t: (t["source_date"] or "") > "2025-01-01")
# every split, one task per family (no near-variants): each family's first choice (see Families and transforms)
everything = concatenate_datasets(list(load_dataset("{repo_hint}").values()))
one_per_family = everything.filter(lambda t: t["variant_rank"] == 1)
```
{"" if hub_repo else chr(10) + "The path is relative to the checkout that built the release (or to its artifacts folder, when that lies outside the checkout)." + chr(10)}
`classeval.json` holds every task in ClassEval's format, for ClassEval's own harness: the test's
`from <module> import ...` line is removed (the harness pastes solution and test into one file), the
statements above the class (constants, helpers) are also listed in `import_statement` (the harness keeps only
import lines above the class of an answer, then puts `import_statement` in front), and no three backticks
stand together in `solution_code` or `skeleton` (a fenced answer is cut at the first three), so every task's
reference passes the harness, plain or fenced.
`manifest.json` lists the sha256 of every file and every task (checked by `classeval-pro release verify {version}`).

## Limitations

{limitations_section(tasks)}

## Citation

{citation_section(pretty_name, version, hub_repo, **citation)}

## Licence

Released under `{licence}`. Mined tasks keep the licence of their source repository
(`provenance.licence`), which applies to their code.
"""
