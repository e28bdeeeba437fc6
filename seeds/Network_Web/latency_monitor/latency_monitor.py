"""Service-level objective tracking for request latencies."""

import math


class LatencyMonitor:
    """Track request latencies of one service against a latency objective (SLO).

    A request is good when its latency is at most ``slo_ms`` milliseconds and bad
    otherwise. Percentiles, the mean and the breach count describe a sliding window
    of the last ``window_size`` latencies; the error budget describes every latency
    recorded since the monitor was created, and clearing the window leaves it alone.

    >>> monitor = LatencyMonitor(200.0, window_size=4, objective=0.5)
    >>> monitor.record_many([120.0, 80.0, 250.0, 90.0])
    1
    >>> monitor.p95(), monitor.breaches(), monitor.error_budget_left()
    (250.0, 1, 0.5)
    """

    def __init__(self, slo_ms: float, window_size: int = 100, objective: float = 0.99) -> None:
        """Create a monitor with an empty window.

        :param slo_ms: the latency a good request may take at most, in milliseconds.
        :param window_size: how many of the latest latencies the window keeps.
        :param objective: the fraction of requests that must be good, strictly between 0 and 1.
        :raises ValueError: if ``slo_ms`` is not positive, ``window_size`` is below 1 or
            ``objective`` is not strictly between 0 and 1.

        >>> LatencyMonitor(100.0).breaches()
        0
        """
        if slo_ms <= 0:
            raise ValueError(f"slo_ms must be positive, got {slo_ms}")
        if window_size < 1:
            raise ValueError(f"window_size must be at least 1, got {window_size}")
        if not 0.0 < objective < 1.0:
            raise ValueError(f"objective must be strictly between 0 and 1, got {objective}")
        self.slo_ms = slo_ms
        self.window_size = window_size
        self.objective = objective
        self._window: list[float] = []
        self._total = 0
        self._bad = 0

    def _checked(self, sample: float) -> float:
        """Validate one latency and return it as a float.

        :param sample: a latency in milliseconds.
        :return: ``float(sample)``.
        :raises TypeError: if ``sample`` is not an ``int`` or ``float`` (``bool`` included).
        :raises ValueError: if ``sample`` is negative, NaN or infinite.

        >>> LatencyMonitor(100.0)._checked(7)
        7.0
        """
        if isinstance(sample, bool) or not isinstance(sample, (int, float)):
            raise TypeError(f"latency must be a number, got {sample!r}")
        if not math.isfinite(sample) or sample < 0:
            raise ValueError(f"latency must be a finite non-negative number, got {sample!r}")
        return float(sample)

    def record(self, sample: float) -> bool:
        """Record the latency of one request.

        The latency joins the end of the window; when the window then holds more than
        ``window_size`` latencies, the oldest one leaves it. The request also counts
        towards the error budget, as a bad request when ``sample > slo_ms``.

        :param sample: the request's latency in milliseconds, a non-negative number.
        :return: ``True`` if the request was good (``sample <= slo_ms``), else ``False``.
        :raises TypeError: if ``sample`` is not a number; nothing is recorded.
        :raises ValueError: if ``sample`` is negative, NaN or infinite; nothing is recorded.

        >>> monitor = LatencyMonitor(100.0)
        >>> monitor.record(100.0), monitor.record(100.5)
        (True, False)
        """
        value = self._checked(sample)
        self._window.append(value)
        if len(self._window) > self.window_size:
            del self._window[0]
        self._total += 1
        good = value <= self.slo_ms
        if not good:
            self._bad += 1
        return good

    def record_many(self, samples: list[float]) -> int:
        """Record several latencies in order, all or none.

        Every latency is validated before any is recorded, so an invalid one leaves
        the monitor unchanged.

        :param samples: latencies in milliseconds, oldest first (may be empty).
        :return: how many of them were bad (above ``slo_ms``).
        :raises TypeError: if an element is not a number.
        :raises ValueError: if an element is negative, NaN or infinite.

        >>> LatencyMonitor(50.0).record_many([10.0, 60.0, 75.0])
        2
        """
        for sample in samples:
            self._checked(sample)
        return sum(1 for sample in samples if not self.record(sample))

    def percentile(self, q: float) -> float:
        """Return the ``q``-th percentile of the window by the nearest-rank method.

        With the window's ``n`` latencies sorted ascending, the result is the one at
        1-based rank ``math.ceil(q * n / 100)`` (computed in that order).

        :param q: the percentile, with ``0 < q <= 100``.
        :return: a latency of the window, in milliseconds.
        :raises ValueError: if ``q`` is out of range or the window is empty.

        >>> monitor = LatencyMonitor(100.0)
        >>> _ = monitor.record_many([40.0, 10.0, 30.0, 20.0])
        >>> monitor.percentile(50), monitor.percentile(51), monitor.percentile(100)
        (20.0, 30.0, 40.0)
        """
        if not 0 < q <= 100:
            raise ValueError(f"percentile must satisfy 0 < q <= 100, got {q}")
        if not self._window:
            raise ValueError("percentile of an empty window")
        ordered = sorted(self._window)
        return ordered[math.ceil(q * len(ordered) / 100) - 1]

    def p95(self) -> float:
        """Return the 95th percentile of the window (``percentile(95)``).

        :return: a latency of the window, in milliseconds.
        :raises ValueError: if the window is empty.

        >>> monitor = LatencyMonitor(100.0)
        >>> _ = monitor.record_many([5.0] * 19 + [90.0])
        >>> monitor.p95()
        5.0
        """
        return self.percentile(95)

    def breaches(self) -> int:
        """Count the latencies in the window that are above ``slo_ms``.

        :return: the number of bad requests in the window (0 when it is empty).

        >>> monitor = LatencyMonitor(100.0, window_size=2)
        >>> _ = monitor.record_many([150.0, 120.0, 80.0])
        >>> monitor.breaches()
        1
        """
        return sum(1 for latency in self._window if latency > self.slo_ms)

    def error_budget_left(self) -> float:
        """Return the fraction of the error budget not yet spent, over every recorded request.

        With ``total`` requests recorded since creation, ``bad`` of them bad, the budget
        allows ``(1 - objective) * total`` bad requests, and the result is
        ``round(1 - bad / ((1 - objective) * total), 6)``: 1.0 when nothing was spent,
        0.0 when the budget is exactly used up, negative when it is overspent.

        :return: the fraction left; 1.0 when no request was recorded yet.

        >>> monitor = LatencyMonitor(100.0, objective=0.75)
        >>> _ = monitor.record_many([20.0, 30.0, 40.0, 500.0, 50.0, 60.0, 70.0, 80.0])
        >>> monitor.error_budget_left()
        0.5
        """
        if self._total == 0:
            return 1.0
        allowed = (1 - self.objective) * self._total
        return round(1 - self._bad / allowed, 6)

    def reset_window(self) -> int:
        """Empty the window; the error budget keeps every request recorded so far.

        :return: how many latencies the window held.

        >>> monitor = LatencyMonitor(100.0)
        >>> _ = monitor.record_many([1.0, 2.0])
        >>> monitor.reset_window(), monitor.breaches()
        (2, 0)
        """
        dropped = len(self._window)
        self._window.clear()
        return dropped

    def healthy(self) -> bool:
        """Tell whether the service meets its objective now.

        It does when the error budget left is above 0.0 and, if the window is not
        empty, its 95th percentile is at most ``slo_ms``.

        :return: ``True`` when healthy, ``False`` otherwise.

        >>> monitor = LatencyMonitor(100.0, objective=0.5)
        >>> monitor.healthy()
        True
        >>> _ = monitor.record_many([50.0, 300.0])
        >>> monitor.healthy()
        False
        """
        if self.error_budget_left() <= 0.0:
            return False
        return not self._window or self.p95() <= self.slo_ms
