import pytest

from polynomial import Polynomial


# construction / degree / coefficients
def test_init_trims_trailing_zeros():
    assert Polynomial([1, 2, 0, 0]).coefficients() == [1, 2]


def test_init_rejects_string_but_accepts_float_coefficient():
    with pytest.raises(TypeError):
        Polynomial([1, "2"])
    assert Polynomial([1, 2.5]).coefficients() == [1, 2.5]


def test_degree_of_quadratic():
    assert Polynomial([1, 0, 5]).degree() == 2


def test_degree_of_zero_polynomial_is_minus_one():
    assert Polynomial([0, 0]).degree() == -1


def test_degree_of_constant_is_zero():
    assert Polynomial([7]).degree() == 0


def test_coefficients_returns_copy():
    p = Polynomial([1, 2])
    copy = p.coefficients()
    copy.append(9)
    assert p.coefficients() == [1, 2]


# add_term
def test_add_term_extends_list():
    p = Polynomial([1])
    p.add_term(3, 2)
    assert p.coefficients() == [1, 0, 3]


def test_add_term_to_existing_power():
    p = Polynomial([1, 2])
    p.add_term(5, 1)
    assert p.coefficients() == [1, 7]


def test_add_term_cancelling_leading_term_lowers_degree():
    p = Polynomial([1, 2, 3])
    p.add_term(-3, 2)
    assert p.degree() == 1


def test_add_term_negative_power_raises_value_error():
    with pytest.raises(ValueError):
        Polynomial([1]).add_term(2, -1)


# multiply
def test_multiply_binomials():
    p = Polynomial([1, 1])
    p.multiply([1, 1])
    assert p.coefficients() == [1, 2, 1]


def test_multiply_by_constant():
    p = Polynomial([1, -2, 3])
    p.multiply([2])
    assert p.coefficients() == [2, -4, 6]


def test_multiply_by_zero_gives_zero_polynomial():
    p = Polynomial([4, 5])
    p.multiply([])
    assert p.degree() == -1


def test_multiply_zero_polynomial_stays_zero():
    p = Polynomial()
    p.multiply([1, 2, 3])
    assert p.coefficients() == []


# evaluate
def test_evaluate_quadratic():
    assert Polynomial([1, -3, 2]).evaluate(3) == 10


def test_evaluate_at_zero_is_constant_term():
    assert Polynomial([4, 9, 9]).evaluate(0) == 4


def test_evaluate_zero_polynomial():
    assert Polynomial().evaluate(12.5) == 0


def test_evaluate_float_point():
    assert Polynomial([0, 0, 1]).evaluate(1.5) == 2.25


# derivative / integral
def test_derivative_of_cubic():
    assert Polynomial([1, 2, 3, 4]).derivative() == [2, 6, 12]


def test_derivative_of_constant_is_empty():
    assert Polynomial([9]).derivative() == []


def test_integral_of_line():
    assert Polynomial([1, 2]).integral(0, 3) == 12.0


def test_integral_reversed_limits_is_negative():
    assert Polynomial([0, 0, 3]).integral(2, 0) == -8.0


def test_integral_of_zero_polynomial():
    assert Polynomial().integral(-5, 5) == 0.0


# find_root
def test_find_root_sqrt_two():
    assert Polynomial([-2, 0, 1]).find_root(0, 2) == pytest.approx(2 ** 0.5, abs=1e-10)


def test_find_root_at_lower_end():
    assert Polynomial([0, 1]).find_root(0, 3) == 0


def test_find_root_at_upper_end():
    assert Polynomial([-3, 1]).find_root(0, 3) == 3


def test_find_root_exact_midpoint():
    assert Polynomial([-1, 1]).find_root(0, 2) == 1.0


def test_find_root_decreasing_function():
    assert Polynomial([4, -1]).find_root(0, 10, 1e-9) == pytest.approx(4.0, abs=1e-8)


def test_find_root_no_sign_change_raises_value_error():
    with pytest.raises(ValueError):
        Polynomial([1, 0, 1]).find_root(-1, 1)


def test_find_root_empty_bracket_raises_value_error():
    with pytest.raises(ValueError):
        Polynomial([0, 1]).find_root(2, 1)


def test_find_root_non_positive_tolerance_raises_value_error():
    with pytest.raises(ValueError):
        Polynomial([0, 1]).find_root(-1, 1, 0)


# to_string
def test_to_string_mixed_signs():
    assert Polynomial([2, -1, 3]).to_string() == "3x^2 - x + 2"


def test_to_string_leading_negative_and_gaps():
    assert Polynomial([0, 0, 0, -1, 0, 5]).to_string() == "5x^5 - x^3"


def test_to_string_leading_minus_one():
    assert Polynomial([1, -1]).to_string() == "-x + 1"


def test_to_string_custom_variable_and_float():
    assert Polynomial([-1.5, 0.25]).to_string("t") == "0.25t - 1.5"


def test_to_string_constant_one():
    assert Polynomial([1]).to_string() == "1"


def test_to_string_zero_polynomial():
    assert Polynomial().to_string() == "0"


# scenarios
def test_scenario_build_from_terms_then_analyse():
    p = Polynomial()
    p.add_term(1, 2)
    p.add_term(-4, 0)
    assert p.to_string() == "x^2 - 4"
    assert p.find_root(0, 5) == pytest.approx(2.0, abs=1e-10)
    p.multiply([1, 1])
    assert p.coefficients() == [-4, -4, 1, 1]
    assert p.degree() == 3
    assert p.evaluate(2) == 0
    assert p.derivative() == [-4, 2, 3]
    assert p.integral(0, 1) == pytest.approx(-4 - 2 + 1 / 3 + 1 / 4)


def test_scenario_multiply_then_add_term_cancels_leading():
    p = Polynomial([1, 1])
    p.multiply([0, 1])
    p.add_term(-1, 2)
    assert p.coefficients() == [0, 1]
    assert p.to_string("y") == "y"
    p.add_term(3, 0)
    p.multiply([2])
    assert p.evaluate(1) == 8
    assert p.find_root(-5, 0) == pytest.approx(-3.0, abs=1e-10)
