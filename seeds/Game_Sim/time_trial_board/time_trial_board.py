"""A player's board for one time-trial track: finishing times, medals and personal bests."""

import math

TIERS = ("gold", "silver", "bronze")


class TimeTrialBoard:
    """Record one player's finishing times on one track and rank them.

    Times are in seconds; lower is better. The track sets three medal
    times: a run earns gold when its time is at most the gold time, else
    silver when at most the silver time, else bronze when at most the
    bronze time, else no medal ("none"). Every query reads the runs kept
    on the board, in the order they were recorded; :meth:`discard_worst`
    removes a run, so medals, averages and personal bests are recomputed
    from what remains.

    >>> board = TimeTrialBoard(60.0, 65.0, 70.0)
    >>> board.record(68.5), board.record(59.25), board.record(64.0)
    ('bronze', 'gold', 'silver')
    >>> board.best(), board.medal_count("silver"), board.improvement()
    (59.25, 2, 9.25)
    """

    def __init__(self, gold: float, silver: float, bronze: float) -> None:
        """Configure the track's medal times and start with no runs.

        :param gold: the time (seconds) at or under which a run earns gold.
        :param silver: the silver time.
        :param bronze: the bronze time.
        :raises ValueError: "medal times must satisfy 0 < gold < silver < bronze"
            unless that holds.

        >>> TimeTrialBoard(30, 40, 50).history()
        []
        """
        if not 0 < gold < silver < bronze:
            raise ValueError("medal times must satisfy 0 < gold < silver < bronze")
        self.limits = {"gold": gold, "silver": silver, "bronze": bronze}
        self._runs: list[float] = []

    def _medal(self, value: float) -> str:
        """Name the medal a finishing time earns on this track.

        :param value: a finishing time in seconds.
        :return: "gold", "silver", "bronze" or "none"; each bound is inclusive.

        >>> TimeTrialBoard(60, 65, 70)._medal(65)
        'silver'
        """
        for tier in TIERS:
            if value <= self.limits[tier]:
                return tier
        return "none"

    def record(self, value: float) -> str:
        """Add a finishing time as the newest run.

        :param value: the time in seconds, an ``int`` or ``float``; it is
            stored as a ``float``.
        :return: the medal the run earns (see :meth:`_medal`).
        :raises TypeError: "a finishing time must be a number, got <value>" if
            ``value`` is not an int or float (a ``bool`` is refused too);
            nothing is recorded.
        :raises ValueError: "a finishing time must be finite and positive, got
            <value>" if ``value`` is not finite or not greater than 0; nothing
            is recorded. The type is checked first.

        >>> TimeTrialBoard(60, 65, 70).record(71)
        'none'
        """
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"a finishing time must be a number, got {value!r}")
        if not math.isfinite(value) or value <= 0:
            raise ValueError(f"a finishing time must be finite and positive, got {value!r}")
        self._runs.append(float(value))
        return self._medal(value)

    def history(self) -> list[float]:
        """Return the runs on the board, oldest first (a copy).

        :return: the recorded times; ``[]`` when there are none.

        >>> board = TimeTrialBoard(60, 65, 70); _ = board.record(66); _ = board.record(61)
        >>> board.history()
        [66.0, 61.0]
        """
        return list(self._runs)

    def best(self) -> float:
        """Return the personal best: the fastest time on the board.

        :return: the smallest recorded time.
        :raises ValueError: "no runs recorded" if the board has no runs.

        >>> board = TimeTrialBoard(60, 65, 70); _ = board.record(66); _ = board.record(61)
        >>> board.best()
        61.0
        """
        if not self._runs:
            raise ValueError("no runs recorded")
        return min(self._runs)

    def personal_bests(self) -> list[float]:
        """Return the personal-best progression, oldest first.

        The first run on the board is a personal best, and so is every later
        run strictly faster than all runs before it (an equal time is not).

        :return: those times in recording order; ``[]`` when there are no runs.

        >>> board = TimeTrialBoard(60, 65, 70)
        >>> for t in (66, 67, 63, 63, 61): _ = board.record(t)
        >>> board.personal_bests()
        [66.0, 63.0, 61.0]
        """
        progression: list[float] = []
        for time in self._runs:
            if not progression or time < progression[-1]:
                progression.append(time)
        return progression

    def medal_count(self, tier: str = "bronze") -> int:
        """Count the runs on the board that earn ``tier`` or a better medal.

        :param tier: "gold", "silver" or "bronze"; "bronze" counts every
            medal-winning run, "silver" counts silver and gold runs.
        :return: the number of such runs (0 when there are none).
        :raises ValueError: if ``tier`` is not one of the three medals, with
            "unknown medal (expected gold, silver or bronze): <tier>".

        >>> board = TimeTrialBoard(60, 65, 70)
        >>> for t in (58, 64, 69, 75): _ = board.record(t)
        >>> board.medal_count(), board.medal_count("silver"), board.medal_count("gold")
        (3, 2, 1)
        """
        if tier not in TIERS:
            raise ValueError(f"unknown medal (expected gold, silver or bronze): {tier!r}")
        accepted = TIERS[: TIERS.index(tier) + 1]
        return sum(1 for time in self._runs if self._medal(time) in accepted)

    def average_of(self, n: int = 5) -> float:
        """Return the trimmed average of the ``n`` most recent runs.

        Of the last ``n`` runs on the board, one fastest and one slowest run
        are dropped and the other ``n - 2`` are averaged (arithmetic mean).

        :param n: how many recent runs to take, at least 3.
        :return: the mean, rounded to 3 decimals with ``round(mean, 3)``.
        :raises ValueError: "an average needs at least 3 runs, got n=<n>" if
            ``n`` is below 3 (checked first); if the board holds fewer than
            ``n`` runs, "not enough runs on the board for an average of <n>".

        >>> board = TimeTrialBoard(60, 65, 70)
        >>> for t in (90, 62, 61, 64, 70, 63): _ = board.record(t)
        >>> board.average_of(5), board.average_of(3)
        (63.0, 64.0)
        """
        if n < 3:
            raise ValueError(f"an average needs at least 3 runs, got n={n}")
        recent = self.history()[-n:]
        if len(recent) < n:
            raise ValueError(f"not enough runs on the board for an average of {n}")
        middle = sorted(recent)[1:-1]
        return round(sum(middle) / len(middle), 3)

    def improvement(self) -> float:
        """Return how much faster the best run is than the oldest run on the board.

        :return: oldest time minus :meth:`best`, rounded with ``round(x, 3)``;
            0.0 when the oldest run is the best.
        :raises ValueError: "no runs recorded" (from :meth:`best`) if the board
            has no runs.

        >>> board = TimeTrialBoard(60, 65, 70); _ = board.record(66.5); _ = board.record(61.25)
        >>> board.improvement()
        5.25
        """
        best = self.best()
        return round(self._runs[0] - best, 3)

    def discard_worst(self) -> float:
        """Remove the slowest run from the board (a run the player disowns).

        When several runs share the slowest time, the oldest of them goes.

        :return: the removed time.
        :raises ValueError: "no runs to discard" if the board has no runs.

        >>> board = TimeTrialBoard(60, 65, 70); _ = board.record(66); _ = board.record(72)
        >>> board.discard_worst(), board.history()
        (72.0, [66.0])
        """
        if not self._runs:
            raise ValueError("no runs to discard")
        worst = max(self._runs)
        self._runs.remove(worst)
        return worst
