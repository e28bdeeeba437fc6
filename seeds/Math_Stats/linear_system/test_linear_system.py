import pytest

from linear_system import LinearSystem


@pytest.fixture
def system() -> LinearSystem:
    s = LinearSystem(["x", "y", "z"])
    s.add_equation({"x": 1, "y": 1, "z": 1}, 6)
    s.add_equation({"y": 2, "z": 5}, -4)
    s.add_equation({"x": 2, "y": 5, "z": -1}, 27)
    return s


# constructor
def test_init_validates_variable_names():
    with pytest.raises(ValueError):
        LinearSystem([])
    with pytest.raises(ValueError):
        LinearSystem(["x", "x"])
    with pytest.raises(ValueError):
        LinearSystem(["2x"])
    assert LinearSystem(["a"]).classify() == "infinite"


# add_equation
def test_add_equation_returns_increasing_indices():
    s = LinearSystem(["x", "y"])
    assert s.add_equation({"x": 1}, 2) == 0
    assert s.add_equation({"y": 1}, 3) == 1


def test_add_equation_accepts_fraction_strings():
    s = LinearSystem(["x"])
    s.add_equation({"x": "1/2"}, "3/4")
    assert s.solve() == {"x": "3/2"}


def test_add_equation_unknown_variable_raises_key_error():
    s = LinearSystem(["x"])
    with pytest.raises(KeyError):
        s.add_equation({"w": 1}, 0)


def test_add_equation_bad_fraction_raises_value_error():
    s = LinearSystem(["x"])
    with pytest.raises(ValueError):
        s.add_equation({"x": "one"}, 0)


# add_equation_text
def test_add_equation_text_simple():
    s = LinearSystem(["x", "y"])
    assert s.add_equation_text("2x + 3y = 7") == 0
    assert s.equations() == ["2x + 3y = 7"]


def test_add_equation_text_moves_terms_left():
    s = LinearSystem(["x", "y"])
    s.add_equation_text("x + 4 = 2y - 1")
    assert s.equations() == ["x - 2y = -5"]


def test_add_equation_text_star_and_fraction_coefficients():
    s = LinearSystem(["a", "b"])
    s.add_equation_text("3*a - 1/2 b = 0")
    assert s.equations() == ["3a - 1/2b = 0"]


def test_add_equation_text_repeated_variable_is_combined():
    s = LinearSystem(["x"])
    s.add_equation_text("x + x = 5")
    assert s.solve() == {"x": "5/2"}


def test_add_equation_text_two_equals_raises_value_error():
    with pytest.raises(ValueError):
        LinearSystem(["x"]).add_equation_text("x = 1 = 2")


def test_add_equation_text_empty_side_raises_value_error():
    with pytest.raises(ValueError):
        LinearSystem(["x"]).add_equation_text("x = ")


def test_add_equation_text_garbage_raises_value_error():
    with pytest.raises(ValueError):
        LinearSystem(["x"]).add_equation_text("x + ? = 1")


def test_add_equation_text_missing_sign_raises_value_error():
    with pytest.raises(ValueError):
        LinearSystem(["x", "y"]).add_equation_text("x y = 1")


def test_add_equation_text_unknown_variable_raises_key_error():
    with pytest.raises(KeyError):
        LinearSystem(["x"]).add_equation_text("x + q = 1")


# equations
def test_equations_renders_signs_and_unit_coefficients(system):
    assert system.equations() == ["x + y + z = 6", "2y + 5z = -4", "2x + 5y - z = 27"]


def test_equations_all_zero_row():
    s = LinearSystem(["x"])
    s.add_equation({}, 0)
    assert s.equations() == ["0 = 0"]


def test_equations_leading_negative():
    s = LinearSystem(["x", "y"])
    s.add_equation({"x": -1, "y": -3}, 2)
    assert s.equations() == ["-x - 3y = 2"]


# remove_equation
def test_remove_equation_returns_rendered_text(system):
    assert system.remove_equation(1) == "2y + 5z = -4"
    assert system.equations() == ["x + y + z = 6", "2x + 5y - z = 27"]


def test_remove_equation_bad_index_raises_index_error(system):
    with pytest.raises(IndexError):
        system.remove_equation(3)


def test_remove_equation_negative_index_raises_index_error(system):
    with pytest.raises(IndexError):
        system.remove_equation(-1)


# rank / is_consistent / classify
def test_rank_full(system):
    assert system.rank() == 3


