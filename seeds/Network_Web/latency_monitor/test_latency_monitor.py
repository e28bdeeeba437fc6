import pytest

from latency_monitor import LatencyMonitor


@pytest.fixture
def monitor() -> LatencyMonitor:
    m = LatencyMonitor(200.0, window_size=5, objective=0.8)
    m.record_many([120.0, 180.0, 250.0, 90.0, 310.0])
    return m


def test_init_rejects_bad_settings():
    with pytest.raises(ValueError):
        LatencyMonitor(0.0)
    with pytest.raises(ValueError):
        LatencyMonitor(100.0, window_size=0)
    with pytest.raises(ValueError):
        LatencyMonitor(100.0, objective=1.0)
    with pytest.raises(ValueError):
        LatencyMonitor(100.0, objective=0.0)


# record
def test_record_good_request_returns_true():
    m = LatencyMonitor(100.0)
    assert m.record(42.5) is True
    assert m.breaches() == 0


def test_record_at_threshold_is_good():
    m = LatencyMonitor(100.0)
    assert m.record(100.0) is True
    assert m.breaches() == 0
    assert m.error_budget_left() == 1.0


def test_record_above_threshold_is_bad():
    m = LatencyMonitor(100.0)
    assert m.record(100.25) is False
    assert m.breaches() == 1


def test_record_accepts_int_and_zero():
    m = LatencyMonitor(100.0)
    assert m.record(0) is True
    assert m.record(7) is True
    assert m.percentile(100) == 7.0


def test_record_negative_raises_value_error():
    m = LatencyMonitor(100.0)
    with pytest.raises(ValueError):
        m.record(-0.5)
    assert m.reset_window() == 0


def test_record_nan_and_infinity_raise_value_error():
    m = LatencyMonitor(100.0)
    with pytest.raises(ValueError):
        m.record(float("nan"))
    with pytest.raises(ValueError):
        m.record(float("inf"))
    assert m.error_budget_left() == 1.0


def test_record_non_number_raises_type_error():
    m = LatencyMonitor(100.0)
    with pytest.raises(TypeError):
        m.record("12")
    with pytest.raises(TypeError):
        m.record(True)
    assert m.reset_window() == 0


def test_record_drops_oldest_beyond_window():
    m = LatencyMonitor(100.0, window_size=3)
    m.record(500.0)
    m.record(10.0)
    m.record(20.0)
    assert m.breaches() == 1
    m.record(30.0)
    assert m.breaches() == 0
    assert m.percentile(100) == 30.0
    assert m.reset_window() == 3


def test_record_window_of_one_keeps_latest():
    m = LatencyMonitor(100.0, window_size=1)
    m.record(300.0)
    m.record(40.0)
    assert m.p95() == 40.0
    assert m.reset_window() == 1


# record_many
def test_record_many_counts_bad_requests():
    m = LatencyMonitor(50.0)
    assert m.record_many([10.0, 50.0, 50.5, 75.0]) == 2
    assert m.breaches() == 2


def test_record_many_empty_list():
    m = LatencyMonitor(50.0)
    assert m.record_many([]) == 0
    assert m.error_budget_left() == 1.0


def test_record_many_invalid_element_records_nothing():
    m = LatencyMonitor(50.0)
    with pytest.raises(ValueError):
        m.record_many([10.0, 20.0, -1.0])
    assert m.reset_window() == 0
    assert m.error_budget_left() == 1.0


def test_record_many_non_number_records_nothing():
    m = LatencyMonitor(50.0)
    with pytest.raises(TypeError):
        m.record_many([10.0, None])
    assert m.breaches() == 0
    assert m.reset_window() == 0


# percentile / p95
def test_percentile_nearest_rank(monitor):
    # window sorted: 90, 120, 180, 250, 310
    assert monitor.percentile(20) == 90.0
    assert monitor.percentile(21) == 120.0
    assert monitor.percentile(50) == 180.0
    assert monitor.percentile(80) == 250.0
    assert monitor.percentile(100) == 310.0


def test_percentile_small_q_gives_minimum(monitor):
    assert monitor.percentile(0.5) == 90.0


def test_percentile_out_of_range_raises_value_error(monitor):
    with pytest.raises(ValueError):
        monitor.percentile(0)
    with pytest.raises(ValueError):
        monitor.percentile(100.5)


def test_percentile_empty_window_raises_value_error():
    with pytest.raises(ValueError):
        LatencyMonitor(100.0).percentile(50)


def test_percentile_single_sample():
    m = LatencyMonitor(100.0)
    m.record(33.0)
    assert m.percentile(1) == 33.0
    assert m.percentile(100) == 33.0


def test_p95_of_fixture(monitor):
    assert monitor.p95() == 310.0


def test_p95_of_twenty_samples_is_nineteenth():
    m = LatencyMonitor(100.0)
    m.record_many([float(n) for n in range(1, 21)])
    assert m.p95() == 19.0


