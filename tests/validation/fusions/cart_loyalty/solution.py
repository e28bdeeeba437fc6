class LoyaltyCheckout:
    """A shopping cart that pays out loyalty points at checkout.

    A checkout earns one point per whole ten currency units of the cart's total; points can be redeemed
    later for a discount on a checkout, one unit off per point.
    """

    def __init__(self):
        """Start with an empty cart and no points."""
        self.lines = {}
        self.discount = 0
        self.points = 0
        self.history = []

    def add(self, item, price, quantity=1):
        """Put `quantity` of `item` at `price` each into the cart.

        :raises ValueError: if `price` is negative or `quantity` is not positive; the cart is then left
            unchanged.
        """
        if price < 0 or quantity <= 0:
            raise ValueError(item)
        old_price, old_quantity = self.lines.get(item, (price, 0))
        self.lines[item] = (price, old_quantity + quantity)

    def total(self):
        """Return the cart's total: each line's price times its quantity, less the redeemed discount."""
        return max(0, sum(p * q for p, q in self.lines.values()) - self.discount)

    def redeem(self, points):
        """Spend `points` points for a discount of as many units on this cart.

        :raises ValueError: if `points` is not positive or more than the balance; the balance is then left
            unchanged.
        """
        if points <= 0 or points > self.points:
            raise ValueError(points)
        self.points -= points
        self.discount += points

    def checkout(self):
        """Pay for the cart, earn its points and empty it; returns the amount paid."""
        paid = self.total()
        self.earn(paid // 10)
        self.lines.clear()
        self.discount = 0
        return paid

    def earn(self, points):
        """Add `points` points to the balance (0 is allowed and recorded too)."""
        self.points += points
        self.history.append(points)

    def balance(self):
        """Return the points balance."""
        return self.points

    def earned(self):
        """Return the points earned so far, redeemed ones included."""
        return sum(self.history)
