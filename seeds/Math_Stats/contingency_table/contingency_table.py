"""A two-way contingency table with a chi-square test of independence."""

import math


class ContingencyTable:
    """Count paired observations of two categorical variables.

    Cells are stored in a dictionary keyed by ``(row label, column label)``.
    The marginal totals are derived from the cells, the expected counts
    under independence from the totals, and :meth:`chi_square` and
    :meth:`cramers_v` from the expected counts, so all statistics move
    together as observations are recorded or withdrawn.

    >>> table = ContingencyTable(["tea", "coffee"], ["morning", "evening"])
    >>> table.record_pairs([("tea", "morning")] * 30 + [("tea", "evening")] * 10
    ...                    + [("coffee", "morning")] * 20 + [("coffee", "evening")] * 40)
    100
    >>> table.expected("tea", "morning")
    20.0
    >>> round(table.chi_square(), 4)
    16.6667
    """

    def __init__(self, row_labels: list[str], column_labels: list[str]) -> None:
        """Create an all-zero table.

        :param row_labels: distinct labels of the row variable, at least two.
        :param column_labels: distinct labels of the column variable, at least two.
        :raises ValueError: if a label list has fewer than two entries or duplicates.

        >>> ContingencyTable(["a", "b"], ["x", "y"]).grand_total()
        0
        """
        for labels in (row_labels, column_labels):
            if len(labels) < 2 or len(set(labels)) != len(labels):
                raise ValueError(f"need at least two distinct labels, got {labels!r}")
        self._rows = list(row_labels)
        self._columns = list(column_labels)
        self._cells: dict[tuple[str, str], int] = {
            (row, column): 0 for row in self._rows for column in self._columns
        }

    def _check(self, row: str, column: str) -> None:
        """Validate a pair of labels.

        :param row: a row label.
        :param column: a column label.
        :raises KeyError: if either label is unknown.

        >>> ContingencyTable(["a", "b"], ["x", "y"])._check("a", "y")
        """
        if (row, column) not in self._cells:
            raise KeyError(f"unknown cell ({row!r}, {column!r})")

    def record(self, row: str, column: str, count: int = 1) -> int:
        """Add ``count`` observations to one cell; a negative count withdraws some.

        :param row: the row label.
        :param column: the column label.
        :param count: observations to add (negative to remove), non-zero.
        :return: the new cell count.
        :raises KeyError: if a label is unknown.
        :raises ValueError: if ``count`` is zero or would make the cell negative.

        >>> table = ContingencyTable(["a", "b"], ["x", "y"])
        >>> table.record("a", "x", 3), table.record("a", "x", -1)
        (3, 2)
        """
        self._check(row, column)
        if count == 0:
            raise ValueError("count must be non-zero")
        updated = self._cells[(row, column)] + count
        if updated < 0:
            raise ValueError(f"cell ({row!r}, {column!r}) would become negative")
        self._cells[(row, column)] = updated
        return updated

    def record_pairs(self, pairs: list[tuple[str, str]]) -> int:
        """Record one observation per ``(row, column)`` pair.

        The pairs are validated first, so an unknown label records nothing.

        :param pairs: observed label pairs.
        :return: the grand total afterwards.
        :raises KeyError: if any pair has an unknown label.

        >>> table = ContingencyTable(["a", "b"], ["x", "y"])
        >>> table.record_pairs([("a", "x"), ("b", "y"), ("a", "x")])
        3
        """
        for row, column in pairs:
            self._check(row, column)
        for row, column in pairs:
            self.record(row, column)
        return self.grand_total()

    def cell(self, row: str, column: str) -> int:
        """Return the observed count of one cell.

        :param row: the row label.
        :param column: the column label.
        :return: the count.
        :raises KeyError: if a label is unknown.

        >>> ContingencyTable(["a", "b"], ["x", "y"]).cell("b", "x")
        0
        """
        self._check(row, column)
        return self._cells[(row, column)]

    def row_total(self, row: str) -> int:
        """Return the number of observations in a row.

        :param row: the row label.
        :return: the row's marginal total.
        :raises KeyError: if the label is unknown.

        >>> table = ContingencyTable(["a", "b"], ["x", "y"]); _ = table.record_pairs([("a", "x"), ("a", "y")])
        >>> table.row_total("a")
        2
        """
        if row not in self._rows:
            raise KeyError(f"unknown row {row!r}")
        return sum(self._cells[(row, column)] for column in self._columns)

    def column_total(self, column: str) -> int:
        """Return the number of observations in a column.

        :param column: the column label.
        :return: the column's marginal total.
        :raises KeyError: if the label is unknown.

        >>> table = ContingencyTable(["a", "b"], ["x", "y"]); _ = table.record_pairs([("a", "x"), ("b", "x")])
        >>> table.column_total("x")
        2
        """
        if column not in self._columns:
            raise KeyError(f"unknown column {column!r}")
        return sum(self._cells[(row, column)] for row in self._rows)

    def grand_total(self) -> int:
        """Return the total number of observations.

        :return: the sum of all cells.

        >>> ContingencyTable(["a", "b"], ["x", "y"]).grand_total()
        0
        """
        return sum(self._cells.values())

    def expected(self, row: str, column: str) -> float:
        """Return the count expected in a cell if rows and columns were independent.

        :param row: the row label.
        :param column: the column label.
        :return: ``row_total * column_total / grand_total``.
        :raises KeyError: if a label is unknown.
        :raises ValueError: if the table is empty.

        >>> table = ContingencyTable(["a", "b"], ["x", "y"])
        >>> _ = table.record_pairs([("a", "x"), ("a", "y"), ("b", "y"), ("b", "y")])
        >>> table.expected("a", "y")
        1.5
        """
        total = self.grand_total()
        if total == 0:
            raise ValueError("expected counts of an empty table")
        return self.row_total(row) * self.column_total(column) / total

    def chi_square(self) -> float:
        """Return Pearson's chi-square statistic for independence.

        :return: the sum over cells of ``(observed - expected)**2 / expected``.
        :raises ValueError: if the table is empty or a whole row or column is empty.

        >>> table = ContingencyTable(["a", "b"], ["x", "y"])
        >>> _ = table.record_pairs([("a", "x"), ("b", "y")])
        >>> table.chi_square()
        2.0
        """
        statistic = 0.0
        for row in self._rows:
            for column in self._columns:
                expected = self.expected(row, column)
                if expected == 0:
                    raise ValueError(f"row {row!r} or column {column!r} has no observations")
                statistic += (self._cells[(row, column)] - expected) ** 2 / expected
        return statistic

    def degrees_of_freedom(self) -> int:
        """Return the degrees of freedom of the chi-square test.

        :return: ``(rows - 1) * (columns - 1)``.

        >>> ContingencyTable(["a", "b", "c"], ["x", "y"]).degrees_of_freedom()
        2
        """
        return (len(self._rows) - 1) * (len(self._columns) - 1)

    def cramers_v(self) -> float:
        """Return Cramér's V, the strength of association between 0 and 1.

        :return: ``sqrt(chi_square / (n * (min(rows, columns) - 1)))``.
        :raises ValueError: as for :meth:`chi_square`.

        >>> table = ContingencyTable(["a", "b"], ["x", "y"])
        >>> _ = table.record_pairs([("a", "x"), ("b", "y")])
        >>> table.cramers_v()
        1.0
        """
        chi2 = self.chi_square()
        smaller = min(len(self._rows), len(self._columns))
        return math.sqrt(chi2 / (self.grand_total() * (smaller - 1)))