def test_p95_of_twenty_one_samples_is_twentieth():
    m = LatencyMonitor(100.0)
    m.record_many([float(n) for n in range(21, 0, -1)])
    assert m.p95() == 20.0


def test_p95_empty_window_raises_value_error():
    with pytest.raises(ValueError):
        LatencyMonitor(100.0).p95()


# breaches
def test_breaches_of_fixture(monitor):
    assert monitor.breaches() == 2


def test_breaches_empty_window_is_zero():
    assert LatencyMonitor(100.0).breaches() == 0


# error_budget_left
def test_error_budget_left_of_fixture(monitor):
    # 5 requests, 2 bad, budget (1 - 0.8) * 5 = 1 bad request
    assert monitor.error_budget_left() == -1.0


def test_error_budget_left_fresh_monitor_is_full():
    assert LatencyMonitor(100.0).error_budget_left() == 1.0


def test_error_budget_left_partly_spent():
    m = LatencyMonitor(100.0, objective=0.9)
    m.record_many([10.0] * 18 + [150.0, 20.0])
    assert m.error_budget_left() == 0.5


def test_error_budget_left_exactly_spent():
    m = LatencyMonitor(100.0, objective=0.75)
    m.record_many([10.0, 20.0, 30.0, 101.0])
    assert m.error_budget_left() == 0.0


def test_error_budget_left_uses_default_objective():
    m = LatencyMonitor(100.0)
    m.record_many([10.0] * 199 + [200.0])
    assert m.error_budget_left() == 0.5


def test_error_budget_counts_requests_that_left_the_window():
    m = LatencyMonitor(100.0, window_size=2, objective=0.5)
    m.record_many([400.0, 10.0, 20.0, 30.0])
    assert m.breaches() == 0
    assert m.error_budget_left() == 0.5


# reset_window
def test_reset_window_returns_number_dropped(monitor):
    assert monitor.reset_window() == 5
    assert monitor.reset_window() == 0


def test_reset_window_keeps_error_budget(monitor):
    monitor.reset_window()
    assert monitor.breaches() == 0
    assert monitor.error_budget_left() == -1.0
    with pytest.raises(ValueError):
        monitor.p95()


def test_reset_window_uses_default_window_size():
    m = LatencyMonitor(100.0)
    m.record_many([1.0] * 101)
    assert m.reset_window() == 100


# healthy
def test_healthy_fresh_monitor():
    assert LatencyMonitor(100.0).healthy() is True


def test_healthy_when_fast_and_within_budget():
    m = LatencyMonitor(100.0, objective=0.5)
    m.record_many([40.0, 60.0, 100.0])
    assert m.healthy() is True


def test_unhealthy_when_budget_spent(monitor):
    assert monitor.healthy() is False


def test_unhealthy_when_p95_too_slow_with_budget_left():
    m = LatencyMonitor(100.0, window_size=3, objective=0.5)
    m.record_many([10.0, 10.0, 10.0, 10.0, 150.0])
    assert m.error_budget_left() == 0.6
    assert m.p95() == 150.0
    assert m.healthy() is False


def test_healthy_after_reset_depends_on_budget_only():
    m = LatencyMonitor(100.0, window_size=2, objective=0.5)
    m.record_many([10.0, 10.0, 10.0, 150.0])
    assert m.healthy() is False
    assert m.reset_window() == 2
    assert m.healthy() is True


# scenarios mixing writers and readers
def test_scenario_reset_then_record_starts_fresh_window():
    m = LatencyMonitor(200.0, window_size=4, objective=0.5)
    m.record_many([300.0, 250.0, 100.0])
    assert m.reset_window() == 3
    assert m.record(150.0) is True
    assert m.record(220.0) is False
    assert m.percentile(50) == 150.0
    assert m.p95() == 220.0
    assert m.breaches() == 1
    # 5 requests, 3 bad, budget 2.5 bad requests
    assert m.error_budget_left() == -0.2
    assert m.healthy() is False


def test_scenario_record_query_reset_record_query():
    m = LatencyMonitor(100.0, window_size=10, objective=0.5)
    assert m.record_many([20.0, 40.0, 60.0, 80.0]) == 0
    assert m.percentile(50) == 40.0
    assert m.healthy() is True
    m.reset_window()
    assert m.breaches() == 0
    m.record(120.0)
    m.record_many([30.0])
    assert m.breaches() == 1
    assert m.percentile(50) == 30.0
    assert m.p95() == 120.0
    assert m.healthy() is False
    assert m.error_budget_left() == 0.666667


def test_scenario_window_slides_while_budget_accumulates():
    m = LatencyMonitor(50.0, window_size=3, objective=0.6)
    m.record(60.0)
    m.record(70.0)
    assert m.breaches() == 2
    assert m.error_budget_left() == -1.5
    m.record_many([10.0, 20.0, 30.0])
    assert m.breaches() == 0
    assert m.p95() == 30.0
    assert m.error_budget_left() == 0.0
    assert m.healthy() is False
    m.record_many([5.0] * 5)
    assert m.error_budget_left() == 0.5
    assert m.healthy() is True
