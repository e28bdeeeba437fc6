class CourseResults:
    """A course's gradebook with a histogram of its final grades.

    Each student collects marks (0 to 100); finalising a student computes their final grade, the rounded
    mean of their marks, and counts it in the histogram's band of ten (0-9, 10-19, ..., 90-100).
    """

    def __init__(self):
        """Start with no students and an empty histogram."""
        self.marks = {}
        self.finished = set()
        self.bands = [0] * 10

    def add_mark(self, student, mark):
        """Add `mark` to `student`'s marks.

        :raises ValueError: if `mark` is outside 0..100 or `student` is already finalised; the marks are
            then left unchanged.
        """
        if not 0 <= mark <= 100 or student in self.finished:
            raise ValueError(student)
        self.marks.setdefault(student, []).append(mark)

    def marks_of(self, student):
        """Return `student`'s marks in the order they were added."""
        return list(self.marks.get(student, []))

    def _final_grade(self, student):
        marks = self.marks.get(student)
        if not marks:
            raise LookupError(student)
        return round(sum(marks) / len(marks))

    def finalise(self, student):
        """Close `student`'s marks, count their final grade in the histogram and return it.

        :raises LookupError: if `student` has no marks.
        :raises ValueError: if `student` is already finalised; nothing is counted then.
        """
        if student in self.finished:
            raise ValueError(student)
        grade = self._final_grade(student)
        self._count(grade)
        self.finished.add(student)
        return grade

    def _count(self, grade):
        self.bands[min(grade // 10, 9)] += 1

    def band_count(self, low):
        """Return how many final grades fall in the band starting at `low` (0, 10, ..., 90).

        :raises IndexError: if `low` starts no band.
        """
        if low % 10 or not 0 <= low <= 90:
            raise IndexError(low)
        return self.bands[low // 10]

    def counted(self):
        """Return how many final grades the histogram holds."""
        return sum(self.bands)
