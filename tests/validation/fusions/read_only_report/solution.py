class GradesAndBands:
    """A gradebook and a histogram of bands, with a report that reads both.

    The report gives a student's mean mark beside the histogram's count; nothing is ever counted in the
    histogram from the gradebook.
    """

    def __init__(self):
        """Start with no marks and an empty histogram."""
        self.marks = {}
        self.bins = [0] * 10

    def add_mark(self, student, mark):
        """Add `mark` (0..100) to `student`'s marks.

        :raises ValueError: if `mark` is out of range; the marks are then left unchanged.
        """
        if not 0 <= mark <= 100:
            raise ValueError(mark)
        self.marks.setdefault(student, []).append(mark)

    def mean_mark(self, student):
        """Return `student`'s mean mark.

        :raises KeyError: if `student` has no marks.
        """
        marks = self.marks[student]
        return sum(marks) / len(marks)

    def count(self, value):
        """Count `value` (0..100) in its band of ten.

        :raises ValueError: if `value` is out of range; the histogram is then left unchanged.
        """
        if not 0 <= value <= 100:
            raise ValueError(value)
        self.bins[min(int(value) // 10, 9)] += 1

    def counted(self):
        """Return how many values the histogram counted."""
        return sum(self.bins)

    def report(self, student):
        """Return ``(mean mark of student, values counted)``.

        :raises KeyError: if `student` has no marks.
        """
        return self.mean_mark(student), self.counted()
