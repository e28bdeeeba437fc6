"""Build parameterised SELECT statements without string-pasting values into SQL."""

import re


class SelectBuilder:
    """Collects the parts of a SELECT on one table and renders ``(sql, params)``.

    Values always travel as ``?`` parameters; identifiers are checked against
    ``name`` or ``table.name`` and double-quoted. Conditions are joined with AND.

    >>> query = SelectBuilder("orders").columns(["id", "total"]).where("status", "=", "open")
    >>> query.order_by("total", descending=True).limit(10).build()
    ('SELECT "id", "total" FROM "orders" WHERE "status" = ? ORDER BY "total" DESC LIMIT ? OFFSET ?', ['open', 10, 0])
    >>> query.count_sql()
    ('SELECT COUNT(*) FROM "orders" WHERE "status" = ?', ['open'])
    """

    OPERATORS = ("=", "!=", "<", "<=", ">", ">=", "LIKE")
    _IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")

    def __init__(self, table: str) -> None:
        """Start a query on ``table`` selecting every column.

        Args:
            table: table name (validated when the query is rendered).
        """
        self.table = table
        self.selected: list[str] = []
        self.conditions: list[tuple[str, list[str | int | float | None]]] = []
        self.ordering: list[str] = []
        self.page: tuple[int, int] | None = None

    def quote(self, identifier: str) -> str:
        """Validate an identifier and return it double-quoted.

        Args:
            identifier: ``name`` or ``table.name``.

        Returns:
            The quoted identifier, each part quoted separately.

        Raises:
            ValueError: if the identifier has other characters.

        >>> SelectBuilder("t").quote("users.email")
        '"users"."email"'
        >>> SelectBuilder("t").quote("x; DROP TABLE t")
        Traceback (most recent call last):
        ...
        ValueError: invalid identifier 'x; DROP TABLE t'
        """
        if not self._IDENTIFIER.fullmatch(identifier):
            raise ValueError(f"invalid identifier {identifier!r}")
        return ".".join(f'"{part}"' for part in identifier.split("."))

    def columns(self, names: list[str]) -> "SelectBuilder":
        """Choose the selected columns (replacing an earlier choice).

        Args:
            names: column names; an empty list selects ``*``.

        Returns:
            The builder, for chaining.

        Raises:
            ValueError: if a name is not a valid identifier.

        >>> SelectBuilder("t").columns(["a", "b"]).build()[0]
        'SELECT "a", "b" FROM "t"'
        """
        self.selected = [self.quote(name) for name in names]
        return self

    def where(self, column: str, operator: str, value: str | int | float | None) -> "SelectBuilder":
        """Add a condition ``column operator value``.

        ``= None`` renders ``IS NULL`` and ``!= None`` renders ``IS NOT NULL``.

        Args:
            column: column name.
            operator: one of ``=, !=, <, <=, >, >=, LIKE`` (case-insensitive).
            value: compared value.

        Returns:
            The builder, for chaining.

        Raises:
            ValueError: for an unknown operator, an invalid column, or ``None`` with
                an operator other than ``=``/``!=``.

        >>> SelectBuilder("t").where("deleted_at", "=", None).build()
        ('SELECT * FROM "t" WHERE "deleted_at" IS NULL', [])
        """
        operator = operator.upper()
        if operator not in self.OPERATORS:
            raise ValueError(f"unknown operator {operator!r}")
        quoted = self.quote(column)
        if value is None:
            if operator not in ("=", "!="):
                raise ValueError("NULL can only be compared with = or !=")
            self.conditions.append((f"{quoted} IS {'NOT ' if operator == '!=' else ''}NULL", []))
        else:
            self.conditions.append((f"{quoted} {operator} ?", [value]))
        return self

    def where_in(self, column: str, values: list[str | int | float]) -> "SelectBuilder":
        """Add a condition ``column IN (...)``.

        Args:
            column: column name.
            values: allowed values; an empty list matches no row.

        Returns:
            The builder, for chaining.

        Raises:
            ValueError: if the column is not a valid identifier.

        >>> SelectBuilder("t").where_in("id", [3, 5]).build()
        ('SELECT * FROM "t" WHERE "id" IN (?, ?)', [3, 5])
        """
        quoted = self.quote(column)
        if not values:
            self.conditions.append(("1 = 0", []))
        else:
            marks = ", ".join("?" for _ in values)
            self.conditions.append((f"{quoted} IN ({marks})", list(values)))
        return self

    def order_by(self, column: str, descending: bool = False) -> "SelectBuilder":
        """Add a sort key (earlier keys take precedence).

        Args:
            column: column name.
            descending: sort this key in descending order.

        Returns:
            The builder, for chaining.

        Raises:
            ValueError: if the column is not a valid identifier.

        >>> SelectBuilder("t").order_by("a").order_by("b", True).build()[0]
        'SELECT * FROM "t" ORDER BY "a", "b" DESC'
        """
        self.ordering.append(self.quote(column) + (" DESC" if descending else ""))
        return self

    def limit(self, count: int, offset: int = 0) -> "SelectBuilder":
        """Return at most ``count`` rows, skipping ``offset`` rows (replaces earlier paging).

        Args:
            count: maximum number of rows, at least 1.
            offset: rows to skip, at least 0.

        Returns:
            The builder, for chaining.

        Raises:
            ValueError: if ``count`` < 1 or ``offset`` < 0.

        >>> SelectBuilder("t").limit(5, 20).build()
        ('SELECT * FROM "t" LIMIT ? OFFSET ?', [5, 20])
        """
        if count < 1 or offset < 0:
            raise ValueError("count must be >= 1 and offset >= 0")
        self.page = (count, offset)
        return self

    def _where_clause(self) -> tuple[str, list[str | int | float | None]]:
        """Render the WHERE part (with leading space) and its parameters."""
        if not self.conditions:
            return "", []
        params: list[str | int | float | None] = []
        for _, values in self.conditions:
            params.extend(values)
        return " WHERE " + " AND ".join(text for text, _ in self.conditions), params

    def build(self) -> tuple[str, list[str | int | float | None]]:
        """Render the full SELECT statement.

        Returns:
            The SQL text and its parameters in placeholder order.

        Raises:
            ValueError: if the table name is not a valid identifier.

        >>> SelectBuilder("logs").build()
        ('SELECT * FROM "logs"', [])
        """
        sql = f"SELECT {', '.join(self.selected) or '*'} FROM {self.quote(self.table)}"
        where, params = self._where_clause()
        sql += where
        if self.ordering:
            sql += " ORDER BY " + ", ".join(self.ordering)
        if self.page is not None:
            sql += " LIMIT ? OFFSET ?"
            params = params + [self.page[0], self.page[1]]
        return sql, params

    def count_sql(self) -> tuple[str, list[str | int | float | None]]:
        """Render a ``COUNT(*)`` over the same conditions, ignoring columns, order and paging.

        Returns:
            The SQL text and its parameters.

        Raises:
            ValueError: if the table name is not a valid identifier.

        >>> SelectBuilder("t").where("a", ">", 1).limit(3).count_sql()
        ('SELECT COUNT(*) FROM "t" WHERE "a" > ?', [1])
        """
        where, params = self._where_clause()
        return f"SELECT COUNT(*) FROM {self.quote(self.table)}{where}", params
