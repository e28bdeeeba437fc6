"""Apply and roll back numbered schema migrations on an in-memory SQLite database."""

import hashlib
import sqlite3


class MigrationRunner:
    """Registered migrations plus a ``schema_migrations`` table of applied versions.

    Each migration has a positive integer version, a name, and ``up``/``down`` SQL
    scripts of one or more statements. Applying or reverting one migration is a
    single transaction: if any statement fails, nothing of it remains.

    ``history`` lists every script run, oldest first, as direction, version and
    name (``"up 2 posts"``, ``"down 2 posts"``), prefixed with ``"failed"`` when
    the script failed and was undone (``"failed up 2 posts"``).

    >>> runner = MigrationRunner()
    >>> runner.register(1, "users", "CREATE TABLE users (id INTEGER PRIMARY KEY)", "DROP TABLE users")
    >>> runner.register(2, "posts", "CREATE TABLE posts (id INTEGER); CREATE INDEX p ON posts (id)", "DROP TABLE posts")
    >>> runner.migrate()
    [1, 2]
    >>> runner.tables(), runner.current_version()
    (['posts', 'users'], 2)
    >>> runner.rollback()
    [2]
    >>> runner.pending()
    [2]
    """

    def __init__(self, db_user: str = "migrator") -> None:
        """Open an empty in-memory database with the bookkeeping table.

        Args:
            db_user: the database user the runner applies migrations as; the
                bookkeeping table records it beside each version it applies.

        >>> MigrationRunner("deploy").db_user
        'deploy'
        """
        self.db_user = db_user
        self.conn = sqlite3.connect(":memory:", isolation_level=None)
        self.conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,"
            " applied_by TEXT NOT NULL)"
        )
        self.migrations: dict[int, tuple[str, str, str]] = {}
        self.history: list[str] = []

    @staticmethod
    def _checksum(sql: str) -> str:
        """Return a short digest of a migration script."""
        return hashlib.sha256(sql.encode("utf-8")).hexdigest()[:16]

    @staticmethod
    def _statements(script: str) -> list[str]:
        """Split a script into complete SQL statements (semicolons in strings are safe)."""
        statements, buffer = [], ""
        for piece in script.split(";"):
            buffer += piece + ";"
            if sqlite3.complete_statement(buffer):
                if buffer.strip(" \n\t;"):
                    statements.append(buffer.strip())
                buffer = ""
        if buffer.strip(" \n\t;"):
            statements.append(buffer.strip())
        return statements

    def register(self, version: int, name: str, up_sql: str, down_sql: str) -> None:
        """Add a migration to the plan.

        Args:
            version: positive, unique version number.
            name: short description, e.g. ``"add_users"``.
            up_sql: script that applies the change.
            down_sql: script that reverts it.

        Raises:
            ValueError: if the version is not positive, already registered, or the up
                script is empty.

        >>> runner = MigrationRunner()
        >>> runner.register(0, "bad", "SELECT 1", "")
        Traceback (most recent call last):
        ...
        ValueError: version must be positive
        """
        if version < 1:
            raise ValueError("version must be positive")
        if version in self.migrations:
            raise ValueError(f"version {version} already registered")
        if not self._statements(up_sql):
            raise ValueError("empty up script")
        self.migrations[version] = (name, up_sql, down_sql)

    def unregister(self, version: int) -> bool:
        """Remove a migration from the plan (its applied record, if any, stays).

        Args:
            version: version number.

        Returns:
            True if it was registered.

        >>> runner = MigrationRunner()
        >>> runner.register(1, "a", "SELECT 1", "")
        >>> runner.unregister(1), runner.unregister(1)
        (True, False)
        """
        return self.migrations.pop(version, None) is not None

    def applied(self) -> list[int]:
        """Return the versions recorded as applied, ascending.

        Returns:
            The applied versions.

        >>> MigrationRunner().applied()
        []
        """
        return [v for (v,) in self.conn.execute("SELECT version FROM schema_migrations ORDER BY version")]

    def current_version(self) -> int:
        """Return the highest applied version, or 0 for a fresh database.

        Returns:
            The schema version.

        >>> MigrationRunner().current_version()
        0
        """
        versions = self.applied()
        return versions[-1] if versions else 0

    def pending(self) -> list[int]:
        """Return registered versions not applied yet, ascending.

        Returns:
            The versions ``migrate()`` would apply.

        >>> runner = MigrationRunner()
        >>> runner.register(5, "b", "SELECT 1", "")
        >>> runner.register(3, "a", "SELECT 1", "")
        >>> runner.pending()
        [3, 5]
        """
        done = set(self.applied())
        return sorted(v for v in self.migrations if v not in done)

    def _run(self, version: int, script: str, direction: str) -> None:
        """Run one script and update the bookkeeping table in a single transaction."""
        name, up_sql, _ = self.migrations[version]
        self.conn.execute("BEGIN")
        try:
            for statement in self._statements(script):
                self.conn.execute(statement)
            if direction == "up":
                self.conn.execute("INSERT INTO schema_migrations VALUES (?, ?, ?, ?)",
                                  (version, name, self._checksum(up_sql), self.db_user))
            else:
                self.conn.execute("DELETE FROM schema_migrations WHERE version = ?", (version,))
        except sqlite3.Error:
            self.conn.execute("ROLLBACK")
            self.history.append(f"failed {direction} {version} {name}")
            raise
        self.conn.execute("COMMIT")
        self.history.append(f"{direction} {version} {name}")

    def migrate(self, target: int = 0) -> list[int]:
        """Apply pending migrations in version order.

        Args:
            target: highest version to apply; 0 applies everything pending.

        Returns:
            The versions applied by this call, each recorded as applied by
            ``db_user``; an empty list when nothing was pending.

        Raises:
            ValueError: if ``target`` is not a registered version.
            sqlite3.Error: if a script fails; that migration is undone and the ones
                before it in this call stay applied. The run then returns nothing:
                the versions it did apply show only in ``applied()`` and ``history``.

        >>> runner = MigrationRunner()
        >>> runner.register(1, "a", "CREATE TABLE a (x)", "DROP TABLE a")
        >>> runner.register(2, "b", "CREATE TABLE b (x)", "DROP TABLE b")
        >>> runner.migrate(1), runner.migrate(1)
        ([1], [])
        """
        if target and target not in self.migrations:
            raise ValueError(f"unknown target version {target}")
        done = []
        for version in self.pending():
            if target and version > target:
                break
            self._run(version, self.migrations[version][1], "up")
            done.append(version)
        return done

    def rollback(self, steps: int = 1) -> list[int]:
        """Revert the most recently applied migrations.

        Args:
            steps: how many migrations to revert, newest first.

        Returns:
            The versions reverted, in the order they were reverted.

        Raises:
            ValueError: if ``steps`` is below 1 or more than the applied count, or an
                applied version is no longer registered.
            sqlite3.Error: if a down script fails; that migration stays applied.

        >>> runner = MigrationRunner()
        >>> runner.rollback()
        Traceback (most recent call last):
        ...
        ValueError: cannot roll back 1 of 0 applied migrations
        """
        applied = self.applied()
        if not 1 <= steps <= len(applied):
            raise ValueError(f"cannot roll back {steps} of {len(applied)} applied migrations")
        targets = applied[::-1][:steps]
        missing = [v for v in targets if v not in self.migrations]
        if missing:
            raise ValueError(f"no registered migration for version {missing[0]}")
        for version in targets:
            self._run(version, self.migrations[version][2], "down")
        return targets

    def applied_by(self, version: int) -> str:
        """Return the database user that applied ``version``.

        Args:
            version: an applied version.

        Returns:
            The ``db_user`` of the runner that applied it.

        Raises:
            KeyError: if the version is not applied.

        >>> runner = MigrationRunner("deploy")
        >>> runner.register(1, "a", "CREATE TABLE a (x)", "DROP TABLE a")
        >>> runner.migrate()
        [1]
        >>> runner.applied_by(1)
        'deploy'
        """
        row = self.conn.execute("SELECT applied_by FROM schema_migrations WHERE version = ?", (version,)).fetchone()
        if row is None:
            raise KeyError(version)
        return row[0]

    def verify(self) -> list[int]:
        """Find applied migrations whose registered up script changed since applying.

        Returns:
            Versions whose stored checksum differs from the registered script, or
            that are applied but no longer registered, ascending.

        >>> MigrationRunner().verify()
        []
        """
        drifted = []
        for version, checksum in self.conn.execute("SELECT version, checksum FROM schema_migrations ORDER BY version"):
            if version not in self.migrations or self._checksum(self.migrations[version][1]) != checksum:
                drifted.append(version)
        return drifted

    def tables(self) -> list[str]:
        """List the user tables in the database (bookkeeping table excluded), sorted.

        Returns:
            The table names.

        >>> MigrationRunner().tables()
        []
        """
        rows = self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'schema_migrations' "
            "AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        return [name for (name,) in rows]
