import sqlite3


class StockroomSales:
    """A shop's stockroom whose sales are booked in a sqlite3 database held in memory.

    Selling takes the goods out of stock and books the sale (item, quantity and its price at the time of
    sale) in the sales database; revenue and the per-item sales figures are read back from the database.
    Once the database is closed, reading it raises ``sqlite3.Error``.
    """

    def __init__(self):
        """Open an empty stockroom and an empty sales database."""
        self.stock = {}
        self.prices = {}
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE TABLE sales (item TEXT, quantity INTEGER, amount INTEGER)")

    def receive(self, item, quantity, price):
        """Put `quantity` units of `item` in stock, sold from now on at `price` cents each.

        :raises ValueError: if `quantity` is not positive or `price` is negative; the stock is then left
            unchanged.
        """
        if quantity <= 0 or price < 0:
            raise ValueError("bad delivery")
        self.stock[item] = self.stock.get(item, 0) + quantity
        self.prices[item] = price

    def sell(self, item, quantity):
        """Sell `quantity` units of `item` from stock and book the sale; returns its amount in cents.

        :raises KeyError: if `item` was never received.
        :raises ValueError: if fewer than `quantity` units are in stock; the stock is then left unchanged.
        """
        if self.stock[item] < quantity:
            raise ValueError("not enough stock")
        self.stock[item] -= quantity
        amount = quantity * self.prices[item]
        self._book(item, quantity, amount)
        return amount

    def in_stock(self, item):
        """Return how many units of `item` are in stock (0 for an unknown item)."""
        return self.stock.get(item, 0)

    def _book(self, item, quantity, amount):
        with self.db:
            self.db.execute("INSERT INTO sales VALUES (?, ?, ?)", (item, quantity, amount))

    def revenue(self):
        """Return the total amount of the booked sales in cents.

        :raises sqlite3.Error: if the database is closed.
        """
        return self.db.execute("SELECT COALESCE(SUM(amount), 0) FROM sales").fetchone()[0]

    def units_sold(self, item):
        """Return how many units of `item` the booked sales hold.

        :raises sqlite3.Error: if the database is closed.
        """
        row = self.db.execute("SELECT COALESCE(SUM(quantity), 0) FROM sales WHERE item = ?", (item,)).fetchone()
        return row[0]

    def close(self):
        """Close the sales database; the stock stays readable."""
        self.db.close()
