"""The reader's guide of a dataset card: what a Hugging Face user looks for before the build's figures.

The fields, an example task, how solutions are scored (with the baselines every task was measured
against), what `source_date` means per origin, the limitations and how to cite. Everything is derived
from the released tasks and the `Task` record itself (its field descriptions), never typed in: a field
added to the record appears in the card's table, and the figures are those of this release.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence

from core.records import Origin, Task
from pipeline.release.dataset_io import task_features
from pipeline.release.faithful_kinds import release_kinds

STRATEGIES_TEXT = (
    "`holistic` (the whole class in one answer), `incremental` (method by method, each answer building on "
    "the previous ones), `bottom_up` and `top_down` (method by method in dependency order, callees first or "
    "callers first), `compositional` (methods written apart, then assembled)")

SOURCE_DATES = {
    "enhanced": "the creation date of the seed class it was made from",
    "composed": "the newer of the creation dates of its two seed classes",
    "mined": "the date of the first commit that contained the class in its repository (`provenance.first_commit`)",
}


def feature_type(feature: object) -> str:
    """A column's type as the parquet files hold it (the `datasets` feature): `string`, `int64`,
    `list[string]`, `{name: string, value: float64}`, nested as stored."""
    if isinstance(feature, dict):
        return "{" + ", ".join(f"{name}: {feature_type(inner)}" for name, inner in feature.items()) + "}"
    inner = getattr(feature, "feature", None)
    if inner is not None:  # a List (or Sequence) of something
        return f"list[{feature_type(inner)}]"
    return str(getattr(feature, "dtype", feature))


def fields_section() -> str:
    """One row per column of the released data: its type as stored in the parquet files (the shared schema,
    `dataset_io.task_features`: nested records are structs, open-ended parameters JSON text), and its
    meaning from the `Task` model's own field descriptions."""
    rows = ["| field | type (as stored) | meaning |", "|---|---|---|"]
    for name, feature in task_features().items():
        info = Task.model_fields.get(name)
        meaning = ((info.description or "") if info else "").replace("|", "\\|").replace("\n", " ")
        rows.append(f"| `{name}` | `{feature_type(feature)}` | {meaning} |")
    return "\n".join(rows) + JSON_TEXT_NOTE


JSON_TEXT_NOTE = ("\n\n`metrics` is a list of `{name, value}` pairs (`{m['name']: m['value'] for m in task['metrics']}` "
                  "gives a mapping); `generator.parameters` and `verdicts[].judge.parameters` hold JSON text "
                  "(`json.loads`).")


def fence(code: str, language: str = "python") -> str:
    """`code` in a Markdown fence longer than any run of backticks inside it, so nothing in it closes it."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{language}\n{code.rstrip()}\n{marks}"


def example_task(tasks: Sequence[Task]) -> Task | None:
    """The shortest task of the release's most common origin (ties by id): an example that fits a page and
    looks like most of the release."""
    if not tasks:
        return None
    origin = Counter(t.origin for t in tasks).most_common(1)[0][0]
    return min((t for t in tasks if t.origin == origin),
               key=lambda t: (len(t.skeleton) + len(t.test), t.task_id))


def example_section(tasks: Sequence[Task]) -> str:
    """One whole task: the skeleton a solver is given, the tests that grade it and the reference that
    passes them, none of them cut."""
    task = example_task(tasks)
    if task is None:
        return "This release holds no tasks."
    tests = sum(1 for line in task.test.splitlines() if line.startswith("def test"))
    return (f"`{task.task_id}` ({task.origin.value}, {' + '.join(task.domains)}; the shortest task of the "
            f"release's most common origin): a solver is given the skeleton below and must write "
            f"`{task.class_name}` in a module `{task.module_name}`; the task's {tests} tests grade it.\n\n"
            f"{fence(task.skeleton)}\n\n<details><summary>Its tests (`test`)</summary>\n\n{fence(task.test)}"
            f"\n\n</details>\n\n<details><summary>Its reference solution (`import_statement` + "
            f"`solution_code`)</summary>\n\n{fence(task.module_source())}\n\n</details>")


def _share(values: Sequence[float]) -> str:
    return f"{statistics.fmean(values):.1%}" if values else "not measured"


def scoring_section(tasks: Sequence[Task], version: str) -> str:
    """The protocol and the three model-free baselines, measured by the gate on every task of the release."""
    vacuous = [v for t in tasks if (v := t.metrics.get("vacuous_share")) is not None]
    skeleton_passes = sum(1 for v in vacuous if v >= 1.0)
    mutation = [v for t in tasks if (v := t.metrics.get("mutation_score")) is not None]
    return f"""A solution is the module text a model answers with. It is written next to the task's `test` module
and run with pytest in a sandbox (bubblewrap namespaces: no network, system folders read-only; limits on
time, memory, file size and processes); it **passes** a task when every test passes. `classeval-pro eval` samples `n`
solutions per task under each generation strategy ({STRATEGIES_TEXT}) and reports class-level Pass@k (the
unbiased estimator over the `n` samples), method-level Pass@k (the tests of each method) and a failure
taxonomy:

```bash
classeval-pro eval {version} --model openai/gpt-4o --strategy all --n 5 --k 1,5
classeval-pro eval {version} --model reference     # model-free baselines: reference, skeleton, mutant
```

The same protocol runs as an Inspect AI task (with classeval-pro installed with its `inspect` extra,
`pip install -e '.[inspect]'` in its checkout): the release's tasks are its samples, a strategy its solver,
and the same sandbox its scorer (class-level pass as the value, the method-level results in the score's
metadata); logs are named `classeval_pro_{version}`:

