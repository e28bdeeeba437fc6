"""Price history of one instrument with moving-average alerts and risk figures."""

import math


class PriceTracker:
    """Record the observed prices of one instrument and derive trading signals from them.

    Prices are kept in the order they were observed. The moving average covers the
    last ``window`` prices; a new price raises an alert when it lies more than the
    alert threshold (a percentage) away from the moving average of the prices before
    it. Volatility and drawdown describe the whole history.

    >>> tracker = PriceTracker(window=3, alert_pct=10.0)
    >>> tracker.record_many([100.0, 102.0, 98.0, 120.0])
    1
    >>> tracker.moving_average(), tracker.drawdown(), tracker.alerts()
    (106.666667, 0.039216, 1)
    """

    def __init__(self, window: int = 5, alert_pct: float = 5.0) -> None:
        """Create a tracker with no prices and no alerts.

        :param window: how many of the latest prices the moving average covers.
        :param alert_pct: the alert threshold, a percentage of the moving average.
        :raises ValueError: if ``window`` is below 1 or ``alert_pct`` is not positive.

        >>> PriceTracker().alerts()
        0
        """
        if window < 1:
            raise ValueError(f"window must be at least 1, got {window}")
        if alert_pct <= 0:
            raise ValueError(f"alert_pct must be positive, got {alert_pct}")
        self.window = window
        self._alert_pct = alert_pct
        self._prices: list[float] = []
        self._alerts = 0

    def _checked(self, reading: float) -> float:
        """Validate one price and return it as a float.

        :param reading: an observed price.
        :return: ``float(reading)``.
        :raises TypeError: if ``reading`` is not an ``int`` or ``float`` (``bool`` included).
        :raises ValueError: if ``reading`` is zero, negative, NaN or infinite.

        >>> PriceTracker()._checked(3)
        3.0
        """
        if isinstance(reading, bool) or not isinstance(reading, (int, float)):
            raise TypeError(f"price must be a number, got {reading!r}")
        if not math.isfinite(reading) or reading <= 0:
            raise ValueError(f"price must be a finite positive number, got {reading!r}")
        return float(reading)

    def record(self, reading: float) -> bool:
        """Record the next observed price and check it against the moving average.

        When prices were recorded before, ``average`` is :meth:`moving_average` as it
        returns it just before this price is added (so rounded), and the price raises
        an alert when ``abs(reading - average) * 100 > alert_pct * average``. The first
        price never raises one. The price is then added to the history.

        :param reading: the observed price, a positive number.
        :return: ``True`` if this price raised an alert, else ``False``.
        :raises TypeError: if ``reading`` is not a number; nothing is recorded.
        :raises ValueError: if ``reading`` is not a finite positive number; nothing is recorded.

        >>> tracker = PriceTracker(alert_pct=5.0)
        >>> tracker.record(100.0), tracker.record(105.0), tracker.record(96.0)
        (False, False, True)
        """
        price = self._checked(reading)
        alert = False
        if self._prices:
            average = self.moving_average()
            alert = abs(price - average) * 100 > self._alert_pct * average
        if alert:
            self._alerts += 1
        self._prices.append(price)
        return alert

    def record_many(self, readings: list[float]) -> int:
        """Record several prices in order, all or none.

        Every price is validated before any is recorded, so an invalid one leaves the
        tracker unchanged. Each price is checked against the moving average of the
        prices before it, including the earlier ones of ``readings``.

        :param readings: observed prices, oldest first (may be empty).
        :return: how many of them raised an alert.
        :raises TypeError: if an element is not a number.
        :raises ValueError: if an element is not a finite positive number.

        >>> PriceTracker(window=1, alert_pct=1.0).record_many([10.0, 10.0, 11.0, 10.0])
        2
        """
        for reading in readings:
            self._checked(reading)
        return sum(1 for reading in readings if self.record(reading))

    def set_alert_threshold(self, pct: float) -> float:
        """Change the alert threshold for prices recorded from now on.

        Alerts counted before are kept.

        :param pct: the new threshold, a positive percentage.
        :return: the previous threshold.
        :raises ValueError: if ``pct`` is not positive.

        >>> tracker = PriceTracker(alert_pct=5.0)
        >>> tracker.set_alert_threshold(2.5)
        5.0
        """
        if pct <= 0:
            raise ValueError(f"alert threshold must be positive, got {pct}")
        previous = self._alert_pct
        self._alert_pct = pct
        return previous

    def alerts(self) -> int:
        """Return how many recorded prices raised an alert so far.

        >>> tracker = PriceTracker(alert_pct=5.0)
        >>> _ = tracker.record_many([50.0, 60.0])
        >>> tracker.alerts()
        1
        """
        return self._alerts

    def last(self) -> float:
        """Return the most recently recorded price.

        :raises ValueError: if no price was recorded.

        >>> tracker = PriceTracker()
        >>> _ = tracker.record_many([4.0, 5])
        >>> tracker.last()
        5.0
        """
        if not self._prices:
            raise ValueError("no price recorded")
        return self._prices[-1]

    def moving_average(self) -> float:
        """Return the mean of the last ``window`` prices (of all, when fewer were recorded).

        :return: ``round(sum(prices) / len(prices), 6)`` over those prices.
        :raises ValueError: if no price was recorded.

        >>> tracker = PriceTracker(window=2)
        >>> _ = tracker.record_many([1.0, 2.0, 4.0])
        >>> tracker.moving_average()
        3.0
        """
        if not self._prices:
            raise ValueError("moving average of no prices")
        recent = self._prices[-self.window:]
        return round(sum(recent) / len(recent), 6)

    def volatility(self) -> float:
        """Return the volatility of the whole history: the population standard deviation
        of its simple returns.

        The returns are ``prices[i] / prices[i - 1] - 1`` for each consecutive pair;
        with ``m`` their mean, the result is
        ``round(math.sqrt(sum((r - m) ** 2 for r in returns) / len(returns)), 6)``.

        :return: the volatility as a fraction (0.1 is 10%).
        :raises ValueError: if fewer than 2 prices were recorded.

        >>> tracker = PriceTracker()
        >>> _ = tracker.record_many([100.0, 110.0, 99.0])
        >>> tracker.volatility()
        0.1
        """
        if len(self._prices) < 2:
            raise ValueError("volatility needs at least 2 prices")
        returns = [after / before - 1 for before, after in zip(self._prices, self._prices[1:])]
        mean = sum(returns) / len(returns)
        return round(math.sqrt(sum((r - mean) ** 2 for r in returns) / len(returns)), 6)

    def drawdown(self) -> float:
        """Return the largest peak-to-trough fall of the whole history.

        For each price, its fall is ``(peak - price) / peak`` where ``peak`` is the
        highest price recorded up to and including it; the result is the largest fall,
        rounded to 6 decimal places (0.0 when the price never fell below a peak).

        :return: the maximum drawdown as a fraction of the peak (0.25 is 25%).
        :raises ValueError: if no price was recorded.

        >>> tracker = PriceTracker()
        >>> _ = tracker.record_many([100.0, 80.0, 120.0, 90.0, 130.0])
        >>> tracker.drawdown()
        0.25
        """
        if not self._prices:
            raise ValueError("drawdown of no prices")
        peak, deepest = self._prices[0], 0.0
        for price in self._prices:
            peak = max(peak, price)
            deepest = max(deepest, (peak - price) / peak)
        return round(deepest, 6)
