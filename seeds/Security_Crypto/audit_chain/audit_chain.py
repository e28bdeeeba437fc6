"""A hash-chained, tamper-evident audit log that supports redaction."""

import hashlib


class AuditChain:
    """Append-only audit log whose entries are linked by SHA-256 digests.

    Each entry stores the digest of the previous entry, so changing any
    entry breaks every link after it. The digest covers the SHA-256 of the
    action text rather than the text itself, which lets an operator redact
    the text of an entry (for example personal data) without breaking the
    chain. Timestamps may not go backwards. A caller that keeps its own time
    passes it with each entry; an entry appended without one is stamped by the
    log's own clock, which starts at 0 and is moved forward by :meth:`set_clock`
    (the way a log server stamps what it receives).

    >>> log = AuditChain()
    >>> first = log.append("ada", "login", 100)
    >>> second = log.append("ada", "export report", 160)
    >>> log.verify()
    True
    >>> log.entries_by("ada")
    [(0, 'login'), (1, 'export report')]
    """

    REDACTED = "[redacted]"

    def __init__(self, genesis: str = "0" * 64) -> None:
        """Create an empty log.

        Args:
            genesis: the digest the first entry links to.

        >>> AuditChain(genesis="a" * 64).head() == "a" * 64
        True
        """
        self._genesis = genesis
        self._entries: list[dict[str, str | int]] = []
        self._clock = 0

    def set_clock(self, now: int) -> int:
        """Move the log's clock to ``now``: the time stamped on entries appended without one.

        Args:
            now: seconds; not smaller than the clock's current time.

        Returns:
            The clock's time before the move.

        Raises:
            ValueError: if ``now`` is smaller than the clock's current time; the clock
                is left unchanged.

        >>> log = AuditChain()
        >>> log.set_clock(300)
        0
        >>> _ = log.append("ada", "login")
        >>> log.export_lines()[0].split("|")[1]
        '300'
        """
        if now < self._clock:
            raise ValueError("the clock may not go backwards")
        previous, self._clock = self._clock, now
        return previous

    @staticmethod
    def _sha(text: str) -> str:
        """Return the hex SHA-256 digest of ``text``.

        Args:
            text: the text to hash (UTF-8 encoded).

        Returns:
            The 64-character lowercase hex digest.

        >>> AuditChain._sha("")[:12]
        'e3b0c44298fc'
        """
        return hashlib.sha256(text.encode()).hexdigest()

    def _link(self, seq: int, timestamp: int, actor: str, action_hash: str, prev: str) -> str:
        """Compute the digest of one entry from its fields and the previous digest.

        Args:
            seq: the entry's position, starting at 0.
            timestamp: the entry's time in seconds.
            actor: who performed the action.
            action_hash: hex SHA-256 of the action text.
            prev: digest of the previous entry, or the genesis digest.

        Returns:
            The 64-character hex digest of ``seq|timestamp|actor|action_hash|prev``.

        >>> len(AuditChain()._link(0, 1, "ada", "ab", "00"))
        64
        """
        return self._sha(f"{seq}|{timestamp}|{actor}|{action_hash}|{prev}")

    def head(self) -> str:
        """Return the digest of the newest entry, or the genesis digest if empty.

        Returns:
            A 64-character hex digest.

        >>> AuditChain(genesis="f" * 64).head() == "f" * 64
        True
        """
        return str(self._entries[-1]["digest"]) if self._entries else self._genesis

    def append(self, actor: str, action: str, timestamp: int | None = None) -> str:
        """Record that ``actor`` performed ``action`` at ``timestamp``.

        Args:
            actor: who did it; non-empty, without ``|``.
            action: what happened; non-empty, without ``|``, not the redaction marker.
            timestamp: seconds; must not be smaller than the previous entry's. None
                (the default) stamps the entry with the log's clock (:meth:`set_clock`).

        Returns:
            The digest of the new entry (the new head).

        Raises:
            ValueError: on an empty or invalid field or a timestamp going backwards.
                A failed call leaves the log unchanged.

        >>> AuditChain().append("ada", "login", 5) == AuditChain().append("ada", "login", 5)
        True
        """
        for value in (actor, action):
            if not value or "|" in value:
                raise ValueError(f"invalid field {value!r}")
        if action == self.REDACTED:
            raise ValueError("action may not be the redaction marker")
        if timestamp is None:
            timestamp = self._clock
        if self._entries and timestamp < int(self._entries[-1]["ts"]):
            raise ValueError("timestamp goes backwards")
        seq = len(self._entries)
        prev = self.head()
        action_hash = self._sha(action)
        digest = self._link(seq, timestamp, actor, action_hash, prev)
        self._entries.append({"seq": seq, "ts": timestamp, "actor": actor, "action": action,
                              "action_hash": action_hash, "prev": prev, "digest": digest})
        return digest

    def first_broken(self) -> int:
        """Return the index of the first entry that fails verification, or -1.

        An entry fails when its sequence number, previous-digest link, action
        hash (unless redacted), timestamp order or own digest is wrong.

        Returns:
            The zero-based index of the first bad entry, or -1 if the chain is intact.

        >>> AuditChain().first_broken()
        -1
        """
        prev, last_ts = self._genesis, None
        for index, entry in enumerate(self._entries):
            ts = int(entry["ts"])
            action = str(entry["action"])
            action_hash = str(entry["action_hash"])
            expected = self._link(index, ts, str(entry["actor"]), action_hash, prev)
            if (entry["seq"] != index or entry["prev"] != prev or entry["digest"] != expected
                    or (last_ts is not None and ts < last_ts)
                    or (action != self.REDACTED and self._sha(action) != action_hash)):
                return index
            prev, last_ts = expected, ts
        return -1

    def verify(self) -> bool:
        """Return True when the whole chain is intact.

        Returns:
            True if ``first_broken`` finds no bad entry, False otherwise.

        >>> log = AuditChain()
        >>> _ = log.append("bob", "rotate key", 1)
        >>> log.verify()
        True
        """
        return self.first_broken() == -1

    def redact(self, seq: int) -> str:
        """Replace the action text of entry ``seq`` with the redaction marker.

        The digests are unchanged, so the chain still verifies.

        Args:
            seq: sequence number of the entry to redact.

        Returns:
            The action text that was removed.

        Raises:
            IndexError: if no entry has that sequence number.
            ValueError: if the entry is already redacted.

        >>> log = AuditChain()
        >>> _ = log.append("ada", "viewed patient 42", 7)
        >>> log.redact(0)
        'viewed patient 42'
        """
        if not 0 <= seq < len(self._entries):
            raise IndexError(f"no entry {seq}")
        entry = self._entries[seq]
        if entry["action"] == self.REDACTED:
            raise ValueError(f"entry {seq} is already redacted")
        removed = str(entry["action"])
        entry["action"] = self.REDACTED
        return removed

    def entries_by(self, actor: str) -> list[tuple[int, str]]:
        """Return ``(seq, action)`` for every entry by ``actor``, oldest first.

        Args:
            actor: the actor to filter on (exact match).

        Returns:
            A list of ``(seq, action)`` tuples; empty if the actor has no entries.

        >>> AuditChain().entries_by("ada")
        []
        """
        return [(int(e["seq"]), str(e["action"])) for e in self._entries if e["actor"] == actor]

    def export_lines(self) -> list[str]:
        """Serialise the log as ``seq|ts|actor|action|action_hash|prev|digest`` lines.

        Returns:
            One line per entry, oldest first; an empty list for an empty log.

        >>> log = AuditChain()
        >>> _ = log.append("ada", "login", 1)
        >>> log.export_lines()[0].split("|")[:4]
        ['0', '1', 'ada', 'login']
        """
        fields = ("seq", "ts", "actor", "action", "action_hash", "prev", "digest")
        return ["|".join(str(entry[name]) for name in fields) for entry in self._entries]

    def import_lines(self, lines: list[str]) -> int:
        """Replace the log with entries read from ``export_lines`` output.

        The imported chain must verify against this log's genesis digest;
        otherwise the current entries are kept.

        Args:
            lines: lines in the format written by ``export_lines``, oldest first.

        Returns:
            The number of entries loaded.

        Raises:
            ValueError: if a line is malformed or the chain is broken; a broken
                chain gives the message "chain broken at entry <index>", naming
                the first broken index.

        >>> source = AuditChain()
        >>> _ = source.append("ada", "login", 1)
        >>> AuditChain().import_lines(source.export_lines())
        1
        """
        parsed: list[dict[str, str | int]] = []
        for line in lines:
            parts = line.split("|")
            if len(parts) != 7:
                raise ValueError(f"malformed line {line!r}")
            seq, ts, actor, action, action_hash, prev, digest = parts
            parsed.append({"seq": int(seq), "ts": int(ts), "actor": actor, "action": action,
                           "action_hash": action_hash, "prev": prev, "digest": digest})
        previous = self._entries
        self._entries = parsed
        broken = self.first_broken()
        if broken != -1:
            self._entries = previous
            raise ValueError(f"chain broken at entry {broken}")
        return len(parsed)
