"""Declare a fixed-width record layout, then parse and format lines with it."""


class FixedWidthLayout:
    """Ordered fields of fixed width, each of kind ``str``, ``int`` or ``date``.

    * ``str`` values are left-aligned and padded with spaces (trailing spaces are
      dropped when parsing);
    * ``int`` values are right-aligned and zero-padded, a leading ``-`` allowed;
    * ``date`` fields are 8 characters ``YYYYMMDD`` and appear in records as ISO
      ``YYYY-MM-DD`` strings.

    >>> layout = FixedWidthLayout()
    >>> layout.add_field("account", 6)
    0
    >>> layout.add_field("amount", 7, "int")
    6
    >>> layout.add_field("booked", 8, "date")
    13
    >>> line = layout.format_record({"account": "AB12", "amount": -450, "booked": "2026-03-01"})
    >>> line
    'AB12  -00045020260301'
    >>> layout.parse_line(line)
    {'account': 'AB12', 'amount': -450, 'booked': '2026-03-01'}
    """

    KINDS = ("str", "int", "date")

    def __init__(self) -> None:
        """Create a layout without fields and an empty list of rejected lines."""
        self.fields: list[tuple[str, int, str]] = []
        self.rejected: list[str] = []

    def add_field(self, name: str, width: int, kind: str = "str") -> int:
        """Append a field at the end of the record.

        Args:
            name: unique field name.
            width: number of characters, at least 1 (exactly 8 for ``date``).
            kind: ``"str"``, ``"int"`` or ``"date"``.

        Returns:
            The field's start offset within the line.

        Raises:
            ValueError: for a duplicate name, an unknown kind or a bad width.

        >>> FixedWidthLayout().add_field("when", 6, "date")
        Traceback (most recent call last):
        ...
        ValueError: date fields are 8 characters wide
        """
        if any(existing == name for existing, _, _ in self.fields):
            raise ValueError(f"duplicate field {name!r}")
        if kind not in self.KINDS:
            raise ValueError(f"unknown kind {kind!r}")
        if width < 1:
            raise ValueError("width must be positive")
        if kind == "date" and width != 8:
            raise ValueError("date fields are 8 characters wide")
        start = self.record_length()
        self.fields.append((name, width, kind))
        return start

    def remove_field(self, name: str) -> int:
        """Remove a field; later fields move left.

        Args:
            name: field name.

        Returns:
            The new record length.

        Raises:
            KeyError: if there is no such field.

        >>> layout = FixedWidthLayout()
        >>> layout.add_field("a", 3), layout.add_field("b", 4)
        (0, 3)
        >>> layout.remove_field("a")
        4
        """
        self.field_span(name)
        self.fields = [field for field in self.fields if field[0] != name]
        return self.record_length()

    def record_length(self) -> int:
        """Return the total line length the layout describes.

        Returns:
            The sum of all field widths.

        >>> FixedWidthLayout().record_length()
        0
        """
        return sum(width for _, width, _ in self.fields)

    def field_span(self, name: str) -> tuple[int, int]:
        """Return the slice ``(start, end)`` a field occupies in a line.

        Args:
            name: field name.

        Returns:
            Start offset (inclusive) and end offset (exclusive).

        Raises:
            KeyError: if there is no such field.

        >>> layout = FixedWidthLayout()
        >>> layout.add_field("a", 3), layout.add_field("b", 4)
        (0, 3)
        >>> layout.field_span("b")
        (3, 7)
        """
        start = 0
        for field_name, width, _ in self.fields:
            if field_name == name:
                return (start, start + width)
            start += width
        raise KeyError(name)

    def parse_line(self, line: str) -> dict[str, str | int]:
        """Cut one line into a typed record.

        Args:
            line: the text, without its line break; must be exactly ``record_length()`` long.

        Returns:
            Field name to value (str, int, or ISO date string), in layout order.

        Raises:
            ValueError: if the length is wrong or a field does not match its kind.

        >>> layout = FixedWidthLayout()
        >>> layout.add_field("qty", 4, "int")
        0
        >>> layout.parse_line("0012")
        {'qty': 12}
        """
        if len(line) != self.record_length():
            raise ValueError(f"expected {self.record_length()} characters, got {len(line)}")
        record: dict[str, str | int] = {}
        for name, _, kind in self.fields:
            start, end = self.field_span(name)
            raw = line[start:end]
            if kind == "str":
                record[name] = raw.rstrip(" ")
            elif kind == "int":
                digits = raw[1:] if raw.startswith("-") else raw
                if not digits.isdigit():
                    raise ValueError(f"field {name!r}: {raw!r} is not an integer")
                record[name] = int(raw)
            else:
                if not raw.isdigit():
                    raise ValueError(f"field {name!r}: {raw!r} is not a YYYYMMDD date")
                record[name] = f"{raw[:4]}-{raw[4:6]}-{raw[6:]}"
        return record

    def format_record(self, record: dict[str, str | int]) -> str:
        """Render a record as one fixed-width line.

        Missing ``str`` fields become blanks, missing ``int`` fields zero; a missing
        ``date`` is an error.

        Args:
            record: field name to value.

        Returns:
            A line exactly ``record_length()`` characters long.

        Raises:
            KeyError: if the record names a field the layout lacks, or a date is missing.
            ValueError: if a value does not fit its width or a date is not ``YYYY-MM-DD``.

        >>> layout = FixedWidthLayout()
        >>> layout.add_field("code", 5)
        0
        >>> layout.format_record({"code": "X1"})
        'X1   '
        """
        for name in record:
            self.field_span(name)
        parts = []
        for name, width, kind in self.fields:
            if kind == "str":
                text = str(record.get(name, ""))
                text = text.ljust(width)
            elif kind == "int":
                value = int(record.get(name, 0))
                sign = "-" if value < 0 else ""
                text = sign + str(abs(value)).rjust(width - len(sign), "0")
            else:
                iso = str(record[name])
                if len(iso) != 10 or iso[4] != "-" or iso[7] != "-":
                    raise ValueError(f"field {name!r}: {iso!r} is not YYYY-MM-DD")
                text = iso.replace("-", "")
            if len(text) > width:
                raise ValueError(f"field {name!r}: {text!r} is wider than {width}")
            parts.append(text)
        return "".join(parts)

    def parse_text(self, text: str) -> list[dict[str, str | int]]:
        """Parse every non-blank line of ``text``, collecting failures instead of raising.

        The list of rejected lines is replaced on each call.

        Args:
            text: lines separated by line breaks.

        Returns:
            The records of the lines that parsed, in order.

        >>> layout = FixedWidthLayout()
        >>> layout.add_field("n", 2, "int")
        0
        >>> layout.parse_text("01\\nxx\\n\\n03\\n")
        [{'n': 1}, {'n': 3}]
        >>> layout.rejected_lines()
        ["line 2: field 'n': 'xx' is not an integer"]
        """
        self.rejected = []
        records = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(self.parse_line(line))
            except ValueError as error:
                self.rejected.append(f"line {number}: {error}")
        return records

    def rejected_lines(self) -> list[str]:
        """Return the messages for lines the last ``parse_text`` call could not parse.

        Returns:
            A copy of the messages, ``"line N: reason"``, in line order.

        >>> FixedWidthLayout().rejected_lines()
        []
        """
        return list(self.rejected)
