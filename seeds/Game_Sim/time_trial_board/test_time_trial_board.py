import pytest

from time_trial_board import TimeTrialBoard


@pytest.fixture
def board() -> TimeTrialBoard:
    return TimeTrialBoard(60.0, 65.0, 70.0)


# constructor
def test_constructor_rejects_medal_times_out_of_order():
    with pytest.raises(ValueError, match="0 < gold < silver < bronze"):
        TimeTrialBoard(65.0, 60.0, 70.0)
    with pytest.raises(ValueError):
        TimeTrialBoard(60.0, 65.0, 65.0)
    with pytest.raises(ValueError):
        TimeTrialBoard(60.0, 60.0, 70.0)
    with pytest.raises(ValueError):
        TimeTrialBoard(0, 65.0, 70.0)


def test_constructor_accepts_fractional_medal_times():
    sprint = TimeTrialBoard(0.5, 1.0, 2.0)
    assert sprint.record(0.75) == "silver"
    assert sprint.record(1.5) == "bronze"


# record
def test_record_gold_bound_is_inclusive(board):
    assert board.record(60.0) == "gold"


def test_record_just_over_gold_is_silver(board):
    assert board.record(60.001) == "silver"


def test_record_silver_and_bronze_bounds_are_inclusive(board):
    assert board.record(65) == "silver"
    assert board.record(70) == "bronze"


def test_record_slower_than_bronze_earns_nothing(board):
    assert board.record(70.5) == "none"
    assert board.history() == [70.5]


def test_record_int_is_stored_as_float(board):
    board.record(61)
    stored = board.history()
    assert stored == [61.0]
    assert isinstance(stored[0], float)


def test_record_tiny_positive_time_is_accepted(board):
    assert board.record(0.5) == "gold"
    assert board.best() == 0.5


@pytest.mark.parametrize("bad", ["61", True, None])
def test_record_non_number_raises_type_error_and_records_nothing(board, bad):
    with pytest.raises(TypeError, match="must be a number"):
        board.record(bad)
    assert board.history() == []


@pytest.mark.parametrize("bad", [0, -5.0, float("nan"), float("inf")])
def test_record_non_positive_or_non_finite_raises_value_error(board, bad):
    with pytest.raises(ValueError, match="finite and positive"):
        board.record(bad)
    assert board.history() == []


# history
def test_history_empty(board):
    assert board.history() == []


def test_history_keeps_recording_order(board):
    for t in (66, 61.5, 72):
        board.record(t)
    assert board.history() == [66.0, 61.5, 72.0]


def test_history_returns_a_copy(board):
    board.record(66)
    board.history().append(1.0)
    assert board.history() == [66.0]


# best
def test_best_of_empty_board_raises(board):
    with pytest.raises(ValueError, match="no runs recorded"):
        board.best()


def test_best_is_fastest_run(board):
    for t in (66.0, 61.5, 72.0, 63.0):
        board.record(t)
    assert board.best() == 61.5


def test_best_after_discarding_the_only_run_raises(board):
    board.record(66)
    assert board.discard_worst() == 66.0
    with pytest.raises(ValueError):
        board.best()


# personal_bests
def test_personal_bests_empty(board):
    assert board.personal_bests() == []


def test_personal_bests_ignores_equal_and_slower_times(board):
    for t in (66, 67, 63, 63, 64, 61):
        board.record(t)
    assert board.personal_bests() == [66.0, 63.0, 61.0]


def test_personal_bests_single_run(board):
    board.record(80)
    assert board.personal_bests() == [80.0]


# medal_count
def test_medal_count_empty_board_is_zero(board):
    assert board.medal_count() == 0


def test_medal_count_tiers_are_cumulative(board):
    for t in (58, 64, 69, 75, 60):
        board.record(t)
    assert board.medal_count() == 4
    assert board.medal_count("bronze") == 4
    assert board.medal_count("silver") == 3
    assert board.medal_count("gold") == 2


