"""Faithful variants against a release's tasks: which released tests fail a correct implementation.

The gate runs the variants on every candidate of a build (validation/faithful/); this runs them on a
release that exists, made by any build (an older one, or another tool's ClassEval-format data turned into
a release), so a maintainer can measure how many of its tasks are over-specified and in what way. The
tasks are the items of a command's stage (`pipeline.stages.inputs.FaithfulOnInputs`), run by the driver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from core.records import Candidate, GateReport, Task


def task_candidate(task: Task) -> Candidate:
    """The candidate a released task was (its imports put back in front of the class)."""
    solution = task.module_source()
    return Candidate(candidate_id=task.candidate_id or task.task_id, class_name=task.class_name,
                     module_name=task.module_name, domains=task.domains, description=task.class_description,
                     skeleton=task.skeleton, solution_code=solution, test_code=task.test, origin=task.origin,
                     provenance=task.provenance, generator=task.generator)


def summary(results: Sequence[tuple[Task, GateReport]]) -> dict[str, Any]:
    """Counts per variant kind and origin, and every failing task with its failing tests."""
    checked = [(t, r) for t, r in results if r.check("faithful_variants") is not None]
    failing = [(t, r) for t, r in checked if not r.passed]
    kinds: Counter[str] = Counter()
    failed_kinds: Counter[str] = Counter()
    for _, report in checked:
        for kind, row in (report.evidence.get("faithful_variants") or {}).get("kinds", {}).items():
            kinds[kind] += 1
            failed_kinds[kind] += row.get("passed") is False
    return {
        "tasks": len(results),
        "checked": len(checked),
        "not_checked": [{"task_id": t.task_id, "why": [r.value for r in rep.reasons]}
                        for t, rep in results if rep.check("faithful_variants") is None],
        "failing": len(failing),
        "failing_share": round(len(failing) / len(checked), 4) if checked else None,
        "per_kind": {k: {"tasks_with_places": kinds[k], "tasks_failing": failed_kinds[k]} for k in sorted(kinds)},
        "per_origin": {o: {"checked": sum(t.origin.value == o for t, _ in checked),
                           "failing": sum(t.origin.value == o for t, _ in failing)}
                       for o in sorted({t.origin.value for t, _ in checked})},
        "failing_tasks": [{"task_id": t.task_id, "class_name": t.class_name, "origin": t.origin.value,
                           "variants": [{"kind": f["kind"], "failing_tests": sorted(f["failing_tests"])}
                                        for f in (r.evidence.get("faithful_variants") or {}).get("failed", [])]}
                          for t, r in failing],
    }
