"""Shared setup as fixtures: the setup several generated tests start with is written once, as a pytest
fixture named for what it is, and the tests take it; tests whose setup differs keep their own. Checked on
oracle runs of a small inline class (through the sandbox), and on hand-made setups for the planning rule;
the module still passes on the reference, and its ClassEval export still runs under ClassEval's harness."""

from __future__ import annotations

import ast
import textwrap

import pytest

from core.analysis.class_facts import methods_info
from core.analysis.class_model import analyse
from core.analysis.skeleton import make_skeleton
from core.records import GeneratorSpec, MethodInfo, Origin, Provenance, Task
from core.scenarios import Arg, Scenario, call
from pipeline.release.export import classeval_entry
from pipeline.release.task_builder import test_names as top_level_tests
from pipeline.synthesis.naming import NamedStep, fixture_names
from pipeline.synthesis.oracle import run_oracle
from pipeline.synthesis.testgen import MIN_LINES_SAVED, Fixture, Renderer, plan_fixtures, written_fixtures
from tests.pipeline.release.classeval_steps import fenced, run_task
from validation.sandbox import SandboxJob


BOARD = textwrap.dedent('''
    class TaskBoard:
        """Tasks with their hours; closed tasks no longer count."""

        def __init__(self, owner="team"):
            self.owner = owner
            self.tasks = {}
            self.closed = []

        def add_task(self, name, hours):
            """Add a task of `hours` hours (more than 0, else ValueError)."""
            if hours <= 0:
                raise ValueError("hours must be positive")
            self.tasks[name] = hours

        def close(self, name):
            """Close a task (KeyError for a task never added)."""
            if name not in self.tasks:
                raise KeyError(name)
            self.closed.append(name)

        def open_tasks(self):
            """Names of the tasks not closed, sorted."""
            return sorted(n for n in self.tasks if n not in self.closed)

        def hours_left(self):
            """Hours of the tasks not closed."""
            return sum(h for n, h in self.tasks.items() if n not in self.closed)
''').lstrip()

TWO_TASKS = (call("add_task", '"a"', "2"), call("add_task", '"b"', "3"))
SCENARIOS = [
    Scenario(steps=TWO_TASKS + (call("open_tasks"),)),
    Scenario(steps=TWO_TASKS + (call("hours_left"),)),
    Scenario(steps=TWO_TASKS + (call("close", '"a"'), call("open_tasks"))),
    Scenario(steps=TWO_TASKS + (call("close", '"c"'),)),
    Scenario(steps=(call("add_task", '"x"', "0"),)),
    Scenario(ctor_args=(Arg(literal='"ops"'),), steps=(call("hours_left"),)),
]


@pytest.fixture(scope="module")
def board_module(sandbox_pool) -> tuple[str, int]:
    """(the rendered test module of the scenarios above, the number of tests the renderer counted)."""
    runs = run_oracle(sandbox_pool, source=BOARD, module="task_board", class_name="TaskBoard", scenarios=SCENARIOS)
    renderer = Renderer(analyse(BOARD, "TaskBoard"), "task_board", BOARD)
    return renderer.module_text(runs), renderer.written


def _functions(text: str) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}


def test_a_setup_several_tests_start_with_becomes_one_fixture_they_take(board_module):
    text, written = board_module
    functions = _functions(text)
    assert text.count("@pytest.fixture") == 1
    fixture = functions["board_with_two_tasks"]  # named for what it holds
    assert [ast.unparse(s) for s in fixture.body] == [
        "board = TaskBoard()", "board.add_task('a', 2)", "board.add_task('b', 3)", "return board"]
    takers = [name for name, f in functions.items() if [a.arg for a in f.args.args] == ["board_with_two_tasks"]]
    assert len(takers) == 4
    for name in takers:  # the setup is written nowhere else; each test still checks one behaviour
        body = [ast.unparse(s) for s in functions[name].body]
        assert not any("add_task" in line or "TaskBoard(" in line for line in body), (name, body)
        assert any(line.startswith(("assert ", "with pytest.raises")) for line in body)
    # Tests whose setup differs build their own instance.
    own = {name: [ast.unparse(s) for s in f.body] for name, f in functions.items() if name.startswith("test")
           and name not in takers}
    assert sorted(own.values()) == [["board = TaskBoard('ops')", "assert board.hours_left() == 0"],
                                    ["board = TaskBoard()", "with pytest.raises(ValueError):\n    board.add_task('x', 0)"]]
    # The count the minimum is held against is of test functions, fixtures not included.
    assert written == 6 == len(top_level_tests(text))


def test_the_module_with_its_fixture_passes_on_the_reference_with_its_setup_measured(board_module, sandbox_pool):
    text, _ = board_module
    result = sandbox_pool.run(SandboxJob(files={"task_board.py": BOARD, "test_task_board.py": text},
                                         test_file="test_task_board.py", coverage_file="task_board.py"))
    assert result.counts() == {"passed": 6}, result.output[-2000:]
    summary = result.coverage["summary"]
    assert summary["covered_lines"] == summary["num_statements"]  # the fixture's calls count as covered


def test_methods_info_counts_a_method_called_in_a_fixture_for_the_tests_taking_it(board_module):
    text, _ = board_module
    info = {m["method_name"]: m for m in methods_info(BOARD, "TaskBoard", text)}
    aimed = info["add_task"]["test_code"]
    assert aimed.startswith("@pytest.fixture\ndef board_with_two_tasks():")  # the fixture, once, first
    assert aimed.count("def board_with_two_tasks") == 1 and len(top_level_tests(aimed)) == 5


