"""A revisioned key-value store on in-memory SQLite with nested transactions."""

import sqlite3


class RevisionedKvStore:
    """String keys and values in SQLite, each write stamped with a growing revision.

    Deleted keys are kept as tombstones so ``changes_since`` can report them.
    ``begin``/``commit``/``rollback`` nest through SQL savepoints; a rollback also
    restores the revision counter.

    >>> store = RevisionedKvStore()
    >>> store.put("color", "red"), store.put("size", "L")
    (1, 2)
    >>> store.begin()
    1
    >>> store.put("color", "blue")
    3
    >>> store.rollback()
    0
    >>> store.get("color"), store.changes_since(1)
    ('red', ['size'])
    """

    def __init__(self) -> None:
        """Open a private in-memory database with an empty store."""
        self.conn = sqlite3.connect(":memory:", isolation_level=None)
        self.conn.execute(
            "CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT, revision INTEGER NOT NULL, deleted INTEGER NOT NULL)"
        )
        self.revision = 0
        self.savepoints: list[int] = []

    def _write(self, key: str, value: str, deleted: bool) -> int:
        """Insert or overwrite a row with the next revision and return that revision."""
        self.revision += 1
        self.conn.execute(
            "INSERT INTO kv (key, value, revision, deleted) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value, revision = excluded.revision, "
            "deleted = excluded.deleted",
            (key, value, self.revision, int(deleted)),
        )
        return self.revision

    def put(self, key: str, value: str) -> int:
        """Store a value.

        Args:
            key: non-empty key.
            value: the value.

        Returns:
            The revision of this write.

        Raises:
            ValueError: if the key is empty.

        >>> RevisionedKvStore().put("k", "v")
        1
        """
        if not key:
            raise ValueError("empty key")
        return self._write(key, value, False)

    def get(self, key: str) -> str:
        """Return the value of a key.

        Args:
            key: the key.

        Returns:
            The stored value.

        Raises:
            KeyError: if the key does not exist or was deleted.

        >>> store = RevisionedKvStore()
        >>> _ = store.put("k", "v")
        >>> store.get("k")
        'v'
        """
        row = self.conn.execute("SELECT value FROM kv WHERE key = ? AND deleted = 0", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return row[0]

    def delete(self, key: str) -> bool:
        """Delete a key, leaving a tombstone for ``changes_since``.

        Args:
            key: the key.

        Returns:
            True if the key existed (a new revision is used), False otherwise.

        >>> store = RevisionedKvStore()
        >>> _ = store.put("k", "v")
        >>> store.delete("k"), store.delete("k")
        (True, False)
        """
        try:
            self.get(key)
        except KeyError:
            return False
        self._write(key, "", True)
        return True

    def increment(self, key: str, amount: int = 1) -> int:
        """Add to an integer value; a missing key counts as 0.

        Args:
            key: the key.
            amount: number to add (may be negative).

        Returns:
            The new value.

        Raises:
            ValueError: if the stored value is not an integer.

        >>> store = RevisionedKvStore()
        >>> store.increment("hits"), store.increment("hits", 5)
        (1, 6)
        """
        try:
            current = int(self.get(key))
        except KeyError:
            current = 0
        self.put(key, str(current + amount))
        return current + amount

    def keys(self, prefix: str = "") -> list[str]:
        """List live keys starting with ``prefix``, sorted.

        Args:
            prefix: key prefix; ``%`` and ``_`` are matched literally.

        Returns:
            The keys in ascending order.

        >>> store = RevisionedKvStore()
        >>> for k in ("user:2", "user:1", "group:1"):
        ...     _ = store.put(k, "x")
        >>> store.keys("user:")
        ['user:1', 'user:2']
        """
        rows = self.conn.execute(
            "SELECT key FROM kv WHERE deleted = 0 AND substr(key, 1, ?) = ? ORDER BY key",
            (len(prefix), prefix),
        )
        return [key for (key,) in rows]

    def changes_since(self, revision: int) -> list[str]:
        """List keys written or deleted after ``revision``, oldest change first.

        Each key appears once, at the position of its latest change.

        Args:
            revision: a revision previously returned by a write (0 for everything).

        Returns:
            The changed keys.

        Raises:
            ValueError: if ``revision`` is negative or newer than the store.

        >>> store = RevisionedKvStore()
        >>> store.put("a", "1"), store.put("b", "1"), store.put("a", "2")
        (1, 2, 3)
        >>> store.changes_since(1)
        ['b', 'a']
        """
        if not 0 <= revision <= self.revision:
            raise ValueError(f"unknown revision {revision}")
        rows = self.conn.execute("SELECT key FROM kv WHERE revision > ? ORDER BY revision", (revision,))
        return [key for (key,) in rows]

    def begin(self) -> int:
        """Start a (possibly nested) transaction.

        Returns:
            The nesting depth after starting it.

        >>> store = RevisionedKvStore()
        >>> store.begin(), store.begin()
        (1, 2)
        """
        self.savepoints.append(self.revision)
        self.conn.execute(f"SAVEPOINT sp{len(self.savepoints)}")
        return len(self.savepoints)

    def commit(self) -> int:
        """Keep the writes of the innermost transaction.

        Returns:
            The nesting depth after committing.

        Raises:
            ValueError: if no transaction is open.

        >>> store = RevisionedKvStore()
        >>> store.begin()
        1
        >>> store.commit()
        0
        """
        if not self.savepoints:
            raise ValueError("no open transaction")
        self.conn.execute(f"RELEASE SAVEPOINT sp{len(self.savepoints)}")
        self.savepoints.pop()
        return len(self.savepoints)

    def rollback(self) -> int:
        """Undo the writes of the innermost transaction and restore the revision counter.

        Returns:
            The nesting depth after rolling back.

        Raises:
            ValueError: if no transaction is open.

        >>> store = RevisionedKvStore()
        >>> store.rollback()
        Traceback (most recent call last):
        ...
        ValueError: no open transaction
        """
        if not self.savepoints:
            raise ValueError("no open transaction")
        name = f"sp{len(self.savepoints)}"
        self.conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
        self.conn.execute(f"RELEASE SAVEPOINT {name}")
        self.revision = self.savepoints.pop()
        return len(self.savepoints)
