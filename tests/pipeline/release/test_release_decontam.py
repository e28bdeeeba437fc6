"""Decontamination against maintainer-supplied ClassEval-format files."""

from __future__ import annotations

import json

import pytest
from release_fixtures import COUNTER_SOLUTION, build_task

from core.errors import InputError
from pipeline.release.decontam import DecontamSettings, decontaminate, read_benchmark


def _write(path, entries):
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def test_a_copied_solution_is_contaminated_and_the_report_names_the_entry(tmp_path):
    bench = _write(tmp_path / "classeval.json", [
        {"task_id": "ClassEval_7", "skeleton": "class Other:\n    pass\n", "solution_code": COUNTER_SOLUTION},
        {"task_id": "ClassEval_8", "skeleton": "", "solution_code": "def unrelated():\n    return 42\n"},
    ])
    [report] = decontaminate([build_task()], [bench])
    assert report.contaminated and report.score == 1.0
    solution = next(m for m in report.matches if m.field == "solution")
    assert solution.entry == "classeval.json:ClassEval_7" and solution.shared == solution.total


def test_an_unrelated_task_is_clean_and_the_threshold_is_configurable(tmp_path):
    half = "\n".join(COUNTER_SOLUTION.splitlines()[:12])  # roughly the first half of the class
    bench = _write(tmp_path / "b.jsonl", [])
    bench.write_text(json.dumps({"task_id": "x", "solution_code": half}) + "\n", encoding="utf-8")
    [report] = decontaminate([build_task()], [bench])
    assert 0.2 < report.score < 0.9
    assert decontaminate([build_task()], [bench], DecontamSettings(threshold=0.95))[0].contaminated is False
    assert decontaminate([build_task()], [bench], DecontamSettings(threshold=0.2))[0].contaminated is True
    [clean] = decontaminate([build_task()], [])
    assert clean.score == 0.0 and not clean.contaminated


def test_bad_benchmark_files_name_the_file_and_entry(tmp_path):
    with pytest.raises(InputError, match="missing.json: benchmark file not found"):
        read_benchmark(tmp_path / "missing.json")
    bad = _write(tmp_path / "bad.json", [{"skeleton": "x"}])
    with pytest.raises(InputError, match=r"bad.json\[0\]: missing field task_id"):
        read_benchmark(bad)
