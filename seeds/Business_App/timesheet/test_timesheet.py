import pytest

from timesheet import Timesheet


@pytest.fixture
def ts():
    return Timesheet("noor", 20.0, weekly_limit=10.0)


def test_init_rejects_negative_rate():
    with pytest.raises(ValueError):
        Timesheet("noor", -1.0)


def test_week_of_first_and_boundary_days(ts):
    assert [ts.week_of(1), ts.week_of(7), ts.week_of(8), ts.week_of(15)] == [1, 1, 2, 3]


def test_week_of_day_zero_rejected(ts):
    with pytest.raises(ValueError):
        ts.week_of(0)


def test_log_returns_day_total(ts):
    ts.log(1, "alpha", 3.0)
    assert ts.log(1, "beta", 2.5) == 5.5


def test_log_accumulates_same_project(ts):
    ts.log(2, "alpha", 1.0)
    ts.log(2, "alpha", 1.5)
    assert ts.project_hours("alpha") == 2.5


def test_log_zero_hours_rejected(ts):
    with pytest.raises(ValueError):
        ts.log(1, "alpha", 0.0)


def test_log_invalid_day_rejected(ts):
    with pytest.raises(ValueError):
        ts.log(0, "alpha", 1.0)


def test_log_more_than_24_hours_rejected(ts):
    ts.log(1, "alpha", 20.0)
    with pytest.raises(ValueError):
        ts.log(1, "beta", 4.5)


def test_log_exactly_24_hours_allowed(ts):
    ts.log(1, "alpha", 20.0)
    assert ts.log(1, "beta", 4.0) == 24.0


def test_log_into_submitted_week_refused(ts):
    ts.log(1, "alpha", 2.0)
    ts.submit_week(1)
    with pytest.raises(PermissionError):
        ts.log(3, "alpha", 2.0)


def test_log_next_week_allowed_after_submit(ts):
    ts.log(1, "alpha", 2.0)
    ts.submit_week(1)
    assert ts.log(8, "alpha", 2.0) == 2.0


def test_day_total_empty(ts):
    assert ts.day_total(5) == 0.0


def test_remove_returns_hours(ts):
    ts.log(4, "alpha", 3.0)
    ts.log(4, "beta", 1.0)
    assert ts.remove(4, "alpha") == 3.0
    assert ts.day_total(4) == 1.0


def test_remove_last_entry_clears_day(ts):
    ts.log(4, "alpha", 3.0)
    ts.remove(4, "alpha")
    assert ts.week_total(1) == 0.0


def test_remove_missing_entry(ts):
    ts.log(4, "alpha", 3.0)
    with pytest.raises(KeyError):
        ts.remove(4, "beta")


def test_remove_in_submitted_week_refused(ts):
    ts.log(4, "alpha", 3.0)
    ts.submit_week(1)
    with pytest.raises(PermissionError):
        ts.remove(4, "alpha")


def test_week_total_only_counts_its_days(ts):
    ts.log(7, "alpha", 3.0)
    ts.log(8, "alpha", 5.0)
    ts.log(14, "beta", 1.0)
    assert ts.week_total(2) == 6.0


def test_overtime_zero_under_limit(ts):
    ts.log(1, "alpha", 9.0)
    assert ts.overtime(1) == 0.0


def test_overtime_above_limit(ts):
    ts.log(1, "alpha", 8.0)
    ts.log(2, "alpha", 5.0)
    assert ts.overtime(1) == 3.0


def test_gross_pay_regular_only(ts):
    ts.log(1, "alpha", 5.0)
    assert ts.gross_pay(1) == 100.0


def test_gross_pay_with_overtime(ts):
    ts.log(1, "alpha", 8.0)
    ts.log(2, "alpha", 4.0)
    assert ts.gross_pay(1) == 260.0


def test_gross_pay_empty_week(ts):
    assert ts.gross_pay(3) == 0.0


def test_project_hours_across_weeks(ts):
    ts.log(1, "alpha", 2.0)
    ts.log(9, "alpha", 3.25)
    ts.log(9, "beta", 1.0)
    assert ts.project_hours("alpha") == 5.25


def test_submit_week_returns_total(ts):
    ts.log(1, "alpha", 2.0)
    ts.log(5, "beta", 3.0)
    assert ts.submit_week(1) == 5.0


