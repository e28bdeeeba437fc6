"""Versioning, diff, export and agreement statistics on their own."""

from __future__ import annotations

from datetime import date

import pytest
from release_fixtures import build_task

from core.agreement import Agreement, PairKappa
from core.errors import InputError
from pipeline.release.card import agreement_table, size_category
from pipeline.release.diff import release_diff
from pipeline.release.export import strip_module_import
from pipeline.release.versioning import next_version, parse_version, sorted_versions
from validation.faithful import REGISTRY


def test_calendar_versions_increment_within_a_month_and_restart_in_the_next():
    nov = date(2026, 11, 20)
    assert next_version([], nov) == "2026.11.0"
    assert next_version(["2026.11.0", "2026.11.1", "2026.10.4", ".tmp", "notes"], nov) == "2026.11.2"
    assert next_version(["2026.11.9", "2026.11.10"], nov) == "2026.11.11"  # numeric, not text, order
    assert next_version(["2026.11.3"], date(2026, 12, 1)) == "2026.12.0"
    assert sorted_versions(["2026.11.10", "2026.11.9", "2025.01.0", "x"]) == ["2025.01.0", "2026.11.9", "2026.11.10"]
    for bad, problem in (("2026.13.0", "has month 13; months run from 01 to 12"),
                         ("2026.1.0", r"needs a two-digit month \(2026.01.0\)"),
                         ("26.11.0", "needs a four-digit year"),
                         ("v2026.11.0", "is not a calendar version YYYY.MM.N"),
                         ("2026.11", "is not a calendar version YYYY.MM.N")):
        with pytest.raises(InputError, match=f"release version '{bad}' {problem}"):
            parse_version(bad)


def test_diff_reports_added_removed_and_changed():
    a, b = build_task(), build_task("Other", candidate_id="cand-o", module="other")
    edited = build_task(test=a.test + "\n\ndef test_more():\n    assert True\n")
    diff = release_diff([a, b], [a, edited], previous_version="2026.11.0", version="2026.11.1")
    assert diff["removed"] == [b.task_id] and diff["added"] == [] and diff["unchanged"] == 1
    assert diff["changed"] == [{"task_id": edited.task_id, "previous_task_ids": [a.task_id], "class_name": "Counter"}]


def test_export_strips_the_module_import_only():
    test = "import math\nfrom counter import (\n    Counter,\n)\nfrom counters import X\n\ndef test_x():\n    pass\n"
    stripped, plain = strip_module_import(test, "counter")
    assert stripped == "import math\nfrom counters import X\n\ndef test_x():\n    pass\n" and plain is False
    assert strip_module_import("import counter\n", "counter") == ("import counter\n", True)


def test_size_categories():
    assert [size_category(n) for n in (0, 999, 1000, 20_000)] == ["n<1K", "n<1K", "1K<n<10K", "10K<n<100K"]


def test_the_card_counts_faithful_variants_per_kind_and_the_overspecified_rejections():
    from core.funnel import Funnel, StageCount
    from core.records import RejectReason
    from pipeline.release.card import faithful_section

    checked = {"line_coverage": 0.95, "faithful_variants": 0.0, "faithful_message": 3.0, "faithful_guard_order": 1.0,
               "faithful_state_after_error": 2.0}
    tasks = [build_task("A", metrics=checked), build_task("B", metrics={**checked, "faithful_guard_order": None}),
             build_task("C", metrics={"line_coverage": 0.95})]
    funnel = Funnel(run_id="r", stages={
        "validate": StageCount(received=9, accepted=5, rejected={RejectReason.OVERSPECIFIED_TESTS: 4}),
        "repair": StageCount(received=4, accepted=3, rejected={RejectReason.OVERSPECIFIED_TESTS: 1})})
    text = faithful_section(tasks, funnel)
    assert "2 of 3 tasks were checked" in text and "0 of them fail one" in text
    assert "gate found 4 candidate(s)" in text and "1 were still rejected as `overspecified_tests`" in text
    # a row per kind the gate runs (the registry's, in its order), described by the kind itself
    assert "| `message` | exception messages reworded | 2 | 6 |" in text
    assert "| `guard_order` | independent guard checks at the top of a method in another order | 1 | 1 |" in text
    assert "| `float_ulp` | float results of public methods moved by one ulp" in text
    assert "| `state_after_error` | where a public method checks its arguments before it changes the object" in text
    rows = [line.split("`")[1] for line in text.splitlines() if line.startswith("| `")]
    assert rows == list(REGISTRY)
    assert faithful_section([tasks[2]], funnel) == "Faithful variants were not run for the tasks of this release."


def test_the_card_says_how_compositions_were_checked_for_coherence():
    from core.funnel import Funnel, StageCount
    from core.records import Origin, RejectReason
    from pipeline.release.card import coherence_section

    tasks = [build_task("A", origin=Origin.COMPOSED, metrics={"seam_interaction": 2.0}),
             build_task("B", origin=Origin.COMPOSED, metrics={"seam_interaction": 5.0}),
             build_task("C", origin=Origin.COMPOSED, metrics={}), build_task("D", metrics={"seam_interaction": 9.0})]
    funnel = Funnel(run_id="r", stages={
        "compose": StageCount(received=25, accepted=16, rejected={RejectReason.INCOHERENT_FUSION: 9},
                              skipped={"no_link": 40, "quota": 2}),
        "validate": StageCount(received=16, accepted=13, rejected={RejectReason.INCOHERENT_FUSION: 3})})
    text = coherence_section(tasks, funnel)
    assert "40 allowed pair(s) of seeds had no meaningful link" in text and "(3 in this build)" in text
    assert "2 of the 3 composed tasks of this release were measured, with 2 to 5 tests (median 3.5)" in text
    assert "None of the 0 composed tasks" in coherence_section(tasks[3:], Funnel(run_id="r"))


def test_agreement_of_the_checks_is_percent_agreement_and_kappa_is_for_the_model_panel():
    checks = Agreement(judged=10, judges=("a", "b"), compared="checks", rated_items=10, fleiss_kappa=-0.005,
                       pairwise=(PairKappa(judge_a="a", judge_b="b", items=10, observed=0.9, kappa=-0.005),),
                       decisions={"a": {"accept": 10}, "b": {"accept": 9, "reject": 1}})
    text = agreement_table(checks)
    assert "Percent agreement within the checks" in text and "| a | b | 10 | 90.0% |" in text
    assert "kappa" not in text.split("Percent agreement")[1].split("(")[0] and "Fleiss" not in text and "-0.005" not in text
    models = checks.model_copy(update={"compared": "models"})
    text = agreement_table(models)
    assert "Fleiss' kappa within the models over the 10 candidates" in text and "Cohen's kappa" in text
