"""Spike detection for one watched metric with an exponentially weighted baseline."""

import math


class AnomalyDetector:
    """Flag unusually high values of one metric watched for attacks or overload.

    The metric is observed once per event or per interval (a request's latency, failed
    logins per minute, bytes sent out per hour). The detector keeps exponentially weighted moving averages of the metric (the
    baseline) and of its absolute error from the baseline (the deviation). Once the first
    ``warmup`` observations have trained it, an observation strictly above :meth:`upper_limit`
    is an anomaly: it is flagged and, so that an attack does not teach the detector that
    attacks are normal, left out of the baseline and deviation. Flagged observations stay
    until :meth:`acknowledge`; :meth:`alert_level` grades how many are pending.

    >>> detector = AnomalyDetector(alpha=0.5, threshold=2.0, warmup=3)
    >>> detector.observe_many([10, 12, 10, 12.5])
    0
    >>> detector.baseline(), detector.deviation(), detector.upper_limit()
    (11.5, 1.5, 14.5)
    >>> detector.observe(30), detector.flagged(), detector.alert_level()
    (True, [30.0], 'elevated')
    """

    def __init__(self, alpha: float = 0.25, threshold: float = 3.0, warmup: int = 5,
                 min_deviation: float = 1.0, critical_at: int = 3) -> None:
        """Configure the detector; it starts with no observations.

        :param alpha: weight of the newest observation, ``0 < alpha <= 1``.
        :param threshold: deviations between baseline and upper limit, > 0.
        :param warmup: observations that only train and are never flagged, >= 1.
        :param min_deviation: floor for the deviation in the upper limit, >= 0,
            so that a perfectly flat metric does not flag every rise.
        :param critical_at: pending anomalies that make the alert "critical", >= 1.
        :raises ValueError: "detector setting out of range" for a bad setting.

        >>> AnomalyDetector().anomalies()
        0
        """
        if not (0 < alpha <= 1 and threshold > 0 and warmup >= 1 and min_deviation >= 0 and critical_at >= 1):
            raise ValueError("detector setting out of range")
        self.alpha = alpha
        self.threshold = threshold
        self.warmup = warmup
        self.min_deviation = min_deviation
        self.critical_at = critical_at
        self._count = 0
        self._baseline = 0.0
        self._deviation = 0.0
        self._flagged: list[float] = []

    def observe(self, observation: float) -> bool:
        """Take in the metric's next value and say whether it is anomalous.

        Let ``n`` be the number of observations taken before this one. The first observation
        (``n == 0``) sets the baseline to itself; the deviation starts at 0.0. When
        ``n >= warmup`` the observation is anomalous if it is strictly greater than
        :meth:`upper_limit` (the rounded value); an anomalous observation is appended to
        :meth:`flagged` and changes neither baseline nor deviation. Any other observation, with
        ``error = observation - baseline`` (the baseline before the update), sets
        ``baseline = baseline + alpha * error`` and
        ``deviation = (1 - alpha) * deviation + alpha * abs(error)``, both kept unrounded.
        Every valid observation, anomalous or not, counts towards ``n``.

        :param observation: the metric's value, an ``int`` or ``float``.
        :return: ``True`` if it was flagged as anomalous.
        :raises TypeError: "an observation must be a number, got <value>" if
            it is not an int or float (``bool`` is refused); checked first.
        :raises ValueError: "an observation must be finite, got <value>" for
            NaN or an infinity. Nothing changes when either is raised.

        >>> detector = AnomalyDetector(warmup=1)
        >>> detector.observe(4), detector.observe(7.5), detector.observe(7)
        (False, True, False)
        """
        if isinstance(observation, bool) or not isinstance(observation, (int, float)):
            raise TypeError(f"an observation must be a number, got {observation!r}")
        if not math.isfinite(observation):
            raise ValueError(f"an observation must be finite, got {observation!r}")
        anomalous = self._count >= self.warmup and observation > self.upper_limit()
        if anomalous:
            self._flagged.append(float(observation))
        elif self._count == 0:
            self._baseline = float(observation)
        else:
            error = observation - self._baseline
            self._baseline += self.alpha * error
            self._deviation = (1 - self.alpha) * self._deviation + self.alpha * abs(error)
        self._count += 1
        return anomalous

    def observe_many(self, observations: list[float]) -> int:
        """Observe each value in order, as :meth:`observe` does.

        :param observations: the metric's next values, oldest first.
        :return: how many of them were flagged as anomalous.
        :raises TypeError: as :meth:`observe`; earlier values stay observed.
        :raises ValueError: as :meth:`observe`; earlier values stay observed.

        >>> AnomalyDetector(warmup=2).observe_many([5, 5, 9, 5])
        1
        """
        return sum(1 for observation in observations if self.observe(observation))

    def baseline(self) -> float:
        """Return the expected value of the metric.

        :return: the baseline rounded with ``round(baseline, 4)``.
        :raises ValueError: "no observations yet" before the first observation.

        >>> detector = AnomalyDetector(alpha=0.5); _ = detector.observe_many([8, 10]); detector.baseline()
        9.0
        """
        if self._count == 0:
            raise ValueError("no observations yet")
        return round(self._baseline, 4)

    def deviation(self) -> float:
        """Return the typical absolute distance of the metric from the baseline.

        :return: the deviation rounded with ``round(deviation, 4)``.
        :raises ValueError: "no observations yet" before the first observation.

        >>> detector = AnomalyDetector(alpha=0.5); _ = detector.observe_many([8, 10]); detector.deviation()
        1.0
        """
        if self._count == 0:
            raise ValueError("no observations yet")
        return round(self._deviation, 4)

    def upper_limit(self) -> float:
        """Return the value above which an armed detector flags an observation.

        :return: ``round(baseline() + threshold * max(deviation(), min_deviation), 4)``,
            from the rounded :meth:`baseline` and :meth:`deviation`.
        :raises ValueError: "no observations yet" before the first observation.

        >>> detector = AnomalyDetector(threshold=3.0); _ = detector.observe(20); detector.upper_limit()
        23.0
        """
        spread = max(self.deviation(), self.min_deviation)
        return round(self.baseline() + self.threshold * spread, 4)

    def flagged(self) -> list[float]:
        """Return the anomalous observations not yet acknowledged, oldest first.

        :return: a copy of them, as floats; ``[]`` when there are none.

        >>> detector = AnomalyDetector(warmup=1); _ = detector.observe_many([3, 9, 8]); detector.flagged()
        [9.0, 8.0]
        """
        return list(self._flagged)

    def anomalies(self) -> int:
        """Return how many anomalies are pending (flagged, not yet acknowledged).

        :return: the number of entries in :meth:`flagged`.

        >>> detector = AnomalyDetector(warmup=1); _ = detector.observe_many([3, 9, 8]); detector.anomalies()
        2
        """
        return len(self._flagged)

    def alert_level(self) -> str:
        """Grade the detector's state for a dashboard.

        :return: "learning" while fewer than ``warmup`` observations have
            been taken; otherwise by :meth:`anomalies`: "normal" for none,
            "elevated" for 1 up to ``critical_at - 1``, "critical" from
            ``critical_at`` on.

        >>> detector = AnomalyDetector(warmup=2, critical_at=2)
        >>> _ = detector.observe(5); detector.alert_level()
        'learning'
        >>> _ = detector.observe_many([5, 50, 60]); detector.alert_level()
        'critical'
        """
        if self._count < self.warmup:
            return "learning"
        pending = self.anomalies()
        if pending == 0:
            return "normal"
        return "critical" if pending >= self.critical_at else "elevated"

    def acknowledge(self) -> int:
        """Mark every pending anomaly as handled and clear :meth:`flagged`.

        The baseline, deviation and observation count are kept.

        :return: how many anomalies were cleared (0 when none were pending).

        >>> detector = AnomalyDetector(warmup=1); _ = detector.observe_many([3, 9]); detector.acknowledge()
        1
        >>> detector.alert_level()
        'normal'
        """
        cleared = self.anomalies()
        self._flagged.clear()
        return cleared
