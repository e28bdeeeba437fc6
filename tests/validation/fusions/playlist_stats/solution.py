class ListeningLog:
    """A playlist that keeps statistics of how long its plays lasted.

    Playing a track records its length, in seconds, as one play; the statistics summarise the plays:
    how many there were, their mean length and the longest.
    """

    def __init__(self):
        """Start with an empty playlist and no plays."""
        self.tracks = {}
        self.order = []
        self.play_lengths = []

    def add_track(self, title, seconds):
        """Append `title`, `seconds` long, to the playlist.

        :raises ValueError: if `title` is already listed or `seconds` is not positive; the playlist is
            then left unchanged.
        """
        if title in self.tracks or seconds <= 0:
            raise ValueError(title)
        self.tracks[title] = seconds
        self.order.append(title)

    def remove_track(self, title):
        """Take `title` off the playlist; its past plays stay in the statistics.

        :raises KeyError: if `title` is not listed.
        """
        del self.tracks[title]
        self.order.remove(title)

    def titles(self):
        """Return the listed titles in the order they were added."""
        return list(self.order)

    def play(self, title):
        """Play `title` and record its length in the statistics; returns the length in seconds.

        :raises KeyError: if `title` is not listed.
        """
        seconds = self.tracks[title]
        self.add_sample(seconds)
        return seconds

    def add_sample(self, seconds):
        """Record one play of `seconds` seconds (a play from outside the playlist, say).

        :raises ValueError: if `seconds` is negative; nothing is recorded then.
        """
        if seconds < 0:
            raise ValueError("negative length")
        self.play_lengths.append(seconds)

    def plays(self):
        """Return how many plays were recorded."""
        return len(self.play_lengths)

    def mean_length(self):
        """Return the mean length of the recorded plays in seconds, or 0.0 when there are none."""
        return sum(self.play_lengths) / len(self.play_lengths) if self.play_lengths else 0.0

    def longest(self):
        """Return the longest recorded play in seconds, or 0 when there are none."""
        return max(self.play_lengths, default=0)
