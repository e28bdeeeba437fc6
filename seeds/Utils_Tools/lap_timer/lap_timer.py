"""A stopwatch that splits a run into laps and leaves paused time out of them."""


class LapTimer:
    """Time laps on a caller-given clock in seconds, with pauses.

    ``start`` sets the watch running (or resumes it after ``pause``); ``lap``
    closes the current lap and returns its time, and the next lap begins at
    once. Time spent paused counts towards no lap. Lap times are rounded to
    milliseconds so that clock readings such as ``0.1`` add up as a person
    would expect. Clock readings are 0 or more and never go back until
    ``reset``, which clears the laps and stops the watch.

    >>> watch = LapTimer()
    >>> watch.start(0.0)
    0
    >>> watch.lap(61.5)
    61.5
    >>> watch.pause(70.0)
    8.5
    >>> watch.start(100.0)
    1
    >>> watch.lap(150.0)
    58.5
    >>> watch.best_lap()
    58.5
    """

    def __init__(self) -> None:
        """Create a stopped watch with no laps.

        >>> LapTimer().laps()
        []
        """
        self._laps: list[float] = []
        self._running_since: float | None = None
        self._banked = 0.0
        self._last_reading = 0.0

    def _current(self, now: float) -> float:
        """Return the running time of the current lap at ``now``, paused time left out.

        :param now: a clock reading, not before the latest one.
        :return: the lap's time so far in seconds, rounded to milliseconds.
        :raises ValueError: if the watch is not running or ``now`` goes back.

        >>> watch = LapTimer(); _ = watch.start(2.0)
        >>> watch._current(2.25)
        0.25
        """
        if self._running_since is None:
            raise ValueError("the watch is not running")
        if now < self._last_reading:
            raise ValueError(f"the clock went back: {now}")
        return round(self._banked + now - self._running_since, 3)

    def start(self, now: float) -> int:
        """Set the watch running, or resume it after a pause.

        :param now: a clock reading, not before the latest one.
        :return: the number of laps completed so far.
        :raises ValueError: if the watch is already running or ``now`` goes back.

        >>> LapTimer().start(5.0)
        0
        """
        if self._running_since is not None:
            raise ValueError("the watch is already running")
        if now < self._last_reading:
            raise ValueError(f"the clock went back: {now}")
        self._running_since = now
        self._last_reading = now
        return len(self._laps)

    def pause(self, now: float) -> float:
        """Stop the clock without closing the current lap.

        :param now: a clock reading, not before the latest one.
        :return: the current lap's time so far in seconds.
        :raises ValueError: if the watch is not running or ``now`` goes back.

        >>> watch = LapTimer(); _ = watch.start(0.0)
        >>> watch.pause(3.5)
        3.5
        """
        self._banked = self._current(now)
        self._running_since = None
        self._last_reading = now
        return self._banked

    def lap(self, now: float) -> float:
        """Close the current lap; the next one begins at ``now``.

        :param now: a clock reading, not before the latest one.
        :return: the time of the lap just closed, in seconds.
        :raises ValueError: if the watch is not running or ``now`` goes back.

        >>> watch = LapTimer(); _ = watch.start(1.0)
        >>> watch.lap(1.75)
        0.75
        """
        lap_time = self._current(now)
        self._laps.append(lap_time)
        self._banked = 0.0
        self._running_since = now
        self._last_reading = now
        return lap_time

    def laps(self) -> list[float]:
        """Return the completed lap times, oldest first (a copy).

        >>> watch = LapTimer(); _ = watch.start(0.0); _ = watch.lap(2.0)
        >>> watch.laps()
        [2.0]
        """
        return list(self._laps)

    def best_lap(self) -> float:
        """Return the fastest completed lap.

        :raises ValueError: if no lap has been completed.

        >>> LapTimer().best_lap()
        Traceback (most recent call last):
        ...
        ValueError: no lap completed yet
        """
        if not self._laps:
            raise ValueError("no lap completed yet")
        return min(self._laps)

    def total(self, now: float) -> float:
        """Return the time run so far: every completed lap plus the current one.

        :param now: a clock reading, not before the latest one (ignored while
            the watch is stopped).
        :raises ValueError: if the watch is running and ``now`` goes back.

        >>> watch = LapTimer(); _ = watch.start(0.0); _ = watch.lap(4.0)
        >>> watch.total(5.0)
        5.0
        """
        current = self._banked if self._running_since is None else self._current(now)
        return round(sum(self._laps) + current, 3)

    def reset(self) -> int:
        """Stop the watch and clear every lap; the clock may start again from any reading.

        :return: the number of laps cleared.

        >>> watch = LapTimer(); _ = watch.start(0.0); _ = watch.lap(1.0)
        >>> watch.reset(), watch.laps()
        (1, [])
        """
        cleared = len(self._laps)
        self._laps = []
        self._running_since = None
        self._banked = 0.0
        self._last_reading = 0.0
        return cleared
