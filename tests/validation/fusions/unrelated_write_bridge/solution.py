class ScoresAndStats:
    """A scorecard and running statistics, with a bridge that records a sample after checking the score.

    `record_checked` looks at the scorecard's total (to make sure a game was played) and records the
    caller's sample; the total itself never reaches the statistics.
    """

    def __init__(self):
        """Start with no points and no samples."""
        self.points = []
        self.samples = []

    def score(self, n):
        """Score `n` points; returns the new total.

        :raises ValueError: if `n` is negative; the points are then left unchanged.
        """
        if n < 0:
            raise ValueError(n)
        self.points.append(n)
        return sum(self.points)

    def total(self):
        """Return the total score."""
        return sum(self.points)

    def add(self, value):
        """Record the sample `value`."""
        self.samples.append(value)

    def mean(self):
        """Return the samples' mean.

        :raises ValueError: if there are no samples.
        """
        if not self.samples:
            raise ValueError("no samples")
        return sum(self.samples) / len(self.samples)

    def record_checked(self, value):
        """Record the sample `value` and return the scorecard's total."""
        played = self.total()
        self.add(value)
        return played
