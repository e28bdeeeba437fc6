"""Candidate + gate report (+ verdicts) -> Task."""

from __future__ import annotations

import pytest
from release_fixtures import COUNTER_SOLUTION, COUNTER_TEST, verdict

from core.errors import InputError
from core.records import Candidate, CheckResult, Decision, GateReport, GeneratorSpec, Origin, Provenance, Task
from pipeline.release.task_builder import build_task, split_imports

SOLUTION = "import math\nfrom collections import (\n    OrderedDict,\n)\n\n\n" + COUNTER_SOLUTION


def _candidate(date: str | None = "2025-02-03T10:00:00Z") -> Candidate:
    return Candidate(
        candidate_id=Candidate.make_id("Counter", SOLUTION, COUNTER_TEST), class_name="Counter", module_name="counter",
        domains=("Algo_DataStruct",), description="Counts events.", skeleton="class Counter:\n    pass\n",
        solution_code=SOLUTION, test_code=COUNTER_TEST, origin=Origin.MINED,
        provenance=Provenance(repository="o/r", first_commit_date=date), generator=GeneratorSpec(backend="github"))


def _report(candidate: Candidate, passed: bool = True) -> GateReport:
    return GateReport(candidate_id=candidate.candidate_id, passed=passed, line_coverage=0.97, mutation_score=None,
                      checks=(CheckResult(name="methods_on_one_instance", value=3, passed=True),
                              CheckResult(name="deterministic", value=True, passed=True)))


def test_split_imports_moves_only_module_level_imports():
    imports, rest = split_imports("import os\nx = 1\ndef f():\n    import re\n    return re\n")
    assert imports == ("import os",)
    assert rest.startswith("x = 1") and "import re" in rest


def test_build_task_fills_classeval_columns():
    cand = _candidate()
    judged = (verdict(cand.candidate_id, "a", Decision.ACCEPT), verdict(cand.candidate_id, "b", Decision.REJECT))
    task = build_task(cand, _report(cand), judged)
    assert task.import_statement == ("import math", "from collections import ( OrderedDict, )")
    assert task.solution_code == COUNTER_SOLUTION
    assert task.task_id == Task.make_id("Counter", task.skeleton, task.solution_code, task.test)
    assert task.class_description == "Counts events per name."
    assert task.class_constructor.startswith("class Counter:\n    def __init__(self):")
    assert task.fields == ("self.counts",)
    assert task.test_classes == ("test_add_and_total",)
    assert [m.method_name for m in task.methods_info] == ["add", "total", "top"]
    assert task.methods_info[0].dependencies.field_dependencies == ("self.counts",)
    assert task.source_date == "2025-02-03"
    assert task.metrics["line_coverage"] == 0.97 and task.metrics["mutation_score"] is None
    assert task.metrics["methods_on_one_instance"] == 3.0 and "deterministic" not in task.metrics
    assert task.verdicts == judged and task.candidate_id == cand.candidate_id
    assert cand.requires_python is None and task.requires_python == "3.8"  # found from the code when not recorded
    recorded = cand.model_copy(update={"requires_python": "3.12"})
    assert build_task(recorded, _report(recorded)).requires_python == "3.12"
    # Exec-free check that the parts paste back into valid code, the way a ClassEval harness joins them.
    compile("\n".join(task.import_statement) + "\n" + task.solution_code, "joined", "exec")


def test_build_task_refuses_failed_or_foreign_reports():
    cand = _candidate()
    with pytest.raises(InputError, match="did not pass"):
        build_task(cand, _report(cand, passed=False))
    with pytest.raises(InputError, match="verdict about another candidate"):
        build_task(cand, _report(cand), (verdict("cand-other", "a", Decision.ACCEPT),))
    with pytest.raises(InputError, match="not an ISO date"):
        build_task(_candidate("last spring"), _report(cand))


def test_the_card_counts_tasks_per_python_and_names_the_interpreter():
    from pipeline.release.card import interpreter_label, python_section

    cand = _candidate()
    tasks = [build_task(c, _report(c)) for c in (cand, cand.model_copy(update={"requires_python": "3.12"}))]
    own = {"version": "3.11.7", "implementation": "cpython", "label": "CPython 3.11.7", "configured": "no"}
    text = python_section(tasks, [interpreter_label(own), interpreter_label({**own, "configured": "yes"})])
    assert "| 3.8 | 1 |" in text and "| 3.12 | 1 |" in text and text.index("| 3.8 |") < text.index("| 3.12 |")
    assert "ran this release's new tasks on CPython 3.11.7, CPython 3.11.7 (configured)" in text
    assert "not recorded" in python_section(tasks, [])
