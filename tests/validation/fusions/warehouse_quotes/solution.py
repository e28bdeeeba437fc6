class WarehouseShipping:
    """A warehouse's orders and the carrier's price list, so that an order can be quoted for shipping.

    The warehouse knows what each order holds and what each item weighs; the carrier charges a base fee per
    parcel plus a price per started kilogram. Quoting an order prices its weight and keeps the quote, so
    that the quotes given can be totalled.
    """

    def __init__(self, base_fee, per_kg):
        """Set the carrier's `base_fee` per parcel and its price `per_kg` per started kilogram (cents)."""
        self.weights = {}
        self.orders = {}
        self.base_fee = base_fee
        self.per_kg = per_kg
        self.quotes = {}

    def define_item(self, item, grams):
        """Record that one `item` weighs `grams` grams.

        :raises ValueError: if `grams` is not positive; the items are then left unchanged.
        """
        if grams <= 0:
            raise ValueError(item)
        self.weights[item] = grams

    def add_to_order(self, order_id, item, count=1):
        """Put `count` of `item` into order `order_id` (a new order is opened on first use); returns the
        weight in grams of all the `item`s the order now holds.

        :raises KeyError: if `item` has no weight.
        """
        grams = self.weights[item]
        lines = self.orders.setdefault(order_id, {})
        lines[item] = lines.get(item, 0) + count
        return grams * lines[item]

    def order_weight(self, order_id):
        """Return the weight of order `order_id` in grams (0 for an unknown order)."""
        return sum(self.weights[i] * n for i, n in self.orders.get(order_id, {}).items())

    def price(self, grams):
        """Return the carrier's price in cents for a parcel of `grams` grams."""
        return self.base_fee + self.per_kg * -(-grams // 1000)

    def quote_order(self, order_id):
        """Quote order `order_id` for shipping at the carrier's price for its weight, keep the quote and
        return it in cents.

        :raises KeyError: if there is no order `order_id`; the quotes are then left unchanged.
        """
        if order_id not in self.orders:
            raise KeyError(order_id)
        self.quotes[order_id] = self.price(self.order_weight(order_id))
        return self.quotes[order_id]

    def quoted_total(self):
        """Return the sum of the quotes kept, in cents (a requote replaces an order's quote)."""
        return sum(self.quotes.values())
