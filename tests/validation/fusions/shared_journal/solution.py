class JournaledShop:
    """A stockroom and a loyalty account that both write to one journal.

    Every change of either half adds a line to the journal; the halves never read each other.
    """

    def __init__(self):
        """Start with no stock, no points and an empty journal."""
        self.stock = {}
        self.points = 0
        self.journal = []

    def receive(self, item, quantity):
        """Put `quantity` units of `item` in stock.

        :raises ValueError: if `quantity` is not positive; the stock is then left unchanged.
        """
        if quantity <= 0:
            raise ValueError(quantity)
        self.stock[item] = self.stock.get(item, 0) + quantity
        self.journal.append(f"received {quantity} {item}")

    def take(self, item, quantity):
        """Take `quantity` units of `item` out of stock.

        :raises ValueError: if fewer are in stock; the stock is then left unchanged.
        """
        if self.stock.get(item, 0) < quantity:
            raise ValueError(item)
        self.stock[item] -= quantity
        self.journal.append(f"took {quantity} {item}, {self.stock[item]} left")

    def in_stock(self, item):
        """Return the units of `item` in stock."""
        return self.stock.get(item, 0)

    def earn(self, points):
        """Add `points` to the loyalty balance."""
        self.points += points
        self.journal.append(f"earned {points}, balance {self.points}")

    def balance(self):
        """Return the loyalty balance."""
        return self.points

    def journal_size(self):
        """Return how many lines the journal holds."""
        return len(self.journal)
