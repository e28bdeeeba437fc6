class CoursesAndHistogram:
    """A gradebook and a histogram; the caller may count a student's mean in the histogram.

    The class itself never moves a value from one half to the other.
    """

    def __init__(self):
        """Start with no marks and an empty histogram."""
        self.marks = {}
        self.bins = [0] * 10

    def add_mark(self, student, mark):
        """Add `mark` to `student`'s marks."""
        self.marks.setdefault(student, []).append(mark)

    def mean_mark(self, student):
        """Return `student`'s rounded mean mark.

        :raises KeyError: if `student` has no marks.
        """
        marks = self.marks[student]
        return round(sum(marks) / len(marks))

    def count(self, value):
        """Count `value` (0..100) in its band of ten.

        :raises ValueError: if `value` is out of range; the histogram is then left unchanged.
        """
        if not 0 <= value <= 100:
            raise ValueError(value)
        self.bins[min(value // 10, 9)] += 1

    def band_count(self, low):
        """Return how many values fall in the band starting at `low` (0, 10, ..., 90)."""
        return self.bins[low // 10]