def test_the_classeval_export_writes_the_fixture_into_each_test_and_runs_under_the_harness(board_module, sandbox_pool):
    text, _ = board_module
    skeleton = make_skeleton(BOARD, "TaskBoard")
    info = tuple(MethodInfo.model_validate(m) for m in methods_info(BOARD, "TaskBoard", text))
    task = Task(task_id=Task.make_id("TaskBoard", skeleton, BOARD, text), skeleton=skeleton, test=text,
                solution_code=BOARD, class_name="TaskBoard", class_description="Tasks.", test_classes=top_level_tests(text),
                methods_info=info, module_name="task_board", domains=("Work",), origin=Origin.ENHANCED,
                provenance=Provenance(), generator=GeneratorSpec(backend="offline"), candidate_id="cand-board")
    entry = classeval_entry(task)
    test = entry["test"]
    assert "def board_with_two_tasks" not in test and "(board_with_two_tasks)" not in test
    # Written in as the test would be without a fixture: the instance under the fixture's own variable.
    assert ("    def test_hours_left_after_adding_tasks(self):\n        board = TaskBoard()\n"
            "        board.add_task(\"a\", 2)\n        board.add_task(\"b\", 3)\n"
            "        assert board.hours_left() == 5\n") in test
    # ClassEval's steps (its extraction, import_statement + code + test, unittest per test class) in the sandbox
    for answer in (entry["solution_code"], fenced(entry["solution_code"])):
        reference = run_task(sandbox_pool, entry, answer)
        assert list(reference) == entry["test_classes"] and set(reference.values()) == {"success"}, reference
    skeleton_run = run_task(sandbox_pool, entry, fenced(entry["skeleton"]))
    assert all(v != "success" for v in skeleton_run.values()), skeleton_run


# -- the planning rule, on hand-made setups ---------------------------------------------------------------

CTOR = "board = TaskBoard()"
ADD_A, ADD_B, CLOSE = 'board.add_task("a", 2)', 'board.add_task("b", 3)', 'board.close("a")'


def _names(setup: tuple[str, ...], first: int) -> str:
    return "board" if len(setup) == 1 else f"board_{len(setup)}"


def test_a_setup_becomes_a_fixture_only_when_writing_it_once_saves_lines():
    assert MIN_LINES_SAVED == 3
    # three tests that only build the instance: 2 lines saved, not worth it; four: 3 lines
    assert plan_fixtures([(CTOR,)] * 3, _names) == {}
    assert set(plan_fixtures([(CTOR,)] * 4, _names)) == {0, 1, 2, 3}
    # two tests sharing two lines save 2; sharing three, 3
    assert plan_fixtures([(CTOR, ADD_A)] * 2, _names) == {}
    assert plan_fixtures([(CTOR, ADD_A, ADD_B)] * 2, _names) == {i: ("board_3", (CTOR, ADD_A, ADD_B)) for i in (0, 1)}


def test_the_setup_saving_most_lines_wins_and_each_test_takes_one_fixture():
    # five tests share three lines (12 lines saved), three of them a fourth too (8): one fixture of three
    # lines, and the three keep their own `close` (what they are about); then the bare constructor
    setups = [(CTOR, ADD_A, ADD_B, CLOSE)] * 3 + [(CTOR, ADD_A, ADD_B)] * 2 + [(CTOR,)] * 4
    plan = plan_fixtures(setups, _names)
    assert {i: plan[i][0] for i in plan} == {0: "board_3", 1: "board_3", 2: "board_3", 3: "board_3", 4: "board_3",
                                             5: "board", 6: "board", 7: "board", 8: "board"}
    # the longer setup when it saves more: four lines in three tests (8) over two lines in four (6)
    plan = plan_fixtures([(CTOR, ADD_A, ADD_B, CLOSE)] * 3 + [(CTOR, ADD_A)], _names)
    assert plan == {i: ("board_4", (CTOR, ADD_A, ADD_B, CLOSE)) for i in (0, 1, 2)}


def test_a_setup_without_a_free_name_stays_in_its_tests():
    assert plan_fixtures([(CTOR, ADD_A, ADD_B)] * 2, lambda setup, first: None) == {}


def test_repair_reuses_a_fixture_the_module_already_has():
    written = Fixture("board_with_two_tasks", "board", (CTOR, ADD_A, ADD_B)).text() + "\n\n" + \
        Fixture("board", "board", (CTOR,)).text()
    existing = written_fixtures("import pytest\n\n\n" + written)
    assert existing == {(CTOR, ADD_A, ADD_B): "board_with_two_tasks", (CTOR,): "board"}
    plan = plan_fixtures([(CTOR, ADD_A, ADD_B, CLOSE), (CTOR, ADD_A)], lambda setup, first: None, existing)
    assert plan == {0: ("board_with_two_tasks", (CTOR, ADD_A, ADD_B)), 1: ("board", (CTOR,))}


def test_fixture_names_say_what_the_fixture_holds_or_what_was_done():
    def step(method: str) -> NamedStep:
        return NamedStep(method, True, False, changes_state=True)

    assert fixture_names("graph", []) == ["graph"]
    assert fixture_names("graph", [step("add_task")] * 4 + [step("add_dependency")] * 2)[0] == \
        "graph_with_four_tasks_and_two_dependencies"
    assert fixture_names("ledger", [step("open_account")])[0] == "ledger_with_an_account"
    assert fixture_names("account", [step("deposit")] * 2) == ["account_after_depositing_twice"]
    assert fixture_names("cart", [step("add_items")])[0] == "cart_after_adding_items"  # adds several at once
