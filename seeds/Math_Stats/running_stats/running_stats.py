"""Numerically stable running statistics over a stream of numbers."""

import math


class RunningStats:
    """Accumulate count, mean, variance and extremes in one pass.

    Values are folded in with Welford's update, so the variance stays
    accurate even for large, nearly equal numbers; :meth:`merge` combines a
    summary from another accumulator (for example one that processed another
    shard of the data) using Chan's pairwise formula.

    >>> stats = RunningStats()
    >>> stats.add_many([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    8
    >>> stats.mean(), stats.stddev(sample=False)
    (5.0, 2.0)
    """

    def __init__(self) -> None:
        """Create an empty accumulator.

        >>> RunningStats().summary()["count"]
        0.0
        """
        self._count = 0
        self._mean = 0.0
        self._m2 = 0.0
        self._min = math.inf
        self._max = -math.inf

    def add(self, value: float) -> None:
        """Fold one value into the statistics.

        :param value: a finite ``int`` or ``float``.
        :raises TypeError: if ``value`` is not a real number (``bool`` included).
        :raises ValueError: if ``value`` is NaN or infinite.

        >>> stats = RunningStats()
        >>> stats.add(3); stats.add(5)
        >>> stats.mean()
        4.0
        """
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"expected a number, got {value!r}")
        if not math.isfinite(value):
            raise ValueError(f"expected a finite number, got {value!r}")
        self._count += 1
        delta = value - self._mean
        self._mean += delta / self._count
        self._m2 += delta * (value - self._mean)
        self._min = min(self._min, value)
        self._max = max(self._max, value)

    def add_many(self, values: list[float]) -> int:
        """Fold every value of ``values`` in, in order.

        :param values: numbers to add.
        :return: the total count after adding them.
        :raises TypeError: if an element is not a number (earlier ones stay added).
        :raises ValueError: if an element is NaN or infinite (earlier ones stay added).

        >>> RunningStats().add_many([1, 2, 3])
        3
        """
        for value in values:
            self.add(value)
        return self._count

    def mean(self) -> float:
        """Return the arithmetic mean.

        :return: the mean of all values seen.
        :raises ValueError: if no value has been added.

        >>> stats = RunningStats(); stats.add(10)
        >>> stats.mean()
        10.0
        """
        if self._count == 0:
            raise ValueError("mean of an empty sample")
        return self._mean

    def variance(self, sample: bool = True) -> float:
        """Return the variance.

        :param sample: ``True`` for the unbiased sample variance (divide by
            n - 1), ``False`` for the population variance (divide by n).
        :return: the variance.
        :raises ValueError: if there are fewer than 2 values (sample) or none (population).

        >>> stats = RunningStats(); _ = stats.add_many([1, 2, 3, 4])
        >>> stats.variance(), stats.variance(sample=False)
        (1.6666666666666667, 1.25)
        """
        needed = 2 if sample else 1
        if self._count < needed:
            raise ValueError(f"variance needs at least {needed} values, have {self._count}")
        return self._m2 / (self._count - 1 if sample else self._count)

    def stddev(self, sample: bool = True) -> float:
        """Return the standard deviation (square root of :meth:`variance`).

        :param sample: as for :meth:`variance`.
        :return: the standard deviation.
        :raises ValueError: as for :meth:`variance`.

        >>> stats = RunningStats(); _ = stats.add_many([1, 3])
        >>> stats.stddev(sample=False)
        1.0
        """
        return math.sqrt(self.variance(sample))

    def z_score(self, value: float) -> float:
        """Express ``value`` in sample standard deviations from the mean.

        :param value: the value to standardise.
        :return: ``(value - mean) / stddev``.
        :raises ValueError: if fewer than 2 values were seen or all were equal.

        >>> stats = RunningStats(); _ = stats.add_many([2, 4, 6])
        >>> stats.z_score(8)
        2.0
        """
        spread = self.stddev()
        if spread == 0.0:
            raise ValueError("z-score undefined: all values are equal")
        return (value - self.mean()) / spread

    def extremes(self) -> tuple[float, float]:
        """Return the smallest and largest value seen.

        :return: ``(minimum, maximum)``.
        :raises ValueError: if no value has been added.

        >>> stats = RunningStats(); _ = stats.add_many([3, -1, 7])
        >>> stats.extremes()
        (-1, 7)
        """
        if self._count == 0:
            raise ValueError("extremes of an empty sample")
        return (self._min, self._max)

    def summary(self) -> dict[str, float]:
        """Export the internal state so another accumulator can :meth:`merge` it.

        :return: ``count``, ``mean``, ``m2`` (sum of squared deviations),
            ``min`` and ``max`` (``inf``/``-inf`` when empty), all as floats.

        >>> stats = RunningStats(); _ = stats.add_many([1, 3])
        >>> stats.summary()
        {'count': 2.0, 'mean': 2.0, 'm2': 2.0, 'min': 1.0, 'max': 3.0}
        """
        return {
            "count": float(self._count),
            "mean": float(self._mean),
            "m2": float(self._m2),
            "min": float(self._min),
            "max": float(self._max),
        }

    def merge(self, summary: dict[str, float]) -> int:
        """Combine with another accumulator's :meth:`summary`.

        The result is the same (up to rounding) as if this accumulator had
        seen the other one's values too.

        :param summary: a mapping with ``count``, ``mean``, ``m2``, ``min``, ``max``.
        :return: the combined count.
        :raises KeyError: if a field is missing.
        :raises ValueError: if ``count`` is negative or not a whole number.

        >>> left = RunningStats(); _ = left.add_many([1, 2])
        >>> right = RunningStats(); _ = right.add_many([3, 4])
        >>> left.merge(right.summary()), left.variance(sample=False)
        (4, 1.25)
        """
        missing = [field for field in ("count", "mean", "m2", "min", "max") if field not in summary]
        if missing:
            raise KeyError(f"summary lacks {', '.join(missing)}")
        other_count = summary["count"]
        if other_count < 0 or other_count != int(other_count):
            raise ValueError(f"count must be a non-negative whole number, got {other_count}")
        other_count = int(other_count)
        if other_count == 0:
            return self._count
        total = self._count + other_count
        delta = summary["mean"] - self._mean
        self._mean += delta * other_count / total
        self._m2 += summary["m2"] + delta * delta * self._count * other_count / total
        self._count = total
        self._min = min(self._min, summary["min"])
        self._max = max(self._max, summary["max"])
        return total
