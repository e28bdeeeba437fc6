"""`classeval-pro eval` on a small release written by the release stage, and on its ClassEval-format export:
the baselines need no model (reference 100%, skeleton 0%, mutant below 100%), results and leaderboard land
under the evaluations folder, bad options end with one line."""

from __future__ import annotations

import json
import os
from datetime import date

import pytest
from eval_fixtures import ledger_task
from release_fixtures import build_task as counter_task

from core.funnel import Funnel
from core.store import ArtifactStore
from pipeline.release.assemble import ReleaseConfig, release
from tests.cli_runner import run_cli

VERSION = "2026.11.0"


@pytest.fixture
def artifacts(tmp_path):
    saved = dict(os.environ)  # the CLI's callback sets offline defaults with setdefault: undo them afterwards
    os.environ.update({"CLASSEVAL_PRO_ARTIFACTS": str(tmp_path / "artifacts"), "HF_HOME": str(tmp_path / "hf"),
                       "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"})
    store = ArtifactStore(tmp_path / "artifacts")
    released = release(store, "run-1", [ledger_task("2025-06-01"), counter_task(source_date=None)],
                       Funnel(run_id="run-1"), ReleaseConfig(release_date=date(2026, 11, 5)))
    assert len(released.released) == 2
    yield tmp_path / "artifacts"
    os.environ.clear()
    os.environ.update(saved)


@pytest.mark.slow
def test_baselines_on_a_release_and_its_classeval_export(artifacts, monkeypatch, capsys, tmp_path):
    summaries = {}
    for baseline in ("reference", "skeleton", "mutant"):
        out_json = tmp_path / f"{baseline}.json"
        code, out, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--model", baseline, "--n", "3", "--k", "1,3",
                              "--after", "2025-01-01", "--json", str(out_json))
        assert code == 0, err
        summaries[baseline] = json.loads(out_json.read_text())
        assert summaries[baseline]["tasks"] == 1  # the undated task is not shown to be after the cut-off
    reference = summaries["reference"]["strategies"]["baseline"]
    assert reference["class_pass_at_k"] == {"1": 1.0, "3": 1.0} and reference["method_pass_at_k"]["1"] == 1.0
    assert reference["failures"] == {}
    skeleton = summaries["skeleton"]["strategies"]["baseline"]
    assert skeleton["class_pass_at_k"] == {"1": 0.0, "3": 0.0} and skeleton["method_pass_at_k"]["1"] == 0.0
    assert skeleton["failures"] == {"missing": 3}  # nothing is implemented: not a logic error
    assert summaries["mutant"]["strategies"]["baseline"]["class_pass_at_k"]["1"] < 1.0

    folder = artifacts / "evaluations" / VERSION
    board = (folder / "leaderboard.md").read_text()
    rows = [line.split(" | ")[0] for line in board.splitlines() if line.startswith("| ")][1:]
    assert rows == ["| reference", "| mutant", "| skeleton"]  # best class pass@1 first
    assert "| reference | baseline | 1 | 3 | 100.0 | 100.0 | 100.0 | 100.0 | - |" in board
    assert "| skeleton | baseline | 1 | 3 | 0.0 | 0.0 | 0.0 | 0.0 |" in board
    runs = sorted((folder / "runs").glob("*.json"))
    assert len(runs) == 3
    full = json.loads(next(p for p in runs if p.name.startswith("skeleton")).read_text())
    assert len(full["completions"]) == 3 and all(c["score"]["failure"] for c in full["completions"])

    export = artifacts / "releases" / VERSION / "classeval.json"
    out_json = tmp_path / "classeval.json"
    code, out, err = run_cli(monkeypatch, capsys, "eval", str(export), "--model", "reference", "--n", "1", "--k", "1",
                          "--json", str(out_json))
    assert code == 0, err
    both = json.loads(out_json.read_text())  # no --after: the undated task too
    assert both["tasks"] == 2 and both["strategies"]["baseline"]["class_pass_at_k"] == {"1": 1.0}
    assert (artifacts / "evaluations" / "classeval" / "leaderboard.md").is_file()


def test_bad_options_end_with_one_line(artifacts, monkeypatch, capsys):
    code, _, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--model", "reference", "--n", "2", "--k", "1,5")
    assert code == 2 and "pass@5 needs --n of at least 5" in err and "Traceback" not in err
    code, _, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--model", "openai/x", "--strategy", "sideways")
    assert code == 2 and "sideways" in err and "holistic" in err
    code, _, err = run_cli(monkeypatch, capsys, "eval", "no-such-release", "--model", "reference")
    assert code == 2 and "no-such-release" in err
    code, _, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--model", "reference", "--after", "2099-01-01")
    assert code == 2 and "no task to evaluate" in err


