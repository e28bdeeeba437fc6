import pytest

from task_graph import TaskGraph


@pytest.fixture
def plan() -> TaskGraph:
    g = TaskGraph()
    g.add_task("design", 3)
    g.add_task("build", 5)
    g.add_task("docs", 2)
    g.add_task("ship", 1)
    g.add_dependency("build", "design")
    g.add_dependency("docs", "design")
    g.add_dependency("ship", "build")
    g.add_dependency("ship", "docs")
    return g


# add_task
def test_add_task_appears_in_order():
    g = TaskGraph()
    g.add_task("solo", 4)
    assert g.topological_order() == ["solo"]


def test_add_task_duplicate_raises_value_error():
    g = TaskGraph()
    g.add_task("a")
    with pytest.raises(ValueError):
        g.add_task("a", 2)


def test_add_task_empty_name_raises_value_error():
    with pytest.raises(ValueError):
        TaskGraph().add_task("", 1)


def test_add_task_negative_duration_raises_value_error():
    with pytest.raises(ValueError):
        TaskGraph().add_task("a", -1)


def test_add_task_zero_duration_allowed():
    g = TaskGraph()
    g.add_task("milestone", 0)
    assert g.earliest_start_times() == {"milestone": 0}


# remove_task
def test_remove_task_drops_dependencies(plan):
    plan.remove_task("design")
    assert plan.prerequisites("build") == []
    assert plan.topological_order() == ["build", "docs", "ship"]


def test_remove_task_unknown_raises_key_error(plan):
    with pytest.raises(KeyError):
        plan.remove_task("test")


# add_dependency
def test_add_dependency_records_prerequisite(plan):
    assert plan.prerequisites("ship") == ["build", "docs"]


def test_add_dependency_direct_cycle_raises_value_error(plan):
    with pytest.raises(ValueError):
        plan.add_dependency("design", "build")


def test_add_dependency_transitive_cycle_raises_value_error(plan):
    with pytest.raises(ValueError):
        plan.add_dependency("design", "ship")


def test_add_dependency_self_loop_raises_value_error(plan):
    with pytest.raises(ValueError):
        plan.add_dependency("docs", "docs")


def test_add_dependency_unknown_task_raises_key_error(plan):
    with pytest.raises(KeyError):
        plan.add_dependency("deploy", "ship")


def test_add_dependency_unknown_prerequisite_raises_key_error(plan):
    with pytest.raises(KeyError):
        plan.add_dependency("ship", "review")


# prerequisites / depends_on
def test_prerequisites_of_root_is_empty(plan):
    assert plan.prerequisites("design") == []


def test_prerequisites_unknown_raises_key_error(plan):
    with pytest.raises(KeyError):
        plan.prerequisites("nope")


def test_depends_on_transitive(plan):
    assert plan.depends_on("ship", "design") is True


def test_depends_on_reverse_direction_is_false(plan):
    assert plan.depends_on("design", "ship") is False


def test_depends_on_siblings_is_false(plan):
    assert plan.depends_on("docs", "build") is False


def test_depends_on_unknown_other_raises_key_error(plan):
    with pytest.raises(KeyError):
        plan.depends_on("ship", "nope")


def test_depends_on_diamond_visits_shared_node_once():
    g = TaskGraph()
    for name in ["a", "b", "c", "d", "e"]:
        g.add_task(name)
    g.add_dependency("b", "a")
    g.add_dependency("c", "a")
    g.add_dependency("d", "b")
    g.add_dependency("d", "c")
    assert g.depends_on("d", "e") is False


# topological_order
def test_topological_order_prerequisites_first(plan):
    assert plan.topological_order() == ["design", "build", "docs", "ship"]


def test_topological_order_independent_tasks_alphabetical():
    g = TaskGraph()
    g.add_task("c")
    g.add_task("a")
    g.add_task("b")
    assert g.topological_order() == ["a", "b", "c"]


def test_topological_order_empty_plan():
    g = TaskGraph()
    g.add_task("x")
    g.remove_task("x")
    assert g.topological_order() == []


# earliest_start_times / critical_path
def test_earliest_start_times_waits_for_slowest(plan):
    assert plan.earliest_start_times() == {"design": 0, "build": 3, "docs": 3, "ship": 8}


def test_critical_path_follows_longest_chain(plan):
    assert plan.critical_path() == ["design", "build", "ship"]


def test_critical_path_empty_plan_is_empty():
    g = TaskGraph()
    g.add_task("x")
    g.remove_task("x")
    assert g.critical_path() == []


def test_critical_path_tie_prefers_alphabetical_prerequisite():
    g = TaskGraph()
    g.add_task("b", 2)
    g.add_task("a", 2)
    g.add_task("end", 1)
    g.add_dependency("end", "b")
    g.add_dependency("end", "a")
    assert g.critical_path() == ["a", "end"]


def test_critical_path_single_long_task_beats_chain():
    g = TaskGraph()
    g.add_task("long", 10)
    g.add_task("first", 2)
    g.add_task("second", 3)
    g.add_dependency("second", "first")
    assert g.critical_path() == ["long"]


# ready_tasks
def test_ready_tasks_initially_roots(plan):
    assert plan.ready_tasks([]) == ["design"]


def test_ready_tasks_after_design(plan):
    assert plan.ready_tasks(["design"]) == ["build", "docs"]


def test_ready_tasks_needs_all_prerequisites(plan):
    assert plan.ready_tasks(["design", "build"]) == ["docs"]


def test_ready_tasks_all_done_is_empty(plan):
    assert plan.ready_tasks(["design", "build", "docs", "ship"]) == []


def test_ready_tasks_unknown_done_raises_key_error(plan):
    with pytest.raises(KeyError):
        plan.ready_tasks(["lunch"])


# scenarios
def test_scenario_build_plan_then_schedule():
    g = TaskGraph()
    g.add_task("fetch", 2)
    g.add_task("compile", 4)
    g.add_task("test", 3)
    g.add_task("lint", 1)
    g.add_dependency("compile", "fetch")
    g.add_dependency("test", "compile")
    g.add_dependency("lint", "fetch")
    assert g.prerequisites("test") == ["compile"]
    assert g.depends_on("test", "fetch") is True
    assert g.topological_order() == ["fetch", "compile", "lint", "test"]
    assert g.earliest_start_times() == {"fetch": 0, "compile": 2, "lint": 2, "test": 6}
    assert g.critical_path() == ["fetch", "compile", "test"]
    assert g.ready_tasks(["fetch"]) == ["compile", "lint"]


def test_scenario_remove_then_re_add_task_changes_schedule():
    g = TaskGraph()
    g.add_task("a", 1)
    g.add_task("b", 1)
    g.add_dependency("b", "a")
    g.remove_task("a")
    assert g.ready_tasks([]) == ["b"]
    g.add_task("a", 7)
    assert g.prerequisites("b") == []
    g.add_dependency("a", "b")
    assert g.depends_on("a", "b") is True
    assert g.topological_order() == ["b", "a"]
    assert g.critical_path() == ["b", "a"]
    assert g.earliest_start_times() == {"b": 0, "a": 1}
    g.remove_task("b")
    assert g.topological_order() == ["a"]


def test_scenario_rejected_cycle_leaves_graph_unchanged():
    g = TaskGraph()
    g.add_task("x", 1)
    g.add_task("y", 1)
    g.add_dependency("y", "x")
    with pytest.raises(ValueError):
        g.add_dependency("x", "y")
    assert g.prerequisites("x") == []
    assert g.topological_order() == ["x", "y"]
