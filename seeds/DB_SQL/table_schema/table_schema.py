"""A declarative table schema that validates rows and renders SQLite DDL and inserts."""


class TableSchema:
    """Columns of a table with type, NOT NULL, DEFAULT, UNIQUE and PRIMARY KEY rules.

    Types are ``INTEGER``, ``REAL``, ``TEXT`` and ``BOOLEAN``. Python ``bool`` is only
    accepted for BOOLEAN columns, ``int`` is accepted for REAL columns.

    >>> schema = TableSchema("users")
    >>> schema.add_column("id", "INTEGER", primary_key=True)
    0
    >>> schema.add_column("email", "TEXT", nullable=False, unique=True)
    1
    >>> schema.add_column("active", "BOOLEAN", default=True)
    2
    >>> schema.validate_row({"id": 1, "email": None})
    ["column 'email' may not be NULL"]
    >>> schema.insert_sql({"id": 1, "email": "a@x.org"})
    ('INSERT INTO "users" ("id", "email", "active") VALUES (?, ?, ?)', [1, 'a@x.org', True])
    """

    TYPES = ("INTEGER", "REAL", "TEXT", "BOOLEAN")

    def __init__(self, table: str) -> None:
        """Create a schema for ``table`` without columns.

        Args:
            table: table name used in rendered SQL.
        """
        self.table = table
        self.columns: list[dict[str, str | int | float | bool | None]] = []

    def add_column(
        self,
        name: str,
        sql_type: str,
        nullable: bool = True,
        default: str | int | float | bool | None = None,
        unique: bool = False,
        primary_key: bool = False,
    ) -> int:
        """Declare a column. A primary key is implicitly NOT NULL and UNIQUE.

        Args:
            name: column name (letters, digits, underscores).
            sql_type: one of ``INTEGER, REAL, TEXT, BOOLEAN`` (case-insensitive).
            nullable: whether NULL is allowed.
            default: value used when a row omits the column (None for no default).
            unique: whether values must be distinct.
            primary_key: make this the primary key.

        Returns:
            The column position.

        Raises:
            ValueError: for a bad or duplicate name, unknown type, second primary key,
                or a default that does not fit the type.

        >>> TableSchema("t").add_column("n", "DECIMAL")
        Traceback (most recent call last):
        ...
        ValueError: unknown type 'DECIMAL'
        """
        sql_type = sql_type.upper()
        if not name.replace("_", "a").isalnum() or name[0].isdigit():
            raise ValueError(f"invalid column name {name!r}")
        if name in self.column_names():
            raise ValueError(f"duplicate column {name!r}")
        if sql_type not in self.TYPES:
            raise ValueError(f"unknown type {sql_type!r}")
        if primary_key and any(column["primary_key"] for column in self.columns):
            raise ValueError("table already has a primary key")
        column = {"name": name, "type": sql_type, "nullable": nullable and not primary_key,
                  "default": default, "unique": unique or primary_key, "primary_key": primary_key}
        if default is not None and not self._fits(sql_type, default):
            raise ValueError(f"default {default!r} does not fit {sql_type}")
        self.columns.append(column)
        return len(self.columns) - 1

    @staticmethod
    def _fits(sql_type: str, value: str | int | float | bool | None) -> bool:
        """Tell whether a non-None Python value is acceptable for a column type."""
        if sql_type == "BOOLEAN":
            return isinstance(value, bool)
        if isinstance(value, bool):
            return False
        if sql_type == "INTEGER":
            return isinstance(value, int)
        if sql_type == "REAL":
            return isinstance(value, (int, float))
        return isinstance(value, str)

    def column_names(self) -> list[str]:
        """Return the column names in declaration order.

        Returns:
            The names.

        >>> TableSchema("t").column_names()
        []
        """
        return [str(column["name"]) for column in self.columns]

    def _with_defaults(
        self, row: dict[str, str | int | float | bool | None]
    ) -> dict[str, str | int | float | bool | None]:
        """Return the row in column order with defaults filled in for absent columns."""
        return {str(c["name"]): row.get(str(c["name"]), c["default"]) for c in self.columns}

    def validate_row(self, row: dict[str, str | int | float | bool | None]) -> list[str]:
        """Check one row against the schema (defaults count for absent columns).

        Args:
            row: column name to value.

        Returns:
            Error messages, empty if the row is valid: first one per unknown column, in
            the row's order, then one per failing column, in the schema's column order.

        >>> schema = TableSchema("t")
        >>> schema.add_column("n", "INTEGER")
        0
        >>> schema.validate_row({"n": "5", "x": 1})
        ["unknown column 'x'", "column 'n' expects INTEGER, got str"]
        """
        errors = [f"unknown column {name!r}" for name in row if name not in self.column_names()]
        full = self._with_defaults(row)
        for column in self.columns:
            value = full[str(column["name"])]
            if value is None:
                if not column["nullable"]:
                    errors.append(f"column {column['name']!r} may not be NULL")
            elif not self._fits(str(column["type"]), value):
                errors.append(f"column {column['name']!r} expects {column['type']}, got {type(value).__name__}")
        return errors

    def coerce_row(self, text_row: dict[str, str]) -> dict[str, str | int | float | bool | None]:
        """Convert a row of text (e.g. from CSV) into typed values, then validate it.

        Empty strings become NULL. BOOLEAN accepts true/false/yes/no/1/0.

        Args:
            text_row: column name to text.

        Returns:
            The typed row in column order, defaults filled in.

        Raises:
            ValueError: if a text cannot be converted or the typed row is invalid.

        >>> schema = TableSchema("t")
        >>> schema.add_column("qty", "INTEGER"), schema.add_column("ok", "BOOLEAN")
        (0, 1)
        >>> schema.coerce_row({"qty": " 7 ", "ok": "Yes"})
        {'qty': 7, 'ok': True}
        """
        types = {str(c["name"]): str(c["type"]) for c in self.columns}
        typed: dict[str, str | int | float | bool | None] = {}
        for name, text in text_row.items():
            text = text.strip()
            kind = types.get(name, "TEXT")
            if text == "":
                typed[name] = None
            elif kind == "INTEGER":
                typed[name] = int(text)
            elif kind == "REAL":
                typed[name] = float(text)
            elif kind == "BOOLEAN":
                if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                    raise ValueError(f"column {name!r}: {text!r} is not a boolean")
                typed[name] = text.lower() in ("true", "yes", "1")
            else:
                typed[name] = text
        errors = self.validate_row(typed)
        if errors:
            raise ValueError("; ".join(errors))
        return self._with_defaults(typed)

    def check_rows(self, rows: list[dict[str, str | int | float | bool | None]]) -> dict[int, list[str]]:
        """Validate a batch, including UNIQUE constraints across the batch.

        Args:
            rows: the rows to insert together.

        Returns:
            Row index to its error messages, only for rows with errors.

        >>> schema = TableSchema("t")
        >>> schema.add_column("code", "TEXT", unique=True)
        0
        >>> schema.check_rows([{"code": "a"}, {"code": "b"}, {"code": "a"}])
        {2: ["column 'code' duplicates row 0"]}
        """
        problems: dict[int, list[str]] = {}
        first_seen: dict[tuple[str, str | int | float | bool | None], int] = {}
        for index, row in enumerate(rows):
            errors = self.validate_row(row)
            full = self._with_defaults(row)
            for column in self.columns:
                value = full[str(column["name"])]
                if not column["unique"] or value is None:
                    continue
                key = (str(column["name"]), value)
                if key in first_seen:
                    errors.append(f"column {column['name']!r} duplicates row {first_seen[key]}")
                else:
                    first_seen[key] = index
            if errors:
                problems[index] = errors
        return problems

    def create_table_sql(self) -> str:
        """Render the ``CREATE TABLE`` statement for SQLite.

        Returns:
            The DDL statement.

        Raises:
            ValueError: if the schema has no columns.

        >>> schema = TableSchema("tags")
        >>> schema.add_column("label", "TEXT", nullable=False, default="it's")
        0
        >>> schema.create_table_sql()
        'CREATE TABLE "tags" ("label" TEXT NOT NULL DEFAULT \\'it\\'\\'s\\')'
        """
        if not self.columns:
            raise ValueError("a table needs at least one column")
        parts = []
        for column in self.columns:
            text = f'"{column["name"]}" {column["type"]}'
            if column["primary_key"]:
                text += " PRIMARY KEY"
            elif column["unique"]:
                text += " UNIQUE"
            if not column["nullable"] and not column["primary_key"]:
                text += " NOT NULL"
            default = column["default"]
            if isinstance(default, bool):
                text += f" DEFAULT {int(default)}"
            elif isinstance(default, str):
                text += " DEFAULT '" + default.replace("'", "''") + "'"
            elif default is not None:
                text += f" DEFAULT {default}"
            parts.append(text)
        return f'CREATE TABLE "{self.table}" (' + ", ".join(parts) + ")"

    def insert_sql(
        self, row: dict[str, str | int | float | bool | None]
    ) -> tuple[str, list[str | int | float | bool | None]]:
        """Validate a row and render a parameterised ``INSERT`` with defaults filled in.

        Args:
            row: column name to value.

        Returns:
            The SQL text and the parameter list in column order.

        Raises:
            ValueError: if the row is invalid (all messages joined with ``"; "``).

        >>> schema = TableSchema("t")
        >>> schema.add_column("a", "REAL")
        0
        >>> schema.insert_sql({"a": 2})
        ('INSERT INTO "t" ("a") VALUES (?)', [2])
        """
        errors = self.validate_row(row)
        if errors:
            raise ValueError("; ".join(errors))
        full = self._with_defaults(row)
        names = ", ".join(f'"{name}"' for name in full)
        marks = ", ".join("?" for _ in full)
        return f'INSERT INTO "{self.table}" ({names}) VALUES ({marks})', list(full.values())
