"""Released tasks implemented from their skeleton alone pass their tests.

Each folder under tests/blind_tasks/ holds one task of a default build's release: `skeleton.py` (what a
solver sees), `solution.py` (written from that skeleton alone, without reading the reference or the tests),
`task_tests.py` (the task's test module as released; not named test_* so that pytest does not collect it
here) and `task.json` (task id, module and class name, the release it came from, the first attempt's
outcome). Every solution must pass every test of its task: a task a careful programmer cannot pass from its
skeleton is a defect of the task, whatever the gate says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from validation.sandbox import SandboxJob, SandboxPool

FOLDER = Path(__file__).resolve().parent / "blind_tasks"
TASKS = sorted(p for p in FOLDER.iterdir() if (p / "task.json").is_file()) if FOLDER.is_dir() else []


@pytest.fixture(scope="module")
def pool():
    with SandboxPool(jobs=1) as sandbox:
        yield sandbox


def test_there_are_blind_implementations_of_every_origin():
    origins = [json.loads((p / "task.json").read_text())["origin"] for p in TASKS]
    assert len(TASKS) >= 10 and {"enhanced", "composed", "mined"} <= set(origins)


@pytest.mark.parametrize("task", TASKS, ids=lambda p: p.name)
def test_a_blind_implementation_passes_every_test_of_its_task(task, pool):
    meta = json.loads((task / "task.json").read_text())
    test_file = f"test_{meta['module']}.py"
    run = pool.run(SandboxJob(files={f"{meta['module']}.py": (task / "solution.py").read_text(),
                                     test_file: (task / "task_tests.py").read_text()}, test_file=test_file))
    failing = {t.test_id: t.reason for t in run.tests if t.outcome != "passed"}
    assert run.status == "completed" and run.collected and not run.collection_errors, run.notes
    assert not failing, failing
    assert len(run.tests) == len(run.collected)
