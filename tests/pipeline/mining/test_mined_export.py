"""Every test a released mined task holds runs under ClassEval's harness, which runs only `test_classes`.

A repository's own tests often sit in plain pytest classes; the task keeps them whole, followed by the
oracle's tests. The export must name every class that holds tests, as a `unittest.TestCase`, so the
harness runs all of them: here a mined ledger whose repository tests are a plain class with a
`setup_method`, through the mine stage, the gate and the export, then ClassEval's steps in the sandbox
(`tests/pipeline/release/classeval_steps.py`).
"""

from __future__ import annotations

import ast
import libcst as cst
import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module

from core.settings import Settings
from core.store import ArtifactStore
from pipeline.mining.records import MineConfig
from pipeline.release.export import as_test_case, classeval_entry, to_unittest
from pipeline.release.task_builder import build_task
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import RunContext, run_stage
from pipeline.stages.gate import GateStage
from pipeline.stages.mine import MineStage
from pipeline.stages.repair import RepairStage
from pipeline.stages.run_records import accepted_pairs, generated_candidates
from tests.pipeline.release.classeval_steps import fenced, run_task
from validation.sandbox import SandboxPool

REPOSITORY_TESTS = '''import pytest

from books.ledger import FreshLedger


class TestFreshLedger:
    def setup_method(self):
        self.ledger = FreshLedger(limit=50)

    def test_add_counts_entries(self):
        assert self.ledger.add("Rent", 10) == 1
        assert self.ledger.add("food", 5) == 2

    def test_total_and_labels(self):
        self.ledger.add(" Rent ", 10)
        self.ledger.add("rent", 4)
        assert self.ledger.total() == 14
        assert self.ledger.by_label("rent") == 14
        assert self.ledger.labels() == ["rent"]

    def test_over_the_limit(self):
        with pytest.raises(ValueError):
            self.ledger.add("big", 51)

    def test_close(self):
        self.ledger.add("a", 3)
        assert self.ledger.close() == 3
        with pytest.raises(RuntimeError):
            self.ledger.add("b", 1)
'''


def _test_count(test_module: str) -> int:
    """Test functions and test methods of classes in a module, as pytest would collect them."""
    tree = ast.parse(test_module)
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
    methods = [m for n in tree.body if isinstance(n, ast.ClassDef) for m in n.body
               if isinstance(m, ast.FunctionDef) and m.name.startswith("test")]
    return len(functions) + len(methods)


def test_plain_test_classes_become_test_cases_and_are_named():
    converted = to_unittest(REPOSITORY_TESTS.replace("from books.ledger import FreshLedger\n", ""), "FreshLedger",
                            ["add", "total"])
    assert converted.kept_classes == ["TestFreshLedger"] and not converted.not_converted
    assert "class TestFreshLedger(unittest.TestCase):\n    def setUp(self):" in converted.code
    assert converted.code.startswith("import unittest\n")
    # a class the harness cannot run as a TestCase is named as not converted, never silently left out
    fixture_taking = "class TestX:\n    def test_a(self, tmp_path):\n        assert tmp_path\n"
    assert to_unittest(fixture_taking, "X", []).not_converted == ["TestX"]
    already = "import unittest\n\n\nclass TestY(unittest.TestCase):\n    def test_a(self):\n        pass\n"
    assert to_unittest(already, "Y", []).kept_classes == ["TestY"]
    assert to_unittest("class Helper:\n    def build(self):\n        return 1\n", "Z", []).kept_classes == []
    assert as_test_case(cst.parse_statement("class TestW(Base):\n    def test_a(self):\n        pass\n")) is None


def _runs_per_class(entry: dict) -> dict[str, int]:
    """Per class named in `test_classes`, the tests `unittest`'s loader finds in it (its `test*` methods)."""
    classes = {n.name: n for n in ast.parse(entry["test"]).body if isinstance(n, ast.ClassDef)}
    return {name: sum(1 for m in classes[name].body if isinstance(m, ast.FunctionDef) and m.name.startswith("test"))
            for name in entry["test_classes"]}


@pytest.mark.slow
def test_every_test_of_an_exported_mined_task_runs_under_the_harness(tmp_path):
    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2025-04-02", {"books/__init__.py": "", "books/ledger.py": ledger_module("FreshLedger"),
                                "tests/test_ledger.py": REPOSITORY_TESTS, "README.md": "a ledger cache"})
    config = BuildConfig(mine=MineConfig(local=tmp_path / "repos", as_seeds=False))
    store = ArtifactStore(tmp_path / "artifacts")
    ctx = RunContext(store, "run-1", config, Settings.from_environment().with_artifacts(store.root))
    run_stage(MineStage(), ctx)
    [candidate] = generated_candidates(store, "run-1")
    assert candidate.generator.parameters["tests"] == "repository+oracle"
    assert "class TestFreshLedger:" in candidate.test_code
    run_stage(GateStage(), ctx)
    run_stage(RepairStage(), ctx)
    [(survivor, report)] = list(accepted_pairs(store, "run-1"))
    task = build_task(survivor, report)
    entry = classeval_entry(task)
    assert "TestFreshLedger" in entry["test_classes"]
    # every test the released module holds is in a class the harness runs: the classes' count is the module's
    runs = _runs_per_class(entry)
    # the repository's test of an addition after close expects a RuntimeError no docstring states: it is
    # not released, and the class keeps its other three tests
    assert "    def test_close(self):" not in task.test and "def test_over_the_limit(self):" in task.test
    assert sum(runs.values()) == _test_count(task.test) > 3 and runs["TestFreshLedger"] == 3
    # ClassEval's steps, in the sandbox: each class runs exactly those tests, and they pass on the reference
    with SandboxPool(jobs=1) as pool:
        verdicts = run_task(pool, entry, fenced(entry["solution_code"]), runs)
    assert set(verdicts) == set(entry["test_classes"]) and set(verdicts.values()) == {"success"}, verdicts
    # a class left out of `test_classes` is a test the harness never runs: the count says so
    short = {**entry, "test_classes": [n for n in entry["test_classes"] if n != "TestFreshLedger"]}
    assert sum(_runs_per_class(short).values()) < _test_count(task.test)