def test_medal_count_unknown_tier_raises(board):
    board.record(58)
    with pytest.raises(ValueError, match="unknown medal"):
        board.medal_count("none")
    with pytest.raises(ValueError):
        board.medal_count("platinum")


# average_of
def test_average_of_drops_fastest_and_slowest(board):
    for t in (90, 62, 61, 64, 70, 63):
        board.record(t)
    assert board.average_of(5) == 63.0
    assert board.average_of(3) == 64.0


def test_average_of_default_is_five_and_rounds_to_three_decimals(board):
    for t in (60, 61, 61, 62, 90):
        board.record(t)
    assert board.average_of() == 61.333


def test_average_of_whole_board_with_exactly_n_runs(board):
    for t in (66.5, 61.25, 63.75, 70.0):
        board.record(t)
    assert board.average_of(4) == 65.125


def test_average_of_below_three_raises_even_when_empty(board):
    with pytest.raises(ValueError, match="at least 3 runs"):
        board.average_of(2)


def test_average_of_too_few_runs_raises(board):
    for t in (61, 62, 63, 64):
        board.record(t)
    with pytest.raises(ValueError, match="not enough runs on the board for an average of 5"):
        board.average_of(5)


# improvement
def test_improvement_of_empty_board_raises(board):
    with pytest.raises(ValueError):
        board.improvement()


def test_improvement_single_run_is_zero(board):
    board.record(64)
    assert board.improvement() == 0.0


def test_improvement_is_oldest_minus_best_rounded(board):
    for t in (65.4, 62.0, 60.1):
        board.record(t)
    assert board.improvement() == 5.3


def test_improvement_zero_when_oldest_run_is_best(board):
    for t in (61.0, 66.0, 63.0):
        board.record(t)
    assert board.improvement() == 0.0


# discard_worst
def test_discard_worst_on_empty_board_raises(board):
    with pytest.raises(ValueError, match="no runs to discard"):
        board.discard_worst()


def test_discard_worst_removes_oldest_of_tied_slowest(board):
    for t in (66, 72, 61, 72):
        board.record(t)
    assert board.discard_worst() == 72.0
    assert board.history() == [66.0, 61.0, 72.0]


# scenarios mixing writers and readers
def test_discarding_the_oldest_run_changes_improvement(board):
    for t in (75, 68, 66.75):
        board.record(t)
    assert board.improvement() == 8.25
    assert board.discard_worst() == 75.0
    assert board.improvement() == 1.25
    assert board.personal_bests() == [68.0, 66.75]


def test_discard_then_record_again_updates_every_query(board):
    for t in (71, 64, 59, 66, 63):
        board.record(t)
    assert board.medal_count() == 4
    assert board.average_of() == 64.333
    assert board.discard_worst() == 71.0
    assert board.medal_count() == 4
    assert board.record(58.5) == "gold"
    assert board.history() == [64.0, 59.0, 66.0, 63.0, 58.5]
    assert board.best() == 58.5
    assert board.medal_count("gold") == 2
    assert board.personal_bests() == [64.0, 59.0, 58.5]
    assert board.average_of() == 62.0
    assert board.improvement() == 5.5


def test_record_after_discard_becomes_new_worst(board):
    for t in (62, 69):
        board.record(t)
    assert board.discard_worst() == 69.0
    assert board.record(80) == "none"
    assert board.medal_count() == 1
    assert board.discard_worst() == 80.0
    assert board.history() == [62.0]


def test_discard_worst_changes_medal_count_and_average(board):
    for t in (61, 63, 62, 64, 65, 75):
        board.record(t)
    assert board.average_of() == 64.0
    assert board.medal_count("silver") == 5
    board.discard_worst()
    board.discard_worst()
    assert board.medal_count("silver") == 4
    assert board.medal_count() == 4
    assert board.average_of(4) == 62.5
    with pytest.raises(ValueError):
        board.average_of()
