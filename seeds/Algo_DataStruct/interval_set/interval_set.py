"""A set of integers represented as disjoint half-open intervals."""

import bisect
import math


class IntervalSet:
    """A set of integers stored as sorted, disjoint, half-open intervals ``[start, end)``.

    Overlapping or touching intervals are merged when they are added, so the
    internal list is always canonical.  Every query (:meth:`contains`,
    :meth:`overlaps`, :meth:`gaps`, :meth:`total_length`, ...) relies on that
    invariant, which :meth:`add` and :meth:`remove` maintain.

    >>> booked = IntervalSet()
    >>> booked.add(9, 12)
    3
    >>> booked.add(11, 14)
    2
    >>> booked.remove(10, 11)
    1
    >>> booked.intervals()
    [(9, 10), (11, 14)]
    >>> booked.gaps(8, 15)
    [(8, 9), (10, 11), (14, 15)]
    """

    def __init__(self) -> None:
        """Create an empty interval set.

        >>> IntervalSet().intervals()
        []
        """
        self._spans: list[tuple[int, int]] = []

    @staticmethod
    def _check_bounds(start: int, end: int) -> None:
        """Validate a half-open interval ``[start, end)``.

        :param start: first integer of the interval.
        :param end: one past the last integer of the interval.
        :raises TypeError: if a bound is not an ``int`` (``bool`` is rejected too).
        :raises ValueError: if ``start >= end`` (empty or reversed interval).

        >>> IntervalSet._check_bounds(1, 2)
        """
        for bound in (start, end):
            if isinstance(bound, bool) or not isinstance(bound, int):
                raise TypeError(f"interval bounds must be int, got {bound!r}")
        if start >= end:
            raise ValueError(f"empty or reversed interval [{start}, {end})")

    def add(self, start: int, end: int) -> int:
        """Add every integer in ``[start, end)`` to the set.

        :param start: first integer to add.
        :param end: one past the last integer to add.
        :return: how many integers were not in the set before.
        :raises TypeError: if a bound is not an ``int``.
        :raises ValueError: if ``start >= end``.

        >>> s = IntervalSet()
        >>> s.add(0, 5), s.add(5, 8), s.intervals()
        (5, 3, [(0, 8)])
        """
        self._check_bounds(start, end)
        before = self.total_length()
        merged: list[tuple[int, int]] = []
        new_start, new_end = start, end
        placed = False
        for span_start, span_end in self._spans:
            if span_end < new_start:
                merged.append((span_start, span_end))
            elif span_start > new_end:
                if not placed:
                    merged.append((new_start, new_end))
                    placed = True
                merged.append((span_start, span_end))
            else:
                new_start = min(new_start, span_start)
                new_end = max(new_end, span_end)
        if not placed:
            merged.append((new_start, new_end))
        self._spans = merged
        return self.total_length() - before

    def remove(self, start: int, end: int) -> int:
        """Remove every integer in ``[start, end)`` from the set.

        Intervals that straddle a bound are split.

        :param start: first integer to remove.
        :param end: one past the last integer to remove.
        :return: how many integers were actually removed.
        :raises TypeError: if a bound is not an ``int``.
        :raises ValueError: if ``start >= end``.

        >>> s = IntervalSet()
        >>> s.add(0, 10)
        10
        >>> s.remove(3, 5), s.intervals()
        (2, [(0, 3), (5, 10)])
        """
        self._check_bounds(start, end)
        before = self.total_length()
        kept: list[tuple[int, int]] = []
        for span_start, span_end in self._spans:
            if span_end <= start or span_start >= end:
                kept.append((span_start, span_end))
                continue
            if span_start < start:
                kept.append((span_start, start))
            if span_end > end:
                kept.append((end, span_end))
        self._spans = kept
        return before - self.total_length()

    def contains(self, value: int) -> bool:
        """Tell whether ``value`` belongs to the set (binary search).

        :param value: the integer to look up.
        :return: ``True`` if some interval covers ``value``.

        >>> s = IntervalSet()
        >>> s.add(2, 4)
        2
        >>> s.contains(3), s.contains(4)
        (True, False)
        """
        index = bisect.bisect_right(self._spans, (value, math.inf)) - 1
        return index >= 0 and self._spans[index][1] > value

    def overlaps(self, start: int, end: int) -> bool:
        """Tell whether ``[start, end)`` shares at least one integer with the set.

        :param start: first integer of the probe interval.
        :param end: one past the last integer of the probe interval.
        :return: ``True`` on any overlap.
        :raises TypeError: if a bound is not an ``int``.
        :raises ValueError: if ``start >= end``.

        >>> s = IntervalSet()
        >>> s.add(10, 20)
        10
        >>> s.overlaps(19, 25), s.overlaps(20, 25)
        (True, False)
        """
        self._check_bounds(start, end)
        return any(span_start < end and start < span_end for span_start, span_end in self._spans)

    def total_length(self) -> int:
        """Count the integers in the set.

        :return: the sum of the interval lengths.

        >>> s = IntervalSet()
        >>> s.add(0, 3), s.add(10, 12)
        (3, 2)
        >>> s.total_length()
        5
        """
        return sum(span_end - span_start for span_start, span_end in self._spans)

    def intervals(self) -> list[tuple[int, int]]:
        """Return the canonical intervals in ascending order.

        :return: a new list of ``(start, end)`` pairs, disjoint and non-touching.

        >>> s = IntervalSet()
        >>> s.add(5, 6), s.add(1, 2)
        (1, 1)
        >>> s.intervals()
        [(1, 2), (5, 6)]
        """
        return list(self._spans)

    def gaps(self, low: int, high: int) -> list[tuple[int, int]]:
        """List the parts of ``[low, high)`` that the set does not cover.

        :param low: start of the window.
        :param high: end of the window (exclusive).
        :return: the uncovered sub-intervals of the window, ascending.
        :raises TypeError: if a bound is not an ``int``.
        :raises ValueError: if ``low >= high``.

        >>> s = IntervalSet()
        >>> s.add(3, 5)
        2
        >>> s.gaps(0, 10)
        [(0, 3), (5, 10)]
        """
        self._check_bounds(low, high)
        result: list[tuple[int, int]] = []
        cursor = low
        for span_start, span_end in self._spans:
            if span_end <= cursor:
                continue
            if span_start >= high:
                break
            if span_start > cursor:
                result.append((cursor, span_start))
            cursor = span_end
            if cursor >= high:
                break
        if cursor < high:
            result.append((cursor, high))
        return result

    def span(self) -> tuple[int, int]:
        """Return the smallest single interval enclosing the whole set.

        :return: ``(first start, last end)``.
        :raises ValueError: if the set is empty.

        >>> s = IntervalSet()
        >>> s.add(4, 6), s.add(20, 21)
        (2, 1)
        >>> s.span()
        (4, 21)
        """
        if not self._spans:
            raise ValueError("span of an empty interval set")
        return (self._spans[0][0], self._spans[-1][1])
