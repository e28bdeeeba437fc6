import pytest

from lap_timer import LapTimer


@pytest.fixture
def watch():
    return LapTimer()


def test_start_reports_laps_completed(watch):
    assert watch.start(0.0) == 0
    watch.lap(10.0)
    watch.pause(12.0)
    assert watch.start(20.0) == 1


def test_start_twice_fails(watch):
    watch.start(0.0)
    with pytest.raises(ValueError):
        watch.start(1.0)


def test_start_before_latest_reading_fails(watch):
    watch.start(5.0)
    watch.pause(8.0)
    with pytest.raises(ValueError):
        watch.start(7.0)


def test_start_at_negative_reading_fails(watch):
    with pytest.raises(ValueError):
        watch.start(-1.0)


def test_lap_returns_lap_time_and_starts_next(watch):
    watch.start(3.0)
    assert watch.lap(64.5) == 61.5
    assert watch.lap(124.0) == 59.5
    assert watch.laps() == [61.5, 59.5]


def test_lap_rounds_to_milliseconds(watch):
    watch.start(0.1)
    assert watch.lap(0.3) == 0.2
    assert watch.lap(0.3004) == 0.0


def test_lap_without_start_fails(watch):
    with pytest.raises(ValueError):
        watch.lap(1.0)


def test_lap_when_paused_fails(watch):
    watch.start(0.0)
    watch.pause(1.0)
    with pytest.raises(ValueError):
        watch.lap(2.0)


def test_lap_going_back_fails(watch):
    watch.start(0.0)
    watch.lap(10.0)
    with pytest.raises(ValueError):
        watch.lap(9.0)


def test_paused_time_counts_towards_no_lap(watch):
    watch.start(0.0)
    assert watch.pause(20.0) == 20.0
    watch.start(50.0)
    assert watch.lap(60.0) == 30.0
    assert watch.total(60.0) == 30.0


def test_pause_twice_fails(watch):
    watch.start(0.0)
    watch.pause(1.0)
    with pytest.raises(ValueError):
        watch.pause(2.0)


def test_pause_going_back_fails(watch):
    watch.start(4.0)
    with pytest.raises(ValueError):
        watch.pause(3.0)


def test_several_pauses_in_one_lap(watch):
    watch.start(0.0)
    watch.pause(5.0)
    watch.start(10.0)
    assert watch.pause(12.5) == 7.5
    watch.start(20.0)
    assert watch.lap(21.0) == 8.5


def test_current_lap_time(watch):
    watch.start(2.0)
    assert watch._current(2.25) == 0.25
    with pytest.raises(ValueError):
        watch._current(1.0)


def test_current_when_stopped_fails(watch):
    with pytest.raises(ValueError):
        watch._current(1.0)


def test_best_lap_is_fastest(watch):
    watch.start(0.0)
    for reading in (62.0, 120.5, 185.0):
        watch.lap(reading)
    assert watch.best_lap() == 58.5


def test_best_lap_without_laps(watch):
    watch.start(0.0)
    with pytest.raises(ValueError):
        watch.best_lap()


def test_total_while_running_and_stopped(watch):
    assert watch.total(0.0) == 0.0
    watch.start(0.0)
    watch.lap(4.0)
    assert watch.total(5.5) == 5.5
    watch.pause(6.0)
    assert watch.total(100.0) == 6.0


def test_total_going_back_while_running_fails(watch):
    watch.start(10.0)
    with pytest.raises(ValueError):
        watch.total(9.0)


def test_reset_clears_laps_and_stops(watch):
    watch.start(100.0)
    watch.lap(160.0)
    watch.lap(230.0)
    assert watch.reset() == 2
    assert watch.laps() == []
    assert watch.total(0.0) == 0.0
    with pytest.raises(ValueError):
        watch.lap(300.0)


def test_reset_allows_earlier_readings(watch):
    watch.start(100.0)
    watch.pause(110.0)
    assert watch.reset() == 0
    assert watch.start(1.0) == 0
    assert watch.lap(3.0) == 2.0


def test_session_scenario(watch):
    assert watch.start(0.0) == 0
    assert watch.lap(90.0) == 90.0
    assert watch.pause(100.0) == 10.0
    assert watch.start(130.0) == 1
    assert watch.lap(205.0) == 85.0
    assert watch.best_lap() == 85.0
    assert watch.total(205.0) == 175.0
    assert watch.laps() == [90.0, 85.0]
    assert watch.reset() == 2
    assert watch.start(0.0) == 0
    assert watch.lap(80.0) == 80.0
    assert watch.best_lap() == 80.0
