import math

import pytest

from contingency_table import ContingencyTable


@pytest.fixture
def drinks() -> ContingencyTable:
    t = ContingencyTable(["tea", "coffee"], ["morning", "evening"])
    t.record("tea", "morning", 30)
    t.record("tea", "evening", 10)
    t.record("coffee", "morning", 20)
    t.record("coffee", "evening", 40)
    return t


# constructor
def test_init_validates_labels():
    with pytest.raises(ValueError):
        ContingencyTable(["only"], ["x", "y"])
    with pytest.raises(ValueError):
        ContingencyTable(["a", "b"], ["x", "x"])
    assert ContingencyTable(["a", "b"], ["x", "y"]).degrees_of_freedom() == 1


# record
def test_record_adds_to_cell():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    assert t.record("a", "y", 4) == 4
    assert t.cell("a", "y") == 4


def test_record_default_count_is_one():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    t.record("b", "x")
    assert t.record("b", "x") == 2


def test_record_negative_withdraws(drinks):
    assert drinks.record("tea", "morning", -5) == 25


def test_record_below_zero_raises_value_error(drinks):
    with pytest.raises(ValueError):
        drinks.record("tea", "evening", -11)


def test_record_zero_count_raises_value_error(drinks):
    with pytest.raises(ValueError):
        drinks.record("tea", "evening", 0)


def test_record_unknown_row_raises_key_error(drinks):
    with pytest.raises(KeyError):
        drinks.record("juice", "morning")


def test_record_unknown_column_raises_key_error(drinks):
    with pytest.raises(KeyError):
        drinks.record("tea", "noon")


# record_pairs
def test_record_pairs_returns_grand_total():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    assert t.record_pairs([("a", "x"), ("b", "y"), ("a", "x")]) == 3
    assert t.cell("a", "x") == 2


def test_record_pairs_with_unknown_label_records_nothing():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    t.record("a", "x")
    with pytest.raises(KeyError):
        t.record_pairs([("a", "x"), ("c", "y")])
    assert t.grand_total() == 1


def test_record_pairs_empty_list(drinks):
    assert drinks.record_pairs([]) == 100


# cell / totals
def test_cell_value(drinks):
    assert drinks.cell("coffee", "evening") == 40


def test_cell_unknown_raises_key_error(drinks):
    with pytest.raises(KeyError):
        drinks.cell("coffee", "night")


def test_row_total(drinks):
    assert drinks.row_total("coffee") == 60


def test_row_total_unknown_raises_key_error(drinks):
    with pytest.raises(KeyError):
        drinks.row_total("water")


def test_column_total(drinks):
    assert drinks.column_total("morning") == 50


def test_column_total_unknown_raises_key_error(drinks):
    with pytest.raises(KeyError):
        drinks.column_total("tea")


def test_grand_total(drinks):
    assert drinks.grand_total() == 100


# expected
def test_expected_under_independence(drinks):
    assert drinks.expected("tea", "morning") == 20.0
    assert drinks.expected("coffee", "evening") == 30.0


def test_expected_empty_table_raises_value_error():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    t.record("a", "x")
    t.record("a", "x", -1)
    with pytest.raises(ValueError):
        t.expected("a", "x")


def test_expected_unknown_label_raises_key_error(drinks):
    with pytest.raises(KeyError):
        drinks.expected("milk", "morning")


# chi_square / degrees_of_freedom / cramers_v
def test_chi_square_value(drinks):
    assert drinks.chi_square() == pytest.approx(50.0 / 3.0)


def test_chi_square_independent_data_is_zero():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    t.record("a", "x", 2)
    t.record("a", "y", 4)
    t.record("b", "x", 3)
    t.record("b", "y", 6)
    assert t.chi_square() == 0.0


def test_chi_square_empty_row_raises_value_error():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    t.record_pairs([("a", "x"), ("a", "y")])
    with pytest.raises(ValueError):
        t.chi_square()


def test_degrees_of_freedom_three_by_four():
    t = ContingencyTable(["a", "b", "c"], ["w", "x", "y", "z"])
    assert t.degrees_of_freedom() == 6


def test_cramers_v_value(drinks):
    assert drinks.cramers_v() == pytest.approx(math.sqrt(1.0 / 6.0))


def test_cramers_v_perfect_association():
    t = ContingencyTable(["a", "b", "c"], ["x", "y", "z"])
    t.record_pairs([("a", "x"), ("b", "y"), ("c", "z"), ("c", "z")])
    assert t.cramers_v() == pytest.approx(1.0)


def test_cramers_v_empty_table_raises_value_error():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    t.record("b", "y")
    t.record("b", "y", -1)
    with pytest.raises(ValueError):
        t.cramers_v()


# scenarios
def test_scenario_survey_collection_and_analysis():
    t = ContingencyTable(["yes", "no"], ["north", "south", "east"])
    assert t.record_pairs([("yes", "north"), ("yes", "north"), ("no", "south"), ("no", "east")]) == 4
    assert t.record("yes", "east", 2) == 2
    assert t.row_total("yes") == 4
    assert t.column_total("east") == 3
    assert t.cell("yes", "north") == 2
    assert t.expected("no", "north") == pytest.approx(2 / 3)
    assert t.chi_square() == pytest.approx(3.0)
    assert t.degrees_of_freedom() == 2
    assert t.cramers_v() == pytest.approx(math.sqrt(0.5))


def test_scenario_withdrawal_changes_statistics():
    t = ContingencyTable(["a", "b"], ["x", "y"])
    t.record("a", "x", 5)
    t.record_pairs([("b", "y"), ("b", "y"), ("a", "y")])
    assert t.chi_square() == pytest.approx(40 / 9)
    t.record("a", "y", -1)
    assert t.chi_square() == pytest.approx(7.0)
    assert t.cramers_v() == pytest.approx(1.0)
    assert t.expected("a", "x") == pytest.approx(25 / 7)
    t.record_pairs([("b", "x")])
    assert t.grand_total() == 8
    assert t.column_total("x") == 6
    assert t.row_total("b") == 3
