import sqlite3


class StockAndLedger:
    """A stockroom and a sales ledger in a sqlite3 database, kept separately.

    Sales are booked in the ledger by the caller; the stockroom's takings are not booked.
    """

    def __init__(self):
        """Open an empty stockroom and an empty ledger database."""
        self.stock = {}
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE TABLE sales (item TEXT, amount INTEGER)")

    def receive(self, item, quantity):
        """Put `quantity` units of `item` in stock.

        :raises ValueError: if `quantity` is not positive; the stock is then left unchanged.
        """
        if quantity <= 0:
            raise ValueError(quantity)
        self.stock[item] = self.stock.get(item, 0) + quantity

    def take(self, item, quantity):
        """Take `quantity` units of `item` out of stock; returns the units left.

        :raises ValueError: if fewer are in stock; the stock is then left unchanged.
        """
        if self.stock.get(item, 0) < quantity:
            raise ValueError(item)
        self.stock[item] -= quantity
        return self.stock[item]

    def book(self, item, amount):
        """Book a sale of `item` for `amount` cents in the ledger."""
        with self.db:
            self.db.execute("INSERT INTO sales VALUES (?, ?)", (item, amount))

    def revenue(self):
        """Return the booked amounts' total.

        :raises sqlite3.Error: if the ledger is closed.
        """
        return self.db.execute("SELECT COALESCE(SUM(amount), 0) FROM sales").fetchone()[0]

    def close(self):
        """Close the ledger."""
        self.db.close()
