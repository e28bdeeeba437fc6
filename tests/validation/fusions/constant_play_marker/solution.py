class PlaylistWithStats:
    """A playlist and statistics of samples, linked by a play marker.

    Marking a play records a sample of 1.0 in the statistics, whatever was played.
    """

    def __init__(self):
        """Start with an empty playlist and no samples."""
        self.tracks = {}
        self.samples = []

    def add_track(self, title, seconds):
        """Add `title`, `seconds` long.

        :raises ValueError: if `title` is listed or `seconds` is not positive; the playlist is then left
            unchanged.
        """
        if title in self.tracks or seconds <= 0:
            raise ValueError(title)
        self.tracks[title] = seconds

    def length(self):
        """Return the playlist's total length in seconds."""
        return sum(self.tracks.values())

    def remove_track(self, title):
        """Remove `title`.

        :raises KeyError: if `title` is not listed.
        """
        del self.tracks[title]

    def mark_play(self):
        """Record a play marker: a sample of 1.0."""
        self.samples.append(1.0)

    def add_sample(self, value):
        """Record the sample `value`."""
        self.samples.append(value)

    def count(self):
        """Return how many samples were recorded."""
        return len(self.samples)

    def mean(self):
        """Return the samples' mean, or 0.0 when there are none."""
        return sum(self.samples) / len(self.samples) if self.samples else 0.0
