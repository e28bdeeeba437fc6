"""The dataset card (`README.md`): Hugging Face YAML metadata, then what a reader needs to trust the data.

The YAML header is rendered by huggingface_hub's `DatasetCardData` (the Hub's own schema for licence,
task categories, size category and `configs`), so the Hub and `load_dataset` read it as they expect.
The statistics are computed here from the released tasks and the build's funnel, never typed in.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.funnel import Funnel
from pipeline.records import Decision, Task
from pipeline.release.dataset_io import split_file

SOURCE_STAGES = ("enhance", "compose", "mine")
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


def fleiss_kappa(ratings: Sequence[Sequence[str]], categories: Sequence[str]) -> float | None:
    """Fleiss' kappa for items each rated by the same number of raters (None when undefined).

    Written out because it is a dozen lines of arithmetic and the stack has no statistics package that
    provides it; the formula is Fleiss (1971).
    """
    sizes = Counter(len(r) for r in ratings)
    n = max(sizes, key=lambda k: (sizes[k], k)) if sizes else 0  # the most common panel size
    items = [r for r in ratings if len(r) == n]
    if len(items) < 1 or n < 2:
        return None
    p_items = []
    totals = Counter()
    for r in items:
        c = Counter(r)
        totals.update(c)
        p_items.append((sum(k * k for k in c.values()) - n) / (n * (n - 1)))
    p_bar = statistics.fmean(p_items)
    p_e = sum((totals[c] / (len(items) * n)) ** 2 for c in categories)
    if p_e == 1.0:
        return None  # every rating identical: agreement is total but kappa is undefined
    return (p_bar - p_e) / (1 - p_e)


def agreement_section(tasks: Sequence[Task]) -> str:
    judged = [t for t in tasks if t.verdicts]
    if not judged:
        return ("No judges ran for the tasks in this release: there are no verdicts, so no agreement can be "
                "reported. The tasks passed the validation gate only.")

    def name(v) -> str:
        j = v.judge
        return "/".join(x for x in (j.backend, j.model, j.prompt_version) if x)

    per_judge: dict[str, Counter] = {}
    for t in judged:
        for v in t.verdicts:
            per_judge.setdefault(name(v), Counter())[v.decision.value] += 1
    rows = [(j, c.get("accept", 0), c.get("reject", 0), c.get("abstain", 0)) for j, c in sorted(per_judge.items())]
    judges = sorted(per_judge)
    pair_rows = []
    for i, a in enumerate(judges):
        for b in judges[i + 1:]:
            both = [(da, db) for t in judged
                    for da in [next((v.decision for v in t.verdicts if name(v) == a), None)]
                    for db in [next((v.decision for v in t.verdicts if name(v) == b), None)]
                    if da is not None and db is not None]
            if both:
                pair_rows.append((a, b, len(both), f"{sum(x == y for x, y in both) / len(both):.2f}"))
    kappa = fleiss_kappa([[v.decision.value for v in t.verdicts] for t in judged], [d.value for d in Decision])
    text = (f"{len(judged)} of {len(tasks)} tasks carry judge verdicts "
            f"({sum(len(t.verdicts) for t in judged)} verdicts from {len(judges)} judges).\n\n"
            + _table(("judge", "accept", "reject", "abstain"), rows))
    if pair_rows:
        text += "\n\nPairwise agreement (share of tasks both judged where they decided the same):\n\n"
        text += _table(("judge", "judge", "tasks", "agreement"), pair_rows)
    text += "\n\nFleiss' kappa over tasks with the same number of verdicts: " + (
        f"{kappa:.3f}." if kappa is not None else "undefined (too few raters or every decision identical).")
    text += ("\n\nThese are the released tasks only: candidates the judges rejected are not here, so agreement "
             "on survivors is higher than agreement on all candidates (see the run's rejections).")
    return text


def counts_section(tasks: Sequence[Task]) -> str:
    domains = Counter(d for t in tasks for d in t.domains)
    origins = Counter(t.origin.value for t in tasks)
    dated = sorted(t.source_date for t in tasks if t.source_date)
    return (_table(("domain", "tasks"), sorted(domains.items())) + "\n\n"
            + _table(("origin", "tasks"), sorted(origins.items())) + "\n\n"
            + (f"Source dates range from {dated[0]} to {dated[-1]} ({len(dated)} of {len(tasks)} tasks dated)."
               if dated else "No task carries a source date."))


def render_card(*, version: str, splits: Mapping[str, Sequence[Task]], funnel: Funnel, diff: Mapping[str, Any],
                licence: str, pretty_name: str, repo_hint: str, contamination: Mapping[str, Any],
                dedup: Mapping[str, Any]) -> str:
    """The whole README.md of a release."""
    tasks = [t for v in splits.values() for t in v]
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

Every task has a `source_date` (the seed's creation date or the first commit of mined code): keep only tasks
newer than a model's training cut-off to evaluate it without contamination.

## How it was built

Candidates come from three sources: seed classes made harder (`enhance`), two classes from different domains
fused into one (`compose`), and self-contained classes mined from recent public repositories (`mine`).
Each candidate passed the validation gate (tests pass repeatedly in a sandbox, coverage, cross-method
interaction) and, where configured, a panel of judges. Then the release stage removed exact duplicates
(same normalised syntax tree), near duplicates (MinHash Jaccard >= {dedup.get('threshold')}) within this release
and against every earlier release, and tasks overlapping a public benchmark ({contamination.get('summary')}).

### Funnel of this build

{funnel_section(funnel)}

### Changes against the previous release ({diff.get('previous_version') or 'none'})

Added {len(diff.get('added', []))}, changed {len(diff.get('changed', []))}, removed {len(diff.get('removed', []))}
(details in `diff.json`).

## Quality of the tests

{distribution_section(tasks)}

## Judge agreement

{agreement_section(tasks)}

## Domains and origins

{counts_section(tasks)}

## How to load it

```python
from datasets import load_dataset

tasks = load_dataset("{repo_hint}", split="{version}")           # or a path to this folder
recent = tasks.filter(lambda t: (t["source_date"] or "") > "2025-01-01")
```

`classeval.json` holds every task in ClassEval's format for ClassEval harnesses: there the test's
`from <module> import ...` line is removed, because such a harness pastes solution and test into one file.
`manifest.json` lists the sha256 of every file and every task (`classeval-pro release verify PATH` checks
them). Columns `generator.parameters` and `verdicts[].judge.parameters` hold JSON text.

## Licence

Released under `{licence}`. Mined tasks keep the licence of their source repository
(`provenance.licence`), which applies to their code.
"""
