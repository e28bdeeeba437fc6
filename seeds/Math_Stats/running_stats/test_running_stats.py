import math

import pytest

from running_stats import RunningStats


@pytest.fixture
def stats() -> RunningStats:
    s = RunningStats()
    s.add_many([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    return s


# add / add_many
def test_add_single_value_sets_mean():
    s = RunningStats()
    s.add(7.5)
    assert s.mean() == 7.5


def test_add_accepts_int():
    s = RunningStats()
    s.add(3)
    s.add(4)
    assert s.mean() == 3.5


def test_add_string_raises_type_error():
    with pytest.raises(TypeError):
        RunningStats().add("3")


def test_add_bool_raises_type_error():
    with pytest.raises(TypeError):
        RunningStats().add(True)


def test_add_nan_raises_value_error():
    with pytest.raises(ValueError):
        RunningStats().add(float("nan"))


def test_add_infinity_raises_value_error():
    with pytest.raises(ValueError):
        RunningStats().add(float("inf"))


def test_add_many_returns_total_count():
    s = RunningStats()
    s.add(1.0)
    assert s.add_many([2.0, 3.0]) == 3


def test_add_many_empty_list_keeps_count():
    s = RunningStats()
    assert s.add_many([]) == 0


def test_add_many_stops_at_bad_value_keeping_earlier():
    s = RunningStats()
    with pytest.raises(TypeError):
        s.add_many([1.0, 3.0, None, 10.0])
    assert s.mean() == 2.0


# mean
def test_mean_of_fixture(stats):
    assert stats.mean() == 5.0


def test_mean_empty_raises_value_error():
    with pytest.raises(ValueError):
        RunningStats().mean()


def test_mean_stable_for_large_offset():
    s = RunningStats()
    s.add_many([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16])
    assert s.mean() == 1e9 + 10
    assert s.variance() == pytest.approx(30.0)


# variance / stddev
def test_variance_population(stats):
    assert stats.variance(sample=False) == 4.0


def test_variance_sample(stats):
    assert stats.variance() == pytest.approx(32.0 / 7.0)


def test_variance_sample_needs_two_values():
    s = RunningStats()
    s.add(1.0)
    with pytest.raises(ValueError):
        s.variance()


def test_variance_sample_of_exactly_two_values():
    s = RunningStats()
    s.add_many([1.0, 3.0])
    assert s.variance() == 2.0


def test_variance_population_of_single_value_is_zero():
    s = RunningStats()
    s.add(42.0)
    assert s.variance(sample=False) == 0.0


def test_variance_population_empty_raises_value_error():
    with pytest.raises(ValueError):
        RunningStats().variance(sample=False)


def test_stddev_population(stats):
    assert stats.stddev(sample=False) == 2.0


def test_stddev_sample(stats):
    assert stats.stddev() == pytest.approx(math.sqrt(32.0 / 7.0))


def test_stddev_empty_raises_value_error():
    with pytest.raises(ValueError):
        RunningStats().stddev()


# z_score
def test_z_score_above_mean():
    s = RunningStats()
    s.add_many([2.0, 4.0, 6.0])
    assert s.z_score(8.0) == 2.0


def test_z_score_of_mean_is_zero(stats):
    assert stats.z_score(5.0) == 0.0


def test_z_score_constant_data_raises_value_error():
    s = RunningStats()
    s.add_many([3.0, 3.0, 3.0])
    with pytest.raises(ValueError):
        s.z_score(3.0)


def test_z_score_single_value_raises_value_error():
    s = RunningStats()
    s.add(3.0)
    with pytest.raises(ValueError):
        s.z_score(4.0)


# extremes
def test_extremes_of_fixture(stats):
    assert stats.extremes() == (2.0, 9.0)


def test_extremes_negative_values():
    s = RunningStats()
    s.add_many([-3.0, -8.5, -1.0])
    assert s.extremes() == (-8.5, -1.0)


def test_extremes_empty_raises_value_error():
    with pytest.raises(ValueError):
        RunningStats().extremes()


# summary / merge
def test_summary_fields():
    s = RunningStats()
    s.add_many([1.0, 3.0])
    assert s.summary() == {"count": 2.0, "mean": 2.0, "m2": 2.0, "min": 1.0, "max": 3.0}


def test_summary_of_empty_has_infinite_extremes():
    s = RunningStats()
    s.merge({"count": 0.0, "mean": 0.0, "m2": 0.0, "min": math.inf, "max": -math.inf})
    assert s.summary() == {"count": 0.0, "mean": 0.0, "m2": 0.0, "min": math.inf, "max": -math.inf}


def test_merge_equals_single_pass():
    left = RunningStats()
    left.add_many([2.0, 4.0, 4.0, 4.0])
    right = RunningStats()
    right.add_many([5.0, 5.0, 7.0, 9.0])
    assert left.merge(right.summary()) == 8
    assert left.mean() == 5.0
    assert left.variance(sample=False) == pytest.approx(4.0)
    assert left.extremes() == (2.0, 9.0)


def test_merge_into_empty_copies_summary():
    s = RunningStats()
    assert s.merge({"count": 3.0, "mean": 2.0, "m2": 2.0, "min": 1.0, "max": 3.0}) == 3
    assert s.mean() == 2.0
    assert s.variance() == 1.0
    assert s.extremes() == (1.0, 3.0)


def test_merge_empty_summary_changes_nothing(stats):
    assert stats.merge({"count": 0.0, "mean": 0.0, "m2": 0.0, "min": math.inf, "max": -math.inf}) == 8
    assert stats.mean() == 5.0


def test_merge_missing_field_raises_key_error(stats):
    with pytest.raises(KeyError):
        stats.merge({"count": 2.0, "mean": 1.0})


def test_merge_negative_count_raises_value_error(stats):
    with pytest.raises(ValueError):
        stats.merge({"count": -1.0, "mean": 0.0, "m2": 0.0, "min": 0.0, "max": 0.0})


def test_merge_fractional_count_raises_value_error(stats):
    with pytest.raises(ValueError):
        stats.merge({"count": 1.5, "mean": 0.0, "m2": 0.0, "min": 0.0, "max": 0.0})


# scenarios
def test_scenario_stream_then_merge_then_more_values():
    s = RunningStats()
    s.add(10.0)
    s.add(20.0)
    assert s.merge({"count": 2.0, "mean": 35.0, "m2": 50.0, "min": 30.0, "max": 40.0}) == 4
    s.add(25.0)
    assert s.add_many([25.0]) == 6
    assert s.mean() == 25.0
    assert s.variance(sample=False) == pytest.approx(500.0 / 6.0)
    assert s.extremes() == (10.0, 40.0)
    assert s.z_score(25.0) == 0.0
    assert s.summary()["count"] == 6.0


def test_scenario_merge_then_add_then_merge_again():
    s = RunningStats()
    s.merge({"count": 1.0, "mean": 4.0, "m2": 0.0, "min": 4.0, "max": 4.0})
    s.add(6.0)
    s.merge({"count": 1.0, "mean": 8.0, "m2": 0.0, "min": 8.0, "max": 8.0})
    assert s.mean() == 6.0
    assert s.stddev() == 2.0
    assert s.z_score(2.0) == -2.0
    assert s.extremes() == (4.0, 8.0)
    assert s.summary() == {"count": 3.0, "mean": 6.0, "m2": 8.0, "min": 4.0, "max": 8.0}


def test_scenario_two_shards_round_trip_through_summary():
    shard_a = RunningStats()
    shard_a.add_many([1.0, 2.0, 3.0])
    shard_b = RunningStats()
    shard_b.add_many([4.0, 5.0])
    shard_b.merge(shard_a.summary())
    assert shard_b.mean() == 3.0
    assert shard_b.variance() == pytest.approx(2.5)
    assert shard_b.extremes() == (1.0, 5.0)
