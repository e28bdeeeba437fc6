"""A small spreadsheet-like editor for CSV text held entirely in memory."""

import csv
import io


class CsvSheet:
    """An editable CSV table whose columns are addressed by header name.

    The sheet keeps a header list and a list of rows (each a list of strings the
    same length as the header). Methods that edit the table look columns up
    through ``column_index`` and ``to_csv`` renders the current state.

    >>> sheet = CsvSheet()
    >>> sheet.load("name,qty\\napple,3\\npear,5\\n")
    2
    >>> sheet.set_cell(1, "qty", "7")
    >>> sheet.column_values("qty")
    ['3', '7']
    >>> sheet.to_csv()
    'name,qty\\napple,3\\npear,7\\n'
    """

    def __init__(self, delimiter: str = ",") -> None:
        """Create an empty sheet; fill it with ``load`` or ``add_column``/``append_row``.

        Args:
            delimiter: single-character field separator used to read and write text.
        """
        self.delimiter = delimiter
        self.header: list[str] = []
        self.rows: list[list[str]] = []

    def load(self, text: str) -> int:
        """Replace the sheet's content with parsed CSV ``text`` (first line is the header).

        Blank lines are skipped.

        Args:
            text: CSV text; an empty string leaves a sheet without columns.

        Returns:
            The number of data rows read.

        Raises:
            ValueError: if the header repeats a name or a data row has a different
                number of fields than the header. The sheet is unchanged then.

        >>> CsvSheet().load("a,b\\n1,2\\n\\n3,4\\n")
        2
        """
        records = [r for r in csv.reader(io.StringIO(text), delimiter=self.delimiter) if r]
        header = records[0] if records else []
        if len(set(header)) != len(header):
            raise ValueError("duplicate column name in header")
        for number, record in enumerate(records[1:], start=2):
            if len(record) != len(header):
                raise ValueError(f"record {number}: expected {len(header)} fields, got {len(record)}")
        self.header = header
        self.rows = records[1:]
        return len(self.rows)

    def column_index(self, name: str) -> int:
        """Return the position of column ``name``.

        Args:
            name: header name.

        Returns:
            The zero-based column index.

        Raises:
            KeyError: if there is no such column.

        >>> sheet = CsvSheet()
        >>> sheet.load("a,b\\n1,2\\n")
        1
        >>> sheet.column_index("b")
        1
        """
        try:
            return self.header.index(name)
        except ValueError:
            raise KeyError(name) from None

    def add_column(self, name: str, default: str = "") -> int:
        """Append a new column, filling existing rows with ``default``.

        Args:
            name: the new header name.
            default: value placed in every existing row.

        Returns:
            The index of the new column.

        Raises:
            ValueError: if the column already exists.

        >>> sheet = CsvSheet()
        >>> sheet.load("a\\n1\\n")
        1
        >>> sheet.add_column("b", "x")
        1
        >>> sheet.rows
        [['1', 'x']]
        """
        if name in self.header:
            raise ValueError(f"column {name!r} already exists")
        self.header.append(name)
        for row in self.rows:
            row.append(default)
        return len(self.header) - 1

    def append_row(self, values: dict[str, str]) -> int:
        """Append a row given as a mapping from column name to value.

        Missing columns become empty strings.

        Args:
            values: column name to cell text.

        Returns:
            The index of the new row.

        Raises:
            KeyError: if ``values`` names an unknown column.

        >>> sheet = CsvSheet()
        >>> sheet.load("a,b\\n")
        0
        >>> sheet.append_row({"b": "2"})
        0
        >>> sheet.rows
        [['', '2']]
        """
        row = [""] * len(self.header)
        for name, value in values.items():
            row[self.column_index(name)] = value
        self.rows.append(row)
        return len(self.rows) - 1

    def set_cell(self, row: int, column: str, value: str) -> None:
        """Overwrite one cell.

        Args:
            row: zero-based data row index.
            column: header name.
            value: new cell text.

        Raises:
            IndexError: if ``row`` is out of range.
            KeyError: if the column does not exist.

        >>> sheet = CsvSheet()
        >>> sheet.load("a\\n1\\n")
        1
        >>> sheet.set_cell(0, "a", "9")
        >>> sheet.rows
        [['9']]
        """
        col = self.column_index(column)
        if not 0 <= row < len(self.rows):
            raise IndexError(f"row {row} out of range")
        self.rows[row][col] = value

    def column_values(self, name: str) -> list[str]:
        """Return the values of one column, top to bottom.

        Args:
            name: header name.

        Returns:
            A new list of the cells in that column.

        Raises:
            KeyError: if the column does not exist.

        >>> sheet = CsvSheet()
        >>> sheet.load("a,b\\n1,2\\n3,4\\n")
        2
        >>> sheet.column_values("b")
        ['2', '4']
        """
        col = self.column_index(name)
        return [row[col] for row in self.rows]

    def delete_where(self, column: str, value: str) -> int:
        """Remove every row whose ``column`` cell equals ``value``.

        Args:
            column: header name to test.
            value: the value that marks a row for deletion.

        Returns:
            The number of rows removed.

        Raises:
            KeyError: if the column does not exist.

        >>> sheet = CsvSheet()
        >>> sheet.load("k\\nx\\ny\\nx\\n")
        3
        >>> sheet.delete_where("k", "x")
        2
        >>> sheet.column_values("k")
        ['y']
        """
        col = self.column_index(column)
        kept = [row for row in self.rows if row[col] != value]
        removed = len(self.rows) - len(kept)
        self.rows = kept
        return removed

    def sort_by(self, column: str, numeric: bool = False, descending: bool = False) -> None:
        """Sort rows by one column, stably.

        Args:
            column: header name to sort on.
            numeric: compare cells as floats instead of text.
            descending: reverse the order.

        Raises:
            KeyError: if the column does not exist.
            ValueError: if ``numeric`` is true and a cell is not a number.

        >>> sheet = CsvSheet()
        >>> sheet.load("n\\n10\\n9\\n")
        2
        >>> sheet.sort_by("n", numeric=True)
        >>> sheet.column_values("n")
        ['9', '10']
        """
        col = self.column_index(column)
        if numeric:
            self.rows.sort(key=lambda row: float(row[col]), reverse=descending)
        else:
            self.rows.sort(key=lambda row: row[col], reverse=descending)

    def column_total(self, name: str) -> float:
        """Sum a numeric column, treating empty cells as zero.

        Args:
            name: header name.

        Returns:
            The sum as a float.

        Raises:
            KeyError: if the column does not exist.
            ValueError: if a non-empty cell is not a number.

        >>> sheet = CsvSheet()
        >>> sheet.load("q\\n1.5\\n\\"\\"\\n2\\n")
        3
        >>> sheet.column_total("q")
        3.5
        """
        return sum(float(v) for v in self.column_values(name) if v.strip())

    def to_csv(self) -> str:
        """Render the sheet as CSV text with ``\\n`` line endings.

        Returns:
            The header line followed by one line per row; empty string for a sheet
            without columns.

        >>> sheet = CsvSheet()
        >>> sheet.load("a,b\\n1,\\"x,y\\"\\n")
        1
        >>> sheet.to_csv()
        'a,b\\n1,"x,y"\\n'
        """
        if not self.header:
            return ""
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=self.delimiter, lineterminator="\n")
        writer.writerow(self.header)
        writer.writerows(self.rows)
        return buffer.getvalue()
