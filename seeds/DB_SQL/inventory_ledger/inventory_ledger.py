"""A FIFO-valued inventory ledger stored in an in-memory SQLite database."""

import sqlite3


class InventoryLedger:
    """Stock per SKU kept as cost layers (lots) plus a journal of movements.

    Quantities are whole units and money is integer cents, so results are exact.
    Outgoing stock always consumes the oldest lots first (FIFO).

    >>> ledger = InventoryLedger()
    >>> ledger.receive("BOLT", 100, 5)
    1
    >>> ledger.receive("BOLT", 50, 8)
    2
    >>> ledger.ship("BOLT", 120, "SO-1")
    660
    >>> ledger.on_hand("BOLT"), ledger.valuation("BOLT")
    (30, 240)
    """

    def __init__(self) -> None:
        """Open an empty ledger in a private in-memory database."""
        self.conn = sqlite3.connect(":memory:")
        self.conn.executescript(
            """
            CREATE TABLE lots (id INTEGER PRIMARY KEY, sku TEXT NOT NULL,
                               qty_left INTEGER NOT NULL, unit_cost INTEGER NOT NULL);
            CREATE TABLE movements (id INTEGER PRIMARY KEY, sku TEXT NOT NULL, delta INTEGER NOT NULL,
                                    kind TEXT NOT NULL, cost INTEGER NOT NULL, note TEXT NOT NULL);
            """
        )
        self.last_cost: dict[str, int] = {}
        self.reorder_points: dict[str, int] = {}

    def _journal(self, sku: str, delta: int, kind: str, cost: int, note: str) -> int:
        """Append a movement and return its id."""
        cursor = self.conn.execute(
            "INSERT INTO movements (sku, delta, kind, cost, note) VALUES (?, ?, ?, ?, ?)",
            (sku, delta, kind, cost, note),
        )
        return int(cursor.lastrowid)

    def receive(self, sku: str, qty: int, unit_cost: int) -> int:
        """Book incoming stock as a new cost layer.

        Args:
            sku: item code.
            qty: units received, at least 1.
            unit_cost: cost per unit in cents, at least 0.

        Returns:
            The id of the journal movement.

        Raises:
            ValueError: if ``qty`` < 1 or ``unit_cost`` < 0.

        >>> InventoryLedger().receive("NUT", 0, 3)
        Traceback (most recent call last):
        ...
        ValueError: quantity must be positive
        """
        if qty < 1:
            raise ValueError("quantity must be positive")
        if unit_cost < 0:
            raise ValueError("unit cost cannot be negative")
        self.conn.execute("INSERT INTO lots (sku, qty_left, unit_cost) VALUES (?, ?, ?)", (sku, qty, unit_cost))
        self.last_cost[sku] = unit_cost
        return self._journal(sku, qty, "receive", qty * unit_cost, "")

    def on_hand(self, sku: str) -> int:
        """Return the units in stock for a SKU (0 if unknown).

        Args:
            sku: item code.

        Returns:
            The quantity on hand.

        >>> InventoryLedger().on_hand("GHOST")
        0
        """
        row = self.conn.execute("SELECT COALESCE(SUM(qty_left), 0) FROM lots WHERE sku = ?", (sku,)).fetchone()
        return int(row[0])

    def _consume(self, sku: str, qty: int) -> int:
        """Take ``qty`` units from the oldest lots and return their cost in cents."""
        if qty > self.on_hand(sku):
            raise ValueError(f"only {self.on_hand(sku)} of {sku!r} on hand, {qty} requested")
        cost, remaining = 0, qty
        lots = self.conn.execute(
            "SELECT id, qty_left, unit_cost FROM lots WHERE sku = ? AND qty_left > 0 ORDER BY id", (sku,)
        ).fetchall()
        for lot_id, available, unit_cost in lots:
            if remaining == 0:
                break
            taken = min(available, remaining)
            self.conn.execute("UPDATE lots SET qty_left = qty_left - ? WHERE id = ?", (taken, lot_id))
            cost += taken * unit_cost
            remaining -= taken
        return cost

    def ship(self, sku: str, qty: int, order: str) -> int:
        """Book outgoing stock for an order.

        Args:
            sku: item code.
            qty: units shipped, at least 1.
            order: reference of the order the goods leave for, kept in the journal
                (an empty text when there is none).

        Returns:
            The cost of the goods shipped in cents (FIFO).

        Raises:
            ValueError: if ``qty`` < 1 or exceeds the stock on hand (nothing is booked).

        >>> ledger = InventoryLedger()
        >>> _ = ledger.receive("CAP", 2, 10)
        >>> ledger.ship("CAP", 3, "SO-2")
        Traceback (most recent call last):
        ...
        ValueError: only 2 of 'CAP' on hand, 3 requested
        """
        if qty < 1:
            raise ValueError("quantity must be positive")
        cost = self._consume(sku, qty)
        self._journal(sku, -qty, "ship", cost, order)
        return cost

    def adjust(self, sku: str, delta: int, reason: str) -> int:
        """Correct the stock after a count: negative for losses, positive for found units.

        Losses consume the oldest lots; found units form a new lot valued at the
        last receipt cost of the SKU (0 if it was never received).

        Args:
            sku: item code.
            delta: change in units, not zero.
            reason: explanation kept in the journal (required).

        Returns:
            The new quantity on hand.

        Raises:
            ValueError: if ``delta`` is 0, ``reason`` is blank, or a loss exceeds the stock.

        >>> ledger = InventoryLedger()
        >>> _ = ledger.receive("PIN", 10, 2)
        >>> ledger.adjust("PIN", -3, "damaged"), ledger.adjust("PIN", 1, "found")
        (7, 8)
        """
        if delta == 0:
            raise ValueError("adjustment must change the quantity")
        if not reason.strip():
            raise ValueError("an adjustment needs a reason")
        if delta < 0:
            cost = -self._consume(sku, -delta)
        else:
            unit_cost = self.last_cost.get(sku, 0)
            self.conn.execute("INSERT INTO lots (sku, qty_left, unit_cost) VALUES (?, ?, ?)", (sku, delta, unit_cost))
            cost = delta * unit_cost
        self._journal(sku, delta, "adjust", cost, reason.strip())
        return self.on_hand(sku)

    def valuation(self, sku: str = "") -> int:
        """Return the value of the remaining stock at its FIFO layer costs.

        Args:
            sku: item code; empty for the whole inventory.

        Returns:
            The value in cents.

        >>> ledger = InventoryLedger()
        >>> _ = ledger.receive("A", 2, 150), ledger.receive("B", 1, 99)
        >>> ledger.valuation(), ledger.valuation("B")
        (399, 99)
        """
        query = "SELECT COALESCE(SUM(qty_left * unit_cost), 0) FROM lots"
        params: tuple[str, ...] = ()
        if sku:
            query += " WHERE sku = ?"
            params = (sku,)
        return int(self.conn.execute(query, params).fetchone()[0])

    def movements(self, sku: str) -> list[str]:
        """Return the journal of one SKU, oldest first.

        Args:
            sku: item code.

        Returns:
            Lines ``"<kind> <signed qty> cost=<cents>"`` plus ``" (<note>)"`` when a note exists.

        >>> ledger = InventoryLedger()
        >>> _ = ledger.receive("A", 3, 10)
        >>> _ = ledger.ship("A", 1, "SO-1")
        >>> ledger.movements("A")
        ['receive +3 cost=30', 'ship -1 cost=10 (SO-1)']
        """
        rows = self.conn.execute("SELECT kind, delta, cost, note FROM movements WHERE sku = ? ORDER BY id", (sku,))
        return [f"{kind} {delta:+d} cost={cost}" + (f" ({note})" if note else "") for kind, delta, cost, note in rows]

    def set_reorder_point(self, sku: str, level: int) -> None:
        """Ask to be reminded when a SKU's stock falls to ``level`` or below.

        Args:
            sku: item code.
            level: threshold in units; a negative level removes the reminder.

        >>> ledger = InventoryLedger()
        >>> ledger.set_reorder_point("A", 5)
        >>> ledger.reorder_list()
        ['A']
        """
        if level < 0:
            self.reorder_points.pop(sku, None)
        else:
            self.reorder_points[sku] = level

    def reorder_list(self) -> list[str]:
        """List SKUs at or below their reorder point, sorted.

        Returns:
            The SKUs to reorder.

        >>> ledger = InventoryLedger()
        >>> _ = ledger.receive("A", 10, 1)
        >>> ledger.set_reorder_point("A", 9)
        >>> ledger.reorder_list()
        []
        """
        return sorted(sku for sku, level in self.reorder_points.items() if self.on_hand(sku) <= level)