```bash
inspect eval classeval_pro -T release={version} -T strategy=incremental --model openai/gpt-4o --epochs 5 --epochs-reducer pass_at_1
```

**Baselines.** Every task's tests were run by the validation gate against three model-free solutions, the
kinds `eval` offers (the gate's stub keeps the constructor and raises `NotImplementedError` in every other
method, where `eval --model skeleton` runs the skeleton as given):

| baseline | what it is | result on this release |
|---|---|---|
| `reference` | the task's reference solution | passes all {len(tasks)} tasks (a condition of release) |
| `skeleton` | the skeleton with stub bodies | passes {skeleton_passes} of {len(vacuous)} tasks; mean share of a task's tests it passes: {_share(vacuous)} |
| `mutant` | the reference with one small change (mutation testing) | mean share of mutants the tests catch: {_share(mutation)} |"""


def source_date_section(tasks: Sequence[Task]) -> str:
    origins = sorted({t.origin.value for t in tasks})
    lines = [f"- `{origin}`: {SOURCE_DATES.get(origin, 'the date recorded in its provenance')}." for origin in origins]
    grown = sum(1 for t in tasks if t.origin is not Origin.MINED and t.provenance.first_commit)
    if not grown:
        return ("`source_date` is the date the task's source first existed, per origin:\n\n" + "\n".join(lines)
                + "\n\nOnly mined tasks are younger than their code on GitHub; enhanced and composed tasks are new "
                  "combinations of older, bundled classes, and are fresh only in that sense.")
    # Mined classes taken as seeds ([mine] as_seeds): what grew from them is as young as their code.
    return ("`source_date` is the date the task's source first existed, per origin:\n\n" + "\n".join(lines)
            + f"\n\nMined tasks, and the {grown} task(s) enhanced from a mined class (`provenance.first_commit` "
              "set: their date is that class's first commit), are as young as their code on GitHub; the other "
              "enhanced and composed tasks are new combinations of older classes, and are fresh only in that sense.")


def limitations_section(tasks: Sequence[Task]) -> str:
    """Only the limitations that apply to this release's origins."""
    origins = Counter(t.origin.value for t in tasks)
    families = len({t.family for t in tasks if t.family})
    items = []
    if origins["enhanced"] or origins["composed"]:
        items += [
            f"**Near-variants.** Enhanced and composed tasks grow from a small set of seed classes: the "
            f"{len(tasks)} tasks belong to {families} families (`family`), and tasks of one family share much "
            f"of their code. Report results per family, or keep one task per family (see \"How to load it\"), "
            f"when that matters.",
            "**Templated specifications.** The features woven in by enhancement and the bridges added by "
            "composition are specified by templates: they state what the tests check, but read more uniformly "
            "than the seeds' own documentation.",
        ]
    kinds = release_kinds(tasks)
    items.append(f"**Over-specified tests are searched for, not ruled out.** Faithful variants cover the "
                 f"{len(kinds)} kinds of detail a skeleton can leave open that the gate ran "
                 f"({', '.join(f'`{k}`' for k in kinds)}: see \"Tests that a correct implementation passes\"); a "
                 "test may still check another detail the skeleton leaves open that none of them changes.")
    if origins["mined"]:
        items.append(f"**Mined tasks** ({origins['mined']}): their freshness rests on first-commit dates, which a "
                     f"rewritten or re-imported history can make look newer than the code is.")
    items.append("**Sandbox.** Scores are those of the project's sandbox on Linux (bubblewrap); a harness that "
                 "runs the tests elsewhere (`classeval.json`) may see environment-dependent differences.")
    return "\n".join(f"- {item}" for item in items)


def citation_section(pretty_name: str, version: str, hub_repo: str | None, *, title: str | None = None,
                     author: str | None = None, url: str | None = None, year: int | None = None) -> str:
    """A BibTeX entry for this release: title, author, year and address from the release configuration
    (`[release] citation_title`, `citation_author`, `citation_url`), else derived: the card's name and
    version, "The <name> maintainers", the release's year (of its version), the Hub's page when a
    repository is configured. Without an address the entry says where the data is not (a local folder is
    no address a reader can follow), so the maintainer sees the field is missing."""
    key = "".join(ch for ch in pretty_name.lower() if ch.isalnum()) + version.replace(".", "_")
    if year is None and version.split(".", 1)[0].isdigit():
        year = int(version.split(".", 1)[0])  # versions are YYYY.MM.N
    url = url or (f"https://huggingface.co/datasets/{hub_repo}" if hub_repo else None)
    fields = [("title", f"{{{title or f'{pretty_name} {version}: class-level code-generation tasks'}}}"),
              ("author", f"{{{{{author or f'The {pretty_name} maintainers'}}}}}"),
              *((("year", f"{{{year}}}"),) if year else ()),
              *((("url", f"{{{url}}}"), ("howpublished", f"{{\\url{{{url}}}}}")) if url else ()),
              ("version", f"{{{version}}}"), ("note", f"{{Release {version}}}")]
    width = max(len(name) for name, _ in fields)
    body = ",\n".join(f"  {name.ljust(width)} = {value}" for name, value in fields)
    missing = ("" if url else "\n\nNo address is configured (`[release] citation_url`, or `repo_hint` for the "
               "Hub), so the entry has none.")
    return f"""This dataset follows the class-level benchmark design of ClassEval-Pro (arXiv:2604.26923); cite that
work for the benchmark design and this release for the data:

```bibtex
@misc{{{key},
{body}
}}
```{missing}"""
