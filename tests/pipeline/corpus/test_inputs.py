"""`classeval-pro validate PATH`: what PATH may be, and the table and JSON it produces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from commands.main import app
from core.errors import InputError
from pipeline.corpus.inputs import load_candidates

SOLUTION = '''class Stack:
    """A bounded stack."""

    def __init__(self, limit=3):
        self.items = []
        self.limit = limit

    def push(self, x):
        if self.full():
            raise OverflowError("full")
        self.items.append(x)

    def pop(self):
        if not self.items:
            raise IndexError("empty")
        return self.items.pop()

    def full(self):
        return len(self.items) >= self.limit

    def size(self):
        return len(self.items)
'''

UNITTEST_TESTS = '''import unittest


class TestStack(unittest.TestCase):
    def test_round_trip(self):
        s = Stack(2)
        s.push(1)
        self.assertFalse(s.full())
        s.push(2)
        self.assertTrue(s.full())
        self.assertEqual(s.size(), 2)
        with self.assertRaises(OverflowError):
            s.push(3)
        self.assertEqual(s.pop(), 2)
        self.assertEqual(s.size(), 1)
        s.push(5)
        self.assertEqual(s.pop(), 5)
        self.assertEqual(s.pop(), 1)

    def test_pop_empty(self):
        with self.assertRaises(IndexError):
            Stack().pop()
'''


def classeval_file(tmp_path: Path) -> Path:
    entries = [
        {"task_id": "ClassEval_0", "class_name": "Stack", "solution_code": SOLUTION, "test": UNITTEST_TESTS,
         "import_statement": [], "class_description": "A bounded stack."},
        {"task_id": "ClassEval_1", "class_name": "Stack", "solution_code": SOLUTION, "test": UNITTEST_TESTS,
         "import_statement": ["import numpy"], "class_description": "A bounded stack needing numpy."},
    ]
    path = tmp_path / "classeval.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def write_seed(root: Path, domain: str, name: str) -> Path:
    folder = root / domain / name
    folder.mkdir(parents=True)
    (folder / "seed.toml").write_text(
        'class_name = "Stack"\ndescription = "A bounded stack."\nlicence = "MIT"\n'
        '[provenance]\nsource = "written for the tests"\n', encoding="utf-8")
    (folder / f"{name}.py").write_text(SOLUTION, encoding="utf-8")
    (folder / f"test_{name}.py").write_text(f"from {name} import Stack\n\n" + UNITTEST_TESTS, encoding="utf-8")
    return folder


def test_seed_domain_and_root_folders(tmp_path):
    seed = write_seed(tmp_path, "Algo", "stack")
    write_seed(tmp_path, "Algo", "other_stack")
    for path, expected in ((seed, ["Algo/stack"]), (tmp_path / "Algo", ["Algo/other_stack", "Algo/stack"]),
                           (tmp_path, ["Algo/other_stack", "Algo/stack"])):
        named, problems = load_candidates(path)
        assert [n.task_id for n in named] == expected and problems == []
    named, _ = load_candidates(seed)
    assert named[0].candidate.module_name == "stack" and named[0].candidate.solution_code == SOLUTION


def test_a_seed_folder_without_seed_toml_is_named_not_skipped(tmp_path):
    write_seed(tmp_path, "Algo", "stack")
    broken = write_seed(tmp_path, "Algo", "queue")
    (broken / "seed.toml").unlink()
    for path in (tmp_path, tmp_path / "Algo", broken):
        named, problems = load_candidates(path)
        assert [n.task_id for n in named] == ([] if path == broken else ["Algo/stack"])
        assert len(problems) == 1 and "queue" in problems[0] and "seed.toml" in problems[0], problems


def test_classeval_file_release_folder_and_candidate_records(tmp_path):
    path = classeval_file(tmp_path)
    named, _ = load_candidates(path)
    assert [n.task_id for n in named] == ["ClassEval_0", "ClassEval_1"]
    assert named[1].candidate.test_code.startswith("from stack import *\nimport numpy")
    release = tmp_path / "release"
    release.mkdir()
    (release / "classeval.json").write_text(path.read_text(), encoding="utf-8")
    assert [n.task_id for n in load_candidates(release)[0]] == ["ClassEval_0", "ClassEval_1"]
    records = tmp_path / "records"
    records.mkdir()
    (records / "a.json").write_text(named[0].candidate.to_json(), encoding="utf-8")
    (records / "broken.json").write_text("{}", encoding="utf-8")
    found, problems = load_candidates(records)
    assert [n.candidate for n in found] == [named[0].candidate]
    assert len(problems) == 1 and "broken.json" in problems[0]


def test_unusable_paths_name_the_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_candidates(tmp_path / "missing")
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(InputError, match="notes.txt"):
        load_candidates(tmp_path / "notes.txt")
    with pytest.raises(InputError, match="no seeds"):
        load_candidates(tmp_path)


@pytest.mark.slow
def test_validate_command_on_a_classeval_file(tmp_path):
    out = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["validate", str(classeval_file(tmp_path)), "--json", str(out), "--jobs", "2",
                                      "--no-mutation"])
    assert result.exit_code == 1, result.output  # one of the two tasks fails
    rows = json.loads(out.read_text())
    assert [r["task_id"] for r in rows] == ["ClassEval_0", "ClassEval_1"]
    for row in rows:
        assert {"task_id", "passed", "line_coverage", "branch_coverage", "interaction_edge_coverage",
                "mutation_score", "reasons"} <= set(row)
    assert rows[0]["passed"] is True and rows[0]["line_coverage"] == 1.0
    assert rows[1]["passed"] is False and rows[1]["reasons"][0] == "env_dependent"
    assert "ClassEval_0" in result.output and "1 passed, 1 failed" in result.output


@pytest.mark.slow
def test_validate_limit_gates_only_the_first_tasks(tmp_path):
    out = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["validate", str(classeval_file(tmp_path)), "--json", str(out), "--jobs", "1",
                                      "--no-mutation", "--limit", "1"])
    assert result.exit_code == 0, result.output  # the failing second task is not run
    assert [r["task_id"] for r in json.loads(out.read_text())] == ["ClassEval_0"]
    assert "1 passed, 0 failed" in result.output
