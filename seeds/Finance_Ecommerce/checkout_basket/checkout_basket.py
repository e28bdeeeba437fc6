"""A shopping basket with stock checks, coupons and shipping, in integer cents."""


class CheckoutBasket:
    """A customer's basket priced in cents against a fixed catalogue.

    Coupons: ``SAVE10`` takes 10% off a subtotal of at least 20.00, ``TAKE5``
    takes 5.00 off a subtotal of at least 30.00, ``FREESHIP`` waives shipping.
    At most one of the two discount coupons may be applied. A coupon whose
    minimum spend is no longer met (items were removed) stays on the basket but
    gives no discount until the subtotal is high enough again. Shipping costs
    4.99 below 50.00 of discounted goods and is free from 50.00 or with FREESHIP.

    >>> b = CheckoutBasket({"mug": 1250, "tea": 800}, {"mug": 5, "tea": 9})
    >>> b.add_item("mug", 2)
    2
    >>> b.apply_coupon("SAVE10")
    250
    >>> b.total()
    2749
    """

    COUPONS = {
        "SAVE10": ("percent", 10, 2000),
        "TAKE5": ("fixed", 500, 3000),
        "FREESHIP": ("shipping", 0, 0),
    }
    SHIPPING_FEE = 499
    FREE_SHIPPING_FROM = 5000

    def __init__(self, catalogue: dict[str, int], stock: dict[str, int]) -> None:
        """Create an empty basket.

        :param catalogue: SKU -> unit price in cents.
        :param stock: SKU -> units available; SKUs missing here have no stock.

        >>> CheckoutBasket({"tea": 800}, {"tea": 3}).total()
        0
        """
        self.catalogue = dict(catalogue)
        self.stock = dict(stock)
        self.lines: dict[str, int] = {}
        self.coupons: list[str] = []

    def add_item(self, sku: str, quantity: int = 1) -> int:
        """Put ``quantity`` units of ``sku`` in the basket.

        :param sku: a catalogue SKU.
        :param quantity: units to add, at least 1.
        :return: the quantity of that SKU now in the basket.
        :raises KeyError: if the SKU is not in the catalogue.
        :raises ValueError: if the quantity is below 1 or exceeds the stock left.

        >>> b = CheckoutBasket({"tea": 800}, {"tea": 3})
        >>> b.add_item("tea"), b.add_item("tea", 2)
        (1, 3)
        """
        if sku not in self.catalogue:
            raise KeyError(sku)
        if quantity < 1:
            raise ValueError("quantity must be at least 1")
        wanted = self.lines.get(sku, 0) + quantity
        if wanted > self.stock.get(sku, 0):
            raise ValueError(f"only {self.stock.get(sku, 0)} of {sku} in stock")
        self.lines[sku] = wanted
        return wanted

    def remove_item(self, sku: str, quantity: int | None = None) -> int:
        """Take units of ``sku`` out of the basket.

        :param sku: a SKU in the basket.
        :param quantity: units to remove; None removes the whole line.
        :return: the quantity left in the basket (0 when the line is gone).
        :raises KeyError: if the SKU is not in the basket.
        :raises ValueError: if ``quantity`` is below 1 or more than the basket holds.

        >>> b = CheckoutBasket({"tea": 800}, {"tea": 3})
        >>> _ = b.add_item("tea", 3)
        >>> b.remove_item("tea", 1)
        2
        """
        if sku not in self.lines:
            raise KeyError(sku)
        held = self.lines[sku]
        quantity = held if quantity is None else quantity
        if not 1 <= quantity <= held:
            raise ValueError(f"cannot remove {quantity} of {held}")
        if quantity == held:
            del self.lines[sku]
            return 0
        self.lines[sku] = held - quantity
        return held - quantity

    def subtotal(self) -> int:
        """Price of the goods before coupons and shipping.

        :return: the sum of unit price times quantity over all lines, in cents.

        >>> CheckoutBasket({"tea": 800}, {"tea": 3}).subtotal()
        0
        """
        return sum(self.catalogue[sku] * qty for sku, qty in self.lines.items())

    def discount(self) -> int:
        """Discount from the applied coupons whose minimum spend is met, in cents.

        Percentage discounts are rounded down to whole cents.

        :return: the discount in cents (0 when no coupon applies).

        >>> CheckoutBasket({"tea": 800}, {"tea": 3}).discount()
        0
        """
        subtotal = self.subtotal()
        total = 0
        for code in self.coupons:
            kind, amount, minimum = self.COUPONS[code]
            if subtotal < minimum:
                continue
            if kind == "percent":
                total += subtotal * amount // 100
            elif kind == "fixed":
                total += amount
        return total

    def apply_coupon(self, code: str) -> int:
        """Apply a coupon code.

        :param code: one of ``SAVE10``, ``TAKE5``, ``FREESHIP``.
        :return: the basket's discount in cents after applying it.
        :raises ValueError: if the code is unknown, already applied, a second
            discount coupon, or its minimum spend is not met.

        >>> b = CheckoutBasket({"tea": 800}, {"tea": 3})
        >>> b.apply_coupon("FREESHIP")
        0
        """
        if code not in self.COUPONS:
            raise ValueError(f"unknown coupon {code!r}")
        if code in self.coupons:
            raise ValueError(f"coupon {code} is already applied")
        kind, _, minimum = self.COUPONS[code]
        if kind != "shipping" and any(self.COUPONS[c][0] != "shipping" for c in self.coupons):
            raise ValueError("only one discount coupon per basket")
        if self.subtotal() < minimum:
            raise ValueError(f"coupon {code} needs a subtotal of at least {minimum} cents")
        self.coupons.append(code)
        return self.discount()

    def remove_coupon(self, code: str) -> None:
        """Remove an applied coupon.

        :param code: an applied coupon code.
        :raises KeyError: if the coupon is not applied.

        >>> b = CheckoutBasket({"tea": 800}, {"tea": 3})
        >>> b.apply_coupon("FREESHIP")
        0
        >>> b.remove_coupon("FREESHIP")
        """
        if code not in self.coupons:
            raise KeyError(code)
        self.coupons.remove(code)

    def shipping(self) -> int:
        """Shipping fee: free for an empty basket, with FREESHIP, or from 50.00 of discounted goods.

        :return: the fee in cents (0 or 499).

        >>> b = CheckoutBasket({"tea": 800}, {"tea": 3})
        >>> _ = b.add_item("tea")
        >>> b.shipping()
        499
        """
        if not self.lines or "FREESHIP" in self.coupons:
            return 0
        if self.subtotal() - self.discount() >= self.FREE_SHIPPING_FROM:
            return 0
        return self.SHIPPING_FEE

    def total(self) -> int:
        """Amount to pay: subtotal minus discount plus shipping.

        :return: the total in cents.

        >>> b = CheckoutBasket({"tea": 800}, {"tea": 3})
        >>> _ = b.add_item("tea")
        >>> b.total()
        1299
        """
        return self.subtotal() - self.discount() + self.shipping()

    def receipt(self) -> list[str]:
        """Printable receipt lines: one per SKU (sorted), then discount, shipping and total.

        Amounts are shown as units.cents; the discount line only appears when non-zero.

        :return: the receipt lines, in order.

        >>> b = CheckoutBasket({"tea": 800}, {"tea": 3})
        >>> _ = b.add_item("tea", 2)
        >>> b.receipt()
        ['tea x2 16.00', 'shipping 4.99', 'total 20.99']
        """
        def money(cents: int) -> str:
            return f"{cents // 100}.{cents % 100:02d}"

        lines = [f"{sku} x{qty} {money(self.catalogue[sku] * qty)}" for sku, qty in sorted(self.lines.items())]
        discount = self.discount()
        if discount:
            lines.append(f"discount -{money(discount)}")
        lines.append(f"shipping {money(self.shipping())}")
        lines.append(f"total {money(self.total())}")
        return lines
