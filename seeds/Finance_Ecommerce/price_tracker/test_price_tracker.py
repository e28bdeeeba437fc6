import pytest

from price_tracker import PriceTracker


@pytest.fixture
def tracker() -> PriceTracker:
    t = PriceTracker(window=3, alert_pct=10.0)
    t.record_many([100.0, 102.0, 98.0, 120.0, 105.0])
    return t


def test_init_rejects_bad_settings():
    with pytest.raises(ValueError):
        PriceTracker(window=0)
    with pytest.raises(ValueError):
        PriceTracker(alert_pct=0.0)


# record
def test_record_first_price_never_alerts():
    t = PriceTracker(alert_pct=1.0)
    assert t.record(250.0) is False
    assert t.alerts() == 0
    assert t.last() == 250.0


def test_record_move_of_exactly_threshold_does_not_alert():
    t = PriceTracker()
    t.record(100.0)
    assert t.record(105.0) is False
    assert t.alerts() == 0


def test_record_move_above_default_threshold_alerts():
    t = PriceTracker()
    t.record(100.0)
    assert t.record(105.5) is True
    assert t.alerts() == 1


def test_record_fall_below_average_alerts():
    t = PriceTracker(alert_pct=5.0)
    t.record(100.0)
    assert t.record(94.5) is True
    assert t.record(95.0) is False
    assert t.alerts() == 1


def test_record_accepts_int():
    t = PriceTracker()
    t.record(7)
    assert t.last() == 7.0
    assert t.moving_average() == 7.0


def test_record_zero_or_negative_raises_value_error():
    t = PriceTracker()
    with pytest.raises(ValueError):
        t.record(0.0)
    with pytest.raises(ValueError):
        t.record(-3.0)
    with pytest.raises(ValueError):
        t.last()


def test_record_nan_and_infinity_raise_value_error():
    t = PriceTracker()
    with pytest.raises(ValueError):
        t.record(float("nan"))
    with pytest.raises(ValueError):
        t.record(float("inf"))
    with pytest.raises(ValueError):
        t.moving_average()


def test_record_non_number_raises_type_error():
    t = PriceTracker()
    with pytest.raises(TypeError):
        t.record("101.5")
    with pytest.raises(TypeError):
        t.record(True)
    with pytest.raises(ValueError):
        t.last()


def test_record_compares_with_window_average_only():
    t = PriceTracker(window=2, alert_pct=5.0)
    t.record_many([10.0, 100.0, 100.0])
    # the average of the last two prices is 100; of all three it would be 70
    assert t.record(104.0) is False
    assert t.alerts() == 2


def test_record_compares_with_average_before_the_new_price():
    t = PriceTracker(window=2, alert_pct=20.0)
    t.record(100.0)
    # including itself the average would be 112.5, a move of only 11%
    assert t.record(125.0) is True


# record_many
def test_record_many_counts_alerts():
    t = PriceTracker(window=1, alert_pct=1.0)
    assert t.record_many([10.0, 10.0, 11.0, 10.0]) == 2
    assert t.alerts() == 2


def test_record_many_empty_list():
    t = PriceTracker()
    assert t.record_many([]) == 0
    with pytest.raises(ValueError):
        t.last()


def test_record_many_invalid_element_records_nothing():
    t = PriceTracker()
    t.record(50.0)
    with pytest.raises(ValueError):
        t.record_many([51.0, 0.0])
    assert t.last() == 50.0
    assert t.moving_average() == 50.0


def test_record_many_non_number_records_nothing():
    t = PriceTracker()
    with pytest.raises(TypeError):
        t.record_many([51.0, None])
    assert t.alerts() == 0
    with pytest.raises(ValueError):
        t.last()


def test_record_many_checks_each_price_against_earlier_ones():
    t = PriceTracker(window=2, alert_pct=10.0)
    assert t.record_many([100.0, 120.0, 121.0, 150.0]) == 2
    assert t.moving_average() == 135.5


# set_alert_threshold
def test_set_alert_threshold_returns_previous():
    t = PriceTracker(alert_pct=5.0)
    assert t.set_alert_threshold(2.0) == 5.0
    assert t.set_alert_threshold(8.0) == 2.0


def test_set_alert_threshold_non_positive_raises_value_error():
    t = PriceTracker(alert_pct=5.0)
    with pytest.raises(ValueError):
        t.set_alert_threshold(0.0)
    assert t.set_alert_threshold(1.0) == 5.0


def test_set_alert_threshold_applies_to_later_prices():
    t = PriceTracker(alert_pct=5.0)
    t.record(100.0)
    t.set_alert_threshold(2.0)
    assert t.record(103.0) is True
    assert t.alerts() == 1


