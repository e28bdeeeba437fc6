import pytest

from interval_set import IntervalSet


@pytest.fixture
def booked() -> IntervalSet:
    s = IntervalSet()
    s.add(10, 20)
    s.add(30, 40)
    return s


# add
def test_add_to_empty_set_returns_length():
    s = IntervalSet()
    assert s.add(3, 8) == 5
    assert s.intervals() == [(3, 8)]


def test_add_overlapping_interval_counts_only_new_integers():
    s = IntervalSet()
    s.add(0, 10)
    assert s.add(5, 15) == 5
    assert s.intervals() == [(0, 15)]


def test_add_touching_interval_merges():
    s = IntervalSet()
    s.add(0, 5)
    assert s.add(5, 9) == 4
    assert s.intervals() == [(0, 9)]


def test_add_interval_bridging_several_spans(booked):
    assert booked.add(15, 35) == 10
    assert booked.intervals() == [(10, 40)]


def test_add_interval_before_existing_keeps_order(booked):
    assert booked.add(0, 5) == 5
    assert booked.intervals() == [(0, 5), (10, 20), (30, 40)]


def test_add_interval_between_spans_is_placed_in_middle(booked):
    booked.add(22, 25)
    assert booked.intervals() == [(10, 20), (22, 25), (30, 40)]


def test_add_interval_already_covered_returns_zero(booked):
    assert booked.add(12, 18) == 0
    assert booked.intervals() == [(10, 20), (30, 40)]


def test_add_empty_interval_raises_value_error():
    with pytest.raises(ValueError):
        IntervalSet().add(4, 4)


def test_add_reversed_interval_raises_value_error():
    with pytest.raises(ValueError):
        IntervalSet().add(9, 2)


def test_add_float_bound_raises_type_error():
    with pytest.raises(TypeError):
        IntervalSet().add(1.5, 3)


def test_add_bool_bound_raises_type_error():
    with pytest.raises(TypeError):
        IntervalSet().add(0, True)


# remove
def test_remove_middle_splits_interval(booked):
    assert booked.remove(12, 15) == 3
    assert booked.intervals() == [(10, 12), (15, 20), (30, 40)]


def test_remove_across_two_spans_trims_both(booked):
    assert booked.remove(18, 33) == 5
    assert booked.intervals() == [(10, 18), (33, 40)]


def test_remove_whole_span_deletes_it(booked):
    assert booked.remove(5, 25) == 10
    assert booked.intervals() == [(30, 40)]


def test_remove_uncovered_range_returns_zero(booked):
    assert booked.remove(20, 30) == 0
    assert booked.intervals() == [(10, 20), (30, 40)]


def test_remove_invalid_interval_raises_value_error(booked):
    with pytest.raises(ValueError):
        booked.remove(7, 3)


def test_remove_string_bound_raises_type_error(booked):
    with pytest.raises(TypeError):
        booked.remove("1", 3)


# contains
def test_contains_start_is_inside(booked):
    assert booked.contains(10) is True


def test_contains_end_is_outside(booked):
    assert booked.contains(20) is False


def test_contains_value_before_all_spans(booked):
    assert booked.contains(-3) is False


def test_contains_value_in_second_span(booked):
    assert booked.contains(39) is True


def test_contains_on_empty_set_is_false():
    assert IntervalSet().contains(0) is False


# overlaps
def test_overlaps_partial_overlap(booked):
    assert booked.overlaps(35, 50) is True


def test_overlaps_adjacent_is_not_overlap(booked):
    assert booked.overlaps(20, 30) is False


def test_overlaps_enclosing_probe(booked):
    assert booked.overlaps(0, 100) is True


def test_overlaps_invalid_probe_raises_value_error(booked):
    with pytest.raises(ValueError):
        booked.overlaps(5, 5)


# total_length / intervals / span
def test_total_length_sums_spans(booked):
    assert booked.total_length() == 20


def test_total_length_of_empty_set_is_zero():
    s = IntervalSet()
    s.add(1, 2)
    s.remove(1, 2)
    assert s.total_length() == 0


def test_intervals_returns_copy(booked):
    copy = booked.intervals()
    copy.append((100, 200))
    assert booked.intervals() == [(10, 20), (30, 40)]


def test_span_covers_first_to_last(booked):
    assert booked.span() == (10, 40)


def test_span_of_empty_set_raises_value_error():
    with pytest.raises(ValueError):
        IntervalSet().span()


def test_span_after_removing_everything_raises_value_error(booked):
    booked.remove(0, 50)
    with pytest.raises(ValueError):
        booked.span()


# gaps
def test_gaps_inside_window(booked):
    assert booked.gaps(0, 50) == [(0, 10), (20, 30), (40, 50)]


def test_gaps_window_fully_covered(booked):
    assert booked.gaps(12, 18) == []


def test_gaps_window_starting_inside_span(booked):
    assert booked.gaps(15, 35) == [(20, 30)]


def test_gaps_window_before_all_spans(booked):
    assert booked.gaps(0, 5) == [(0, 5)]


def test_gaps_window_ends_at_span_start(booked):
    assert booked.gaps(20, 30) == [(20, 30)]


def test_gaps_window_after_spans(booked):
    assert booked.gaps(45, 50) == [(45, 50)]


def test_gaps_invalid_window_raises_value_error(booked):
    with pytest.raises(ValueError):
        booked.gaps(10, 0)


# scenarios on one instance
def test_scenario_booking_calendar_add_remove_add():
    s = IntervalSet()
    assert s.add(9, 12) == 3
    assert s.add(14, 17) == 3
    assert s.remove(10, 15) == 3
    assert s.intervals() == [(9, 10), (15, 17)]
    assert s.add(10, 15) == 5
    assert s.intervals() == [(9, 17)]
    assert s.contains(12) is True
    assert s.overlaps(16, 20) is True
    assert s.total_length() == 8
    assert s.gaps(8, 18) == [(8, 9), (17, 18)]
    assert s.span() == (9, 17)


def test_scenario_remove_then_queries_see_split():
    s = IntervalSet()
    s.add(0, 100)
    s.remove(40, 60)
    assert s.contains(50) is False
    assert s.overlaps(45, 55) is False
    assert s.gaps(0, 100) == [(40, 60)]
    assert s.total_length() == 80
    assert s.span() == (0, 100)
    assert s.intervals() == [(0, 40), (60, 100)]


def test_scenario_remove_then_add_restores_coverage():
    s = IntervalSet()
    s.add(0, 10)
    assert s.remove(0, 10) == 10
    assert s.contains(5) is False
    assert s.add(2, 4) == 2
    assert s.contains(3) is True
    assert s.span() == (2, 4)