def test_rank_ignores_dependent_rows():
    s = LinearSystem(["x", "y"])
    s.add_equation({"x": 1, "y": 2}, 3)
    s.add_equation({"x": 2, "y": 4}, 6)
    assert s.rank() == 1


def test_rank_empty_system_is_zero():
    s = LinearSystem(["x"])
    s.add_equation({"x": 1}, 1)
    s.remove_equation(0)
    assert s.rank() == 0


def test_is_consistent_for_solvable(system):
    assert system.is_consistent() is True


def test_is_consistent_false_for_parallel_lines():
    s = LinearSystem(["x", "y"])
    s.add_equation({"x": 1, "y": 1}, 1)
    s.add_equation({"x": 1, "y": 1}, 2)
    assert s.is_consistent() is False


def test_classify_unique(system):
    assert system.classify() == "unique"


def test_classify_none():
    s = LinearSystem(["x"])
    s.add_equation({}, 5)
    assert s.classify() == "none"


def test_classify_infinite():
    s = LinearSystem(["x", "y"])
    s.add_equation({"x": 1, "y": -1}, 0)
    assert s.classify() == "infinite"


# solve
def test_solve_three_by_three(system):
    assert system.solve() == {"x": "5", "y": "3", "z": "-2"}


def test_solve_needs_row_swap():
    s = LinearSystem(["x", "y"])
    s.add_equation({"y": 1}, 2)
    s.add_equation({"x": 1}, 7)
    assert s.solve() == {"x": "7", "y": "2"}


def test_solve_fractional_answer():
    s = LinearSystem(["x", "y"])
    s.add_equation({"x": 3, "y": 1}, 1)
    s.add_equation({"x": 1, "y": -1}, 0)
    assert s.solve() == {"x": "1/4", "y": "1/4"}


def test_solve_overdetermined_consistent():
    s = LinearSystem(["x"])
    s.add_equation({"x": 2}, 4)
    s.add_equation({"x": 3}, 6)
    assert s.solve() == {"x": "2"}


def test_solve_inconsistent_raises_value_error():
    s = LinearSystem(["x"])
    s.add_equation({"x": 1}, 1)
    s.add_equation({"x": 1}, 2)
    with pytest.raises(ValueError):
        s.solve()


def test_solve_underdetermined_raises_value_error():
    s = LinearSystem(["x", "y"])
    s.add_equation({"x": 1, "y": 1}, 1)
    with pytest.raises(ValueError):
        s.solve()


# verify
def test_verify_true_for_solution(system):
    assert system.verify({"x": "5", "y": "3", "z": "-2"}) is True


def test_verify_accepts_ints(system):
    assert system.verify({"x": 5, "y": 3, "z": -2}) is True


def test_verify_false_for_wrong_values(system):
    assert system.verify({"x": "5", "y": "3", "z": "2"}) is False


def test_verify_missing_variable_raises_key_error(system):
    with pytest.raises(KeyError):
        system.verify({"x": "5", "y": "3"})


# scenarios
def test_scenario_text_equations_solve_and_verify():
    s = LinearSystem(["apples", "pears"])
    s.add_equation_text("apples + pears = 10")
    assert s.classify() == "infinite"
    s.add_equation_text("2 apples = pears + 2")
    assert s.rank() == 2
    assert s.is_consistent() is True
    answer = s.solve()
    assert answer == {"apples": "4", "pears": "6"}
    assert s.verify(answer) is True
    assert s.equations() == ["apples + pears = 10", "2apples - pears = 2"]


def test_scenario_remove_conflicting_equation_restores_solution():
    s = LinearSystem(["x", "y"])
    s.add_equation({"x": 1, "y": 1}, 4)
    s.add_equation({"x": 1, "y": -1}, 2)
    s.add_equation({"x": 2, "y": 2}, 9)
    assert s.classify() == "none"
    assert s.is_consistent() is False
    assert s.remove_equation(2) == "2x + 2y = 9"
    assert s.rank() == 2
    assert s.solve() == {"x": "3", "y": "1"}
    assert s.verify({"x": "3", "y": "1"}) is True
    s.remove_equation(0)
    s.add_equation_text("y = 1")
    assert s.solve() == {"x": "3", "y": "1"}
    assert s.equations() == ["x - y = 2", "y = 1"]


def test_scenario_add_after_remove_changes_classification():
    s = LinearSystem(["t"])
    s.add_equation_text("t = 3")
    s.remove_equation(0)
    assert s.classify() == "infinite"
    s.add_equation({"t": 2}, 1)
    assert s.solve() == {"t": "1/2"}
