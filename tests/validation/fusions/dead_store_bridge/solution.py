class DepotRates:
    """A warehouse's orders and a carrier's rates, with a note of the last order weighed.

    Weighing an order notes its weight; the carrier's prices are asked for a weight given by the caller.
    """

    def __init__(self, base_fee, per_kg):
        """Set the carrier's `base_fee` and price `per_kg` per started kilogram."""
        self.weights = {}
        self.orders = {}
        self.base_fee = base_fee
        self.per_kg = per_kg
        self.last_weighed = 0

    def define_item(self, item, grams):
        """Record that one `item` weighs `grams` grams.

        :raises ValueError: if `grams` is not positive; the items are then left unchanged.
        """
        if grams <= 0:
            raise ValueError(item)
        self.weights[item] = grams

    def add_to_order(self, order_id, item):
        """Put one `item` into order `order_id`.

        :raises KeyError: if `item` has no weight; the order is then left unchanged.
        """
        if item not in self.weights:
            raise KeyError(item)
        self.orders.setdefault(order_id, []).append(item)

    def order_weight(self, order_id):
        """Return the weight of order `order_id` in grams (0 for an unknown order)."""
        return sum(self.weights[i] for i in self.orders.get(order_id, []))

    def weigh(self, order_id):
        """Weigh order `order_id`, note the weight and return it in grams."""
        self.last_weighed = self.order_weight(order_id)
        return self.last_weighed

    def price(self, grams):
        """Return the carrier's price in cents for `grams` grams."""
        return self.base_fee + self.per_kg * -(-grams // 1000)
