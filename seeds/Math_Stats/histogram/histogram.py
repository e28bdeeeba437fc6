"""An equal-width histogram with outlier counters and quantile estimates."""


class Histogram:
    """Count values into equal-width bins over ``[low, high]``.

    Bin ``i`` covers ``[low + i*width, low + (i+1)*width)``; the last bin
    also includes ``high`` itself.  Values below ``low`` or above ``high``
    are counted as underflow or overflow instead of being dropped.
    :meth:`rebin` merges neighbouring bins, after which every method works
    with the coarser layout.

    >>> h = Histogram(0.0, 10.0, 5)
    >>> h.add_all([0.5, 1.5, 2.5, 2.7, 9.9, 12.0])
    5
    >>> h.counts()
    [2, 2, 0, 0, 1]
    >>> h.outliers()
    (0, 1)
    >>> h.mode_bin()
    (0.0, 2.0)
    """

    def __init__(self, low: float, high: float, bins: int) -> None:
        """Create an empty histogram.

        :param low: lower edge of the first bin.
        :param high: upper edge of the last bin, greater than ``low``.
        :param bins: number of bins, at least 1.
        :raises ValueError: if ``high <= low`` or ``bins < 1``.

        >>> Histogram(0, 1, 4).counts()
        [0, 0, 0, 0]
        """
        if high <= low:
            raise ValueError(f"high ({high}) must exceed low ({low})")
        if bins < 1:
            raise ValueError(f"need at least one bin, got {bins}")
        self._low = float(low)
        self._high = float(high)
        self._width = (self._high - self._low) / bins
        self._counts = [0] * bins
        self._underflow = 0
        self._overflow = 0

    def bin_index(self, value: float) -> int:
        """Return the bin a value falls into.

        :param value: the value to place.
        :return: ``0 .. bins-1`` for values in range, ``-1`` below ``low``,
            ``bins`` above ``high``.

        >>> h = Histogram(0, 10, 5)
        >>> h.bin_index(3.9), h.bin_index(10), h.bin_index(-1), h.bin_index(11)
        (1, 4, -1, 5)
        """
        if value < self._low:
            return -1
        if value > self._high:
            return len(self._counts)
        return min(int((value - self._low) / self._width), len(self._counts) - 1)

    def add(self, value: float) -> int:
        """Count one value.

        :param value: the value to count.
        :return: the bin index used (see :meth:`bin_index`).

        >>> h = Histogram(0, 10, 5)
        >>> h.add(4.0), h.counts()
        (2, [0, 0, 1, 0, 0])
        """
        index = self.bin_index(value)
        if index < 0:
            self._underflow += 1
        elif index >= len(self._counts):
            self._overflow += 1
        else:
            self._counts[index] += 1
        return index

    def add_all(self, values: list[float]) -> int:
        """Count every value of ``values``.

        :param values: values to count.
        :return: how many of them landed inside the range.

        >>> Histogram(0, 1, 2).add_all([0.1, 0.9, 5.0])
        2
        """
        inside = 0
        for value in values:
            if 0 <= self.add(value) < len(self._counts):
                inside += 1
        return inside

    def counts(self) -> list[int]:
        """Return the per-bin counts.

        :return: a copy of the counts, lowest bin first.

        >>> h = Histogram(0, 2, 2); _ = h.add(1.5)
        >>> h.counts()
        [0, 1]
        """
        return list(self._counts)

    def outliers(self) -> tuple[int, int]:
        """Return how many values fell outside the range.

        :return: ``(underflow, overflow)``.

        >>> h = Histogram(0, 1, 1); _ = h.add_all([-1, -2, 3])
        >>> h.outliers()
        (2, 1)
        """
        return (self._underflow, self._overflow)

    def bin_edges(self, index: int) -> tuple[float, float]:
        """Return the lower and upper edge of a bin.

        :param index: a bin number, ``0 <= index < bins``.
        :return: ``(lower, upper)``.
        :raises IndexError: if ``index`` is out of range.

        >>> Histogram(0, 10, 4).bin_edges(1)
        (2.5, 5.0)
        """
        if not 0 <= index < len(self._counts):
            raise IndexError(f"bin {index} out of range 0..{len(self._counts) - 1}")
        lower = self._low + index * self._width
        upper = self._high if index == len(self._counts) - 1 else lower + self._width
        return (lower, upper)

    def mode_bin(self) -> tuple[float, float]:
        """Return the edges of the fullest bin (the lowest one on ties).

        :return: ``(lower, upper)`` of the modal bin.
        :raises ValueError: if no value has been counted inside the range.

        >>> h = Histogram(0, 3, 3); _ = h.add_all([1.2, 1.4, 2.5])
        >>> h.mode_bin()
        (1.0, 2.0)
        """
        if sum(self._counts) == 0:
            raise ValueError("mode of an empty histogram")
        best = max(range(len(self._counts)), key=lambda i: (self._counts[i], -i))
        return self.bin_edges(best)

    def quantile(self, q: float) -> float:
        """Estimate a quantile of the in-range values.

        Values are assumed to be spread evenly within each bin, so the
        estimate interpolates linearly inside the bin holding the quantile.

        :param q: the probability, ``0 <= q <= 1``.
        :return: the estimated ``q``-quantile.
        :raises ValueError: if ``q`` is outside ``[0, 1]`` or the histogram is empty.

        >>> h = Histogram(0, 10, 2); _ = h.add_all([1, 2, 6, 7])
        >>> h.quantile(0.5), h.quantile(0.75)
        (5.0, 7.5)
        """
        if not 0 <= q <= 1:
            raise ValueError(f"q must lie in [0, 1], got {q}")
        total = sum(self._counts)
        if total == 0:
            raise ValueError("quantile of an empty histogram")
        target = q * total
        seen = 0
        for index, count in enumerate(self._counts):
            if count and seen + count >= target:
                break  # always reached: target <= total
            seen += count
        lower, upper = self.bin_edges(index)
        return lower + (upper - lower) * (target - seen) / count

    def rebin(self, factor: int) -> None:
        """Merge every ``factor`` neighbouring bins into one.

        :param factor: group size, at least 1, dividing the number of bins.
        :raises ValueError: if ``factor < 1`` or it does not divide the bin count.

        >>> h = Histogram(0, 4, 4); _ = h.add_all([0.5, 1.5, 2.5, 3.5])
        >>> h.rebin(2); h.counts(), h.bin_edges(1)
        ([2, 2], (2.0, 4.0))
        """
        if factor < 1 or len(self._counts) % factor:
            raise ValueError(f"cannot merge {len(self._counts)} bins in groups of {factor}")
        self._counts = [
            sum(self._counts[start:start + factor]) for start in range(0, len(self._counts), factor)
        ]
        self._width *= factor