def test_set_alert_threshold_keeps_earlier_alerts():
    t = PriceTracker(alert_pct=1.0)
    t.record_many([100.0, 110.0])
    t.set_alert_threshold(50.0)
    assert t.record(90.0) is False
    assert t.alerts() == 1


# alerts
def test_alerts_of_fixture(tracker):
    assert tracker.alerts() == 1


def test_alerts_fresh_tracker_is_zero():
    assert PriceTracker().alerts() == 0


# last
def test_last_of_fixture(tracker):
    assert tracker.last() == 105.0


def test_last_empty_raises_value_error():
    with pytest.raises(ValueError):
        PriceTracker().last()


# moving_average
def test_moving_average_of_fixture(tracker):
    assert tracker.moving_average() == 107.666667


def test_moving_average_with_fewer_prices_than_window():
    t = PriceTracker(window=4)
    t.record_many([10.0, 20.0])
    assert t.moving_average() == 15.0


def test_moving_average_uses_default_window_of_five():
    t = PriceTracker(alert_pct=90.0)
    t.record_many([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert t.moving_average() == 4.0


def test_moving_average_empty_raises_value_error():
    with pytest.raises(ValueError):
        PriceTracker().moving_average()


# volatility
def test_volatility_of_fixture(tracker):
    assert tracker.volatility() == 0.12879


def test_volatility_is_population_deviation_of_returns():
    t = PriceTracker(alert_pct=90.0)
    t.record_many([50.0, 55.0, 44.0, 44.0, 66.0])
    # returns 0.1, -0.2, 0.0, 0.5: mean 0.1, squared deviations sum 0.26
    assert t.volatility() == 0.254951


def test_volatility_symmetric_returns():
    t = PriceTracker(alert_pct=90.0)
    t.record_many([20.0, 25.0, 20.0])
    assert t.volatility() == 0.225


def test_volatility_of_two_prices_is_zero():
    t = PriceTracker()
    t.record_many([10.0, 30.0])
    assert t.volatility() == 0.0


def test_volatility_needs_two_prices():
    t = PriceTracker()
    t.record(10.0)
    with pytest.raises(ValueError):
        t.volatility()


# drawdown
def test_drawdown_of_fixture(tracker):
    assert tracker.drawdown() == 0.125


def test_drawdown_rising_prices_is_zero():
    t = PriceTracker(alert_pct=90.0)
    t.record_many([1.0, 2.0, 2.0, 3.0])
    assert t.drawdown() == 0.0


def test_drawdown_keeps_deeper_earlier_fall():
    t = PriceTracker(alert_pct=90.0)
    t.record_many([100.0, 50.0, 200.0, 150.0])
    assert t.drawdown() == 0.5


def test_drawdown_measures_from_later_higher_peak():
    t = PriceTracker(alert_pct=90.0)
    t.record_many([100.0, 90.0, 200.0, 120.0])
    assert t.drawdown() == 0.4


def test_drawdown_rounds_to_six_places():
    t = PriceTracker(alert_pct=90.0)
    t.record_many([3.0, 2.0])
    assert t.drawdown() == 0.333333


def test_drawdown_empty_raises_value_error():
    with pytest.raises(ValueError):
        PriceTracker().drawdown()


# scenarios mixing writers and readers
def test_scenario_threshold_changes_between_batches():
    t = PriceTracker(window=2, alert_pct=10.0)
    assert t.record_many([40.0, 42.0, 44.0]) == 0
    assert t.moving_average() == 43.0
    assert t.set_alert_threshold(2.0) == 10.0
    assert t.record(45.0) is True
    assert t.record_many([44.5, 40.0]) == 1
    assert t.alerts() == 2
    assert t.last() == 40.0
    assert t.moving_average() == 42.25
    assert t.drawdown() == 0.111111


def test_scenario_record_query_record_query():
    t = PriceTracker(window=3, alert_pct=15.0)
    t.record(80.0)
    assert t.drawdown() == 0.0
    assert t.last() == 80.0
    t.record(60.0)
    assert t.alerts() == 1
    assert t.drawdown() == 0.25
    assert t.volatility() == 0.0
    t.record_many([70.0, 70.0])
    assert t.moving_average() == 66.666667
    assert t.alerts() == 1
    assert t.last() == 70.0
    assert t.volatility() == 0.171234


def test_scenario_loosen_then_tighten_threshold():
    t = PriceTracker(window=1, alert_pct=5.0)
    t.record(100.0)
    t.set_alert_threshold(30.0)
    assert t.record_many([125.0, 100.0]) == 0
    t.set_alert_threshold(10.0)
    assert t.record(111.0) is True
    assert t.alerts() == 1
    assert t.moving_average() == 111.0
    assert t.drawdown() == 0.2
