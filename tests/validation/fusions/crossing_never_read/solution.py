class OrderQuotes:
    """A warehouse's orders and a carrier's quote book.

    Quoting an order keeps the carrier's price for its weight in the quote book.
    """

    def __init__(self, per_kg):
        """Set the carrier's price `per_kg` per started kilogram."""
        self.weights = {}
        self.orders = {}
        self.per_kg = per_kg
        self.quotes = {}

    def define_item(self, item, grams):
        """Record that one `item` weighs `grams` grams."""
        self.weights[item] = grams

    def add_to_order(self, order_id, item):
        """Put one `item` into order `order_id`.

        :raises KeyError: if `item` has no weight; the order is then left unchanged.
        """
        grams = self.weights[item]
        self.orders.setdefault(order_id, []).append(grams)

    def order_weight(self, order_id):
        """Return the weight of order `order_id` in grams (0 for an unknown order)."""
        return sum(self.orders.get(order_id, []))

    def quote_order(self, order_id):
        """Keep the carrier's price for the weight of order `order_id` and return it."""
        self.quotes[order_id] = self.per_kg * -(-self.order_weight(order_id) // 1000)
        return self.quotes[order_id]

    def quoted_total(self):
        """Return the sum of the quotes kept."""
        return sum(self.quotes.values())
