"""The card's reader's guide: fields, an example, scoring with its baselines, source dates, limitations."""

from __future__ import annotations

from release_fixtures import COUNTER_SOLUTION, build_task

from core.records import Origin, Task
from pipeline.release.dataset_io import task_features
from pipeline.release.card_guide import (
    citation_section,
    example_section,
    example_task,
    fence,
    fields_section,
    limitations_section,
    scoring_section,
    source_date_section,
)
from validation.faithful import REGISTRY

LONG_TEST = ("from counter import Counter\n\n\ndef test_total():\n    assert Counter().total() == 0\n\n\n"
             "def test_add_then_total():\n    c = Counter()\n    c.add('a')\n    c.add('b', 2)\n    assert c.total() == 3\n")


def test_the_field_table_has_a_row_per_column_with_its_type_as_stored():
    table = fields_section()
    rows = [line for line in table.splitlines()[2:] if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(task_features()) and set(task_features()) == set(Task.model_fields)
    assert "| `source_date` | `string` | ISO date of its source, for cut-off filtering. |" in table
    # the parquet's types, not the record's: metrics is a list of {name, value}, parameters JSON text
    assert "| `metrics` | `list[{name: string, value: float64}]` | Gate figures" in table
    assert "`generator` | `{backend: string, model: string, prompt_version: string, parameters: string}`" in table
    assert "hold JSON text" in table and "| `variant_rank` | `int64` |" in table


def test_the_example_is_the_shortest_task_of_the_most_common_origin_with_a_test_of_several_steps():
    short = build_task("Short", test=LONG_TEST)
    longer = build_task("Longer", solution=COUNTER_SOLUTION + "\n    def extra(self):\n        return 1\n",
                        test=LONG_TEST, module="longer")
    composed = build_task("Tiny", solution="class Tiny:\n    pass\n", test=LONG_TEST, module="tiny",
                          origin=Origin.COMPOSED)
    assert example_task([longer, composed, short]) == short
    text = example_section([longer, composed, short])
    assert text.startswith(f"`{short.task_id}` (enhanced, Algo_DataStruct;") and "must write `Short`" in text
    # the whole task: every line of its skeleton, all its tests and its reference, nothing cut
    assert short.skeleton.rstrip() in text and short.test.rstrip() in text and short.module_source().rstrip() in text
    assert "more lines" not in text
    assert example_section([]) == "This release holds no tasks."


def test_code_with_backticks_gets_a_longer_fence():
    assert fence("x = 1\n") == "```python\nx = 1\n```"
    assert fence('"""Use ```` here."""') == '`````python\n"""Use ```` here."""\n`````'


def test_scoring_reports_the_gate_baselines_of_this_release():
    tasks = [build_task("A", metrics={"vacuous_share": 0.0, "mutation_score": 0.8}),
             build_task("B", metrics={"vacuous_share": 0.5, "mutation_score": 0.6}),
             build_task("C", metrics={"vacuous_share": 1.0})]
    text = scoring_section(tasks, "2026.12.0")
    assert "classeval-pro eval 2026.12.0 --model reference" in text
    assert "inspect eval classeval_pro -T release=2026.12.0 " in text  # the same protocol in Inspect
    assert "| passes all 3 tasks (a condition of release) |" in text
    assert "passes 1 of 3 tasks; mean share of a task's tests it passes: 50.0% |" in text
    assert "mean share of mutants the tests catch: 70.0% |" in text


def test_source_dates_and_limitations_describe_only_the_origins_present():
    offline = [build_task("A"), build_task("B", origin=Origin.COMPOSED, module="b")]
    assert "`composed`: the newer of the creation dates" in source_date_section(offline)
    assert "`mined`" not in source_date_section(offline)
    limits = limitations_section(offline)
    assert "**Near-variants.** Enhanced and composed tasks" in limits and "Mined tasks" not in limits
    mined = [build_task("M", origin=Origin.MINED, module="m")]
    assert "first commit" in source_date_section(mined)
    limits = limitations_section(mined)
    assert "**Mined tasks** (1)" in limits and "Near-variants" not in limits


def test_source_dates_say_which_enhanced_tasks_are_as_young_as_a_mined_class():
    offline = [build_task("A"), build_task("B", origin=Origin.COMPOSED, module="b")]
    assert "Only mined tasks are younger" in source_date_section(offline)
    grown = build_task("G")
    grown = grown.model_copy(update={"provenance": grown.provenance.model_copy(update={
        "repository": "acme/lab", "first_commit": "f" * 40, "first_commit_date": "2025-05-10"})})
    text = source_date_section(offline + [grown])
    assert "Only mined tasks" not in text and "the 1 task(s) enhanced from a mined class" in text


def test_the_citation_is_complete_with_title_author_year_and_address():
    hub = citation_section("ClassEval-Pro", "2026.12.0", "acme/cep")
    assert "url          = {https://huggingface.co/datasets/acme/cep}" in hub
    assert "author       = {{The ClassEval-Pro maintainers}}" in hub and "year         = {2026}" in hub
    assert "title        = {ClassEval-Pro 2026.12.0: class-level code-generation tasks}" in hub
    local = citation_section("ClassEval-Pro", "2026.12.0", None)
    assert "@misc{classevalpro2026_12_0," in local and "url" not in local.split("```bibtex")[1].split("```")[0]
    assert "No address is configured (`[release] citation_url`" in local
    configured = citation_section("ClassEval-Pro", "2026.12.0", None, title="A Title", author="Acme Lab",
                                  url="https://example.org/cep")
    assert "title        = {A Title}" in configured and "author       = {{Acme Lab}}" in configured
    assert "url          = {https://example.org/cep}" in configured and "No address" not in configured


def test_the_limitations_name_every_faithful_kind_the_gate_ran():
    limits = limitations_section([build_task("A")])
    assert f"cover the {len(REGISTRY)} kinds" in limits and all(f"`{kind}`" in limits for kind in REGISTRY)
