import pytest

from anomaly_detector import AnomalyDetector


@pytest.fixture
def trained() -> AnomalyDetector:
    """alpha 0.5, threshold 2, warm-up 3: after 10, 12, 10 the baseline is 10.5, the deviation 1.0."""
    detector = AnomalyDetector(alpha=0.5, threshold=2.0, warmup=3, critical_at=2)
    detector.observe_many([10, 12, 10])
    return detector


# constructor
def test_constructor_rejects_settings_out_of_range():
    for settings in ({"alpha": 0}, {"alpha": 1.5}, {"threshold": 0}, {"warmup": 0},
                     {"min_deviation": -0.5}, {"critical_at": 0}):
        with pytest.raises(ValueError, match="detector setting out of range"):
            AnomalyDetector(**settings)


def test_constructor_accepts_alpha_one_so_baseline_follows_last_value():
    detector = AnomalyDetector(alpha=1, warmup=1)
    detector.observe(5)
    assert detector.observe(7) is False
    assert detector.baseline() == 7.0
    assert detector.deviation() == 2.0
    assert detector.upper_limit() == 13.0


def test_constructor_accepts_small_threshold():
    detector = AnomalyDetector(threshold=0.5, warmup=1)
    detector.observe(10)
    assert detector.upper_limit() == 10.5


# observe
def test_first_observation_sets_baseline_and_zero_deviation():
    detector = AnomalyDetector()
    assert detector.observe(10) is False
    assert detector.baseline() == 10.0
    assert detector.deviation() == 0.0


def test_observe_updates_baseline_and_deviation_with_old_baseline(trained):
    assert trained.baseline() == 10.5
    assert trained.deviation() == 1.0
    assert trained.observe(12.5) is False
    assert trained.baseline() == 11.5
    assert trained.deviation() == 1.5


def test_warmup_observations_are_never_flagged():
    detector = AnomalyDetector(warmup=3)
    assert detector.observe_many([10, 1000, 5000]) == 0
    assert detector.anomalies() == 0
    assert detector.baseline() == 1443.125


def test_observation_equal_to_limit_is_not_anomalous(trained):
    assert trained.upper_limit() == 12.5
    assert trained.observe(12.5) is False
    assert trained.flagged() == []


def test_observation_just_above_limit_is_anomalous(trained):
    assert trained.observe(12.501) is True
    assert trained.flagged() == [12.501]


def test_anomalous_observation_leaves_baseline_and_deviation(trained):
    assert trained.observe(30) is True
    assert trained.baseline() == 10.5
    assert trained.deviation() == 1.0
    assert trained.upper_limit() == 12.5


def test_low_values_are_never_anomalous(trained):
    assert trained.observe(-1000) is False
    assert trained.baseline() == -494.75
    assert trained.deviation() == 505.75


def test_observe_rounds_queries_to_four_decimals():
    detector = AnomalyDetector(alpha=0.2)
    detector.observe_many([0, 3, 3, 3, 3, 3])
    assert detector.baseline() == 2.017
    assert detector.deviation() == 1.2288
    assert detector.upper_limit() == 5.7034


@pytest.mark.parametrize("bad", ["5", True, None])
def test_observe_non_number_raises_type_error_and_changes_nothing(bad):
    detector = AnomalyDetector(warmup=1)
    with pytest.raises(TypeError, match="an observation must be a number"):
        detector.observe(bad)
    assert detector.alert_level() == "learning"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_observe_non_finite_raises_value_error_and_changes_nothing(trained, bad):
    with pytest.raises(ValueError, match="an observation must be finite"):
        trained.observe(bad)
    assert trained.baseline() == 10.5
    assert trained.deviation() == 1.0


# observe_many
def test_observe_many_counts_flagged_values(trained):
    assert trained.observe_many([11, 30, 12, 40]) == 2
    assert trained.flagged() == [30.0, 40.0]


def test_observe_many_empty_list_is_zero(trained):
    assert trained.observe_many([]) == 0
    assert trained.baseline() == 10.5


def test_observe_many_stops_at_bad_value_keeping_earlier():
    detector = AnomalyDetector(alpha=0.5)
    with pytest.raises(TypeError):
        detector.observe_many([8, 10, "12", 100])
    assert detector.baseline() == 9.0