@pytest.mark.slow
def test_a_model_through_the_command_line(artifacts, monkeypatch, capsys, tmp_path):
    from eval_fixtures import SCRIPTED

    from tests.emulators.chat import ChatEmulator

    with ChatEmulator(lambda call: SCRIPTED["right"] if "Ledger" in call.last_user_message else "no idea") as server:
        args = ("eval", VERSION, "--model", "openai/solver-a", "--api-base", server.base_url, "--n", "2", "--k", "1,2",
                "--strategy", "holistic", "--json", str(tmp_path / "s.json"))
        code, out, err = run_cli(monkeypatch, capsys, *args)
        assert code == 0, err
        calls = len(server.calls)
        code, _, err = run_cli(monkeypatch, capsys, *args)  # a rerun: every answer from the cache
        assert code == 0, err
        assert len(server.calls) == calls
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["tasks"] == 2 and summary["stopped"] is None
    holistic = summary["strategies"]["holistic"]
    assert holistic["class_pass_at_k"]["1"] == 0.5 and holistic["failures"] == {"bad_answer": 2}
    board = (artifacts / "evaluations" / VERSION / "leaderboard.md").read_text()
    assert "| openai/solver-a | holistic | 2 | 2 | 50.0 | 50.0 |" in board
    assert "| reference |" not in board  # only what ran on this release


TALLY = {
    "task_id": "ClassEval_900",
    "skeleton": 'class TallyBook:\n    def add(self, n):\n        """Add n to the total."""\n',
    "test": ("import unittest\n\nclass TallyBookTestAdd(unittest.TestCase):\n    def test_add(self):\n"
             "        book = TallyBook()\n        book.add(3)\n        self.assertEqual(book.total, 3)\n"),
    "solution_code": "class TallyBook:\n    def __init__(self):\n        self.total = 0\n\n    def add(self, n):\n"
                     "        self.total += n\n",
    "import_statement": [], "class_name": "TallyBook", "class_description": "Keeps a running tally.",
    "test_classes": ["TallyBookTestAdd"], "methods_info": [],
}


def test_a_foreign_file_is_read_task_by_task(artifacts, monkeypatch, capsys, tmp_path):
    """ClassEval's own data has skeletons that do not parse the two ways its harness never notices (curly
    quotes around a docstring, a docstring left open until the next method): those are mended and scored,
    as ClassEval's harness runs them. A task that cannot be used is named with the reason and left out, the
    others are scored, and the command exits 1 only after its report."""
    curly = {**TALLY, "task_id": "ClassEval_903",
             "skeleton": TALLY["skeleton"].replace('"""', "\u201c\u201d\u201c", 1)}
    unclosed = {**TALLY, "task_id": "ClassEval_904", "skeleton": TALLY["skeleton"].rsplit('"""', 1)[0] + "\n"}
    broken = {**TALLY, "task_id": "ClassEval_901", "skeleton": "class TallyBook:\n    def add(self, name:\n"}
    nameless = {**TALLY, "task_id": "ClassEval_902", "class_name": ""}
    path = tmp_path / "foreign.json"
    path.write_text(json.dumps([broken, TALLY, nameless, curly, unclosed]))
    out_json = tmp_path / "summary.json"
    code, out, err = run_cli(monkeypatch, capsys, "eval", str(path), "--model", "reference", "--n", "1", "--k", "1",
                             "--json", str(out_json))
    assert code == 1, err
    assert "task ClassEval_901 left out: skeleton does not parse: line 2: " in err
    assert "task ClassEval_902 left out: " in err and "class_name" in err
    assert "2 task(s) could not be read and were left out" in err and "Traceback" not in err
    summary = json.loads(out_json.read_text())
    assert summary["tasks"] == 3 and summary["strategies"]["baseline"]["class_pass_at_k"] == {"1": 1.0}
    assert sorted(summary["left_out"]) == ["ClassEval_901", "ClassEval_902"]


def test_results_are_filed_under_the_release_version_however_it_is_named(artifacts, monkeypatch, capsys, tmp_path):
    import shutil

    copy = tmp_path / "bench"
    shutil.copytree(artifacts / "releases" / VERSION, copy)
    for name in (VERSION, str(artifacts / "releases" / VERSION), str(copy)):
        code, _, err = run_cli(monkeypatch, capsys, "eval", name, "--model", "skeleton", "--n", "1", "--k", "1",
                               "--limit", "1")
        assert code == 0, err
    assert sorted(p.name for p in (artifacts / "evaluations").iterdir()) == [VERSION]  # one leaderboard
    assert len(list((artifacts / "evaluations" / VERSION / "runs").glob("skeleton--*.json"))) >= 1