def test_submit_empty_week_rejected(ts):
    with pytest.raises(ValueError):
        ts.submit_week(1)


def test_submit_week_twice_rejected(ts):
    ts.log(1, "alpha", 2.0)
    ts.submit_week(1)
    with pytest.raises(ValueError):
        ts.submit_week(1)


def test_reopen_unsubmitted_week_rejected(ts):
    with pytest.raises(ValueError):
        ts.reopen_week(1)


def test_reopen_allows_correction(ts):
    ts.log(1, "alpha", 2.0)
    ts.submit_week(1)
    ts.reopen_week(1)
    assert ts.remove(1, "alpha") == 2.0


def test_correction_cycle_scenario():
    ts = Timesheet("omar", 30.0, weekly_limit=8.0)
    assert ts.log(1, "alpha", 6.0) == 6.0
    assert ts.log(2, "beta", 4.0) == 4.0
    assert ts.overtime(1) == 2.0
    assert ts.submit_week(1) == 10.0
    with pytest.raises(PermissionError):
        ts.log(2, "beta", 1.0)
    ts.reopen_week(1)
    assert ts.remove(2, "beta") == 4.0
    assert ts.log(2, "gamma", 1.5) == 1.5
    assert ts.week_total(1) == 7.5
    assert ts.gross_pay(1) == 225.0
    assert ts.submit_week(1) == 7.5
    ts.reopen_week(1)
    assert ts.log(3, "alpha", 2.5) == 2.5
    assert ts.project_hours("alpha") == 8.5
    assert ts.day_total(3) == 2.5
    assert ts.gross_pay(1) == 330.0


def test_remove_then_log_then_submit_scenario():
    ts = Timesheet("omar", 10.0)
    ts.log(9, "alpha", 2.0)
    ts.remove(9, "alpha")
    ts.log(10, "beta", 3.0)
    assert ts.submit_week(2) == 3.0
    with pytest.raises(PermissionError):
        ts.remove(10, "beta")
    ts.reopen_week(2)
    assert ts.remove(10, "beta") == 3.0
    assert ts.week_total(2) == 0.0


def test_zero_rate_volunteer_timesheet():
    ts = Timesheet("vol", 0.0, weekly_limit=0.0)
    ts.log(1, "charity", 3.0)
    assert ts.overtime(1) == 3.0
    assert ts.gross_pay(1) == 0.0


def test_gross_pay_rounds_to_cents():
    ts = Timesheet("noor", 0.333)
    ts.log(1, "alpha", 1.0)
    assert ts.gross_pay(1) == 0.33


def test_approve_week_returns_final_hours(ts):
    ts.log(1, "alpha", 5.0)
    ts.log(3, "beta", 2.5)
    ts.submit_week(1)
    assert ts.approve_week(1) == 7.5


def test_approve_unsubmitted_week_rejected(ts):
    ts.log(1, "alpha", 5.0)
    with pytest.raises(ValueError):
        ts.approve_week(1)


def test_approve_week_twice_rejected(ts):
    ts.log(1, "alpha", 5.0)
    ts.submit_week(1)
    ts.approve_week(1)
    with pytest.raises(ValueError):
        ts.approve_week(1)


def test_approved_week_cannot_be_reopened_or_changed(ts):
    ts.log(1, "alpha", 5.0)
    ts.submit_week(1)
    ts.approve_week(1)
    with pytest.raises(PermissionError):
        ts.reopen_week(1)
    with pytest.raises(PermissionError):
        ts.log(2, "alpha", 1.0)
    assert ts.week_total(1) == 5.0


def test_corrected_week_is_approved_at_its_corrected_hours():
    ts = Timesheet("omar", 10.0, weekly_limit=8.0)
    ts.log(1, "alpha", 9.0)
    assert ts.submit_week(1) == 9.0
    ts.reopen_week(1)
    assert ts.remove(1, "alpha") == 9.0
    ts.log(1, "alpha", 6.0)
    with pytest.raises(ValueError):
        ts.approve_week(1)
    assert ts.submit_week(1) == 6.0
    assert ts.approve_week(1) == 6.0
    assert ts.gross_pay(1) == 60.0