# baseline / deviation / upper_limit
@pytest.mark.parametrize("query", ["baseline", "deviation", "upper_limit"])
def test_queries_before_any_observation_raise(query):
    detector = AnomalyDetector()
    with pytest.raises(ValueError, match="no observations yet"):
        getattr(detector, query)()


def test_upper_limit_uses_min_deviation_when_deviation_is_smaller():
    detector = AnomalyDetector(alpha=0.5, threshold=2.0, min_deviation=4.0)
    detector.observe_many([10, 12])
    assert detector.deviation() == 1.0
    assert detector.upper_limit() == 19.0


def test_upper_limit_uses_deviation_when_larger_than_floor():
    detector = AnomalyDetector(alpha=0.5, threshold=2.0, min_deviation=0.5)
    detector.observe_many([10, 12])
    assert detector.upper_limit() == 13.0


def test_zero_min_deviation_flags_any_rise_of_a_flat_metric():
    detector = AnomalyDetector(min_deviation=0, warmup=1)
    detector.observe(5)
    assert detector.upper_limit() == 5.0
    assert detector.observe(5) is False
    assert detector.observe(5.001) is True


# flagged / anomalies
def test_flagged_and_anomalies_start_empty():
    detector = AnomalyDetector()
    assert detector.flagged() == []
    assert detector.anomalies() == 0


def test_flagged_returns_floats_in_order_as_a_copy():
    detector = AnomalyDetector(warmup=1)
    detector.observe_many([3, 9, 8])
    detector.flagged().append(1.0)
    assert detector.flagged() == [9.0, 8.0]
    assert isinstance(detector.flagged()[0], float)
    assert detector.anomalies() == 2


# alert_level
def test_alert_level_learning_until_warmup_observations():
    detector = AnomalyDetector(warmup=2)
    assert detector.alert_level() == "learning"
    detector.observe(5)
    assert detector.alert_level() == "learning"
    detector.observe(5)
    assert detector.alert_level() == "normal"


def test_alert_level_elevated_then_critical_at_threshold(trained):
    trained.observe(30)
    assert trained.alert_level() == "elevated"
    trained.observe(31)
    assert trained.alert_level() == "critical"
    trained.observe(32)
    assert trained.alert_level() == "critical"


# acknowledge
def test_acknowledge_with_nothing_pending_returns_zero(trained):
    assert trained.acknowledge() == 0
    assert trained.alert_level() == "normal"


def test_acknowledge_before_any_observation_returns_zero():
    detector = AnomalyDetector()
    assert detector.acknowledge() == 0
    assert detector.observe(4) is False
    assert detector.baseline() == 4.0


def test_acknowledge_clears_flagged_but_keeps_baseline(trained):
    trained.observe_many([30, 40])
    assert trained.alert_level() == "critical"
    assert trained.acknowledge() == 2
    assert trained.flagged() == []
    assert trained.anomalies() == 0
    assert trained.alert_level() == "normal"
    assert trained.baseline() == 10.5


# scenarios mixing writers and readers
def test_observe_after_acknowledge_counts_anomalies_afresh(trained):
    assert trained.observe(30) is True
    assert trained.acknowledge() == 1
    assert trained.observe(12) is False
    assert trained.baseline() == 11.25
    assert trained.deviation() == 1.25
    assert trained.upper_limit() == 13.75
    assert trained.observe(14) is True
    assert trained.flagged() == [14.0]
    assert trained.anomalies() == 1
    assert trained.alert_level() == "elevated"
    assert trained.acknowledge() == 1


def test_learning_ends_on_the_warmup_observation_then_flags():
    detector = AnomalyDetector(alpha=0.5, threshold=2.0, warmup=2, critical_at=1)
    assert detector.observe(10) is False
    assert detector.alert_level() == "learning"
    assert detector.observe(14) is False
    assert detector.alert_level() == "normal"
    assert detector.upper_limit() == 16.0
    assert detector.observe(16.5) is True
    assert detector.alert_level() == "critical"
    assert detector.acknowledge() == 1
    assert detector.alert_level() == "normal"


def test_default_settings_warm_up_on_five_observations():
    detector = AnomalyDetector()
    detector.observe_many([10, 10, 10, 10])
    assert detector.alert_level() == "learning"
    assert detector.observe(10) is False
    assert detector.alert_level() == "normal"
    assert detector.upper_limit() == 13.0
    assert detector.observe(13.5) is True
    assert detector.observe_many([14, 15]) == 2
    assert detector.alert_level() == "critical"
