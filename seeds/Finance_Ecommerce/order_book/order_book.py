"""A price-time priority limit order book for one instrument."""


class OrderBook:
    """Match buy and sell orders for one instrument; prices are integer ticks.

    Resting orders are ranked by best price first (highest bid, lowest ask),
    then by arrival. An incoming order trades at the resting order's price for
    as long as prices cross; any rest of a limit order joins the book, the rest
    of a market order is dropped.

    >>> book = OrderBook()
    >>> book.submit_limit("sell", 101, 5, "ann")
    1
    >>> book.submit_limit("buy", 102, 3, "bob")
    2
    >>> book.last_price(), book.remaining(1)
    (101, 2)
    """

    def __init__(self) -> None:
        """Create an empty book.

        >>> OrderBook().spread() is None
        True
        """
        self.orders: dict[int, dict] = {}
        self.bids: list[int] = []
        self.asks: list[int] = []
        self.trades: list[tuple[int, int, int, int]] = []
        self.next_id = 1

    def _new_order(self, side: str, price: int | None, quantity: int, trader: str) -> int:
        """Validate and register an order without placing it in the book.

        :param side: ``"buy"`` or ``"sell"``.
        :param price: limit price in ticks, > 0, or None for a market order.
        :param quantity: units, > 0.
        :param trader: who placed it.
        :return: the new order id.
        :raises ValueError: if the side is unknown or price/quantity is not positive.

        >>> OrderBook()._new_order("buy", None, 5, "bob")
        1
        """
        if side not in ("buy", "sell"):
            raise ValueError(f"side must be 'buy' or 'sell', not {side!r}")
        if quantity < 1 or (price is not None and price < 1):
            raise ValueError("quantity and price must be positive")
        order_id = self.next_id
        self.next_id += 1
        self.orders[order_id] = {"side": side, "price": price, "remaining": quantity, "trader": trader}
        return order_id

    def _match(self, order_id: int) -> int:
        """Trade ``order_id`` against the opposite side while prices cross.

        :param order_id: a registered order not resting in the book.
        :return: the quantity filled.

        >>> book = OrderBook()
        >>> _ = book.submit_limit("sell", 10, 3, "ann")
        >>> book._match(book._new_order("buy", 11, 5, "bob"))
        3
        """
        order = self.orders[order_id]
        buying = order["side"] == "buy"
        opposite = self.asks if buying else self.bids
        filled = 0
        while order["remaining"] and opposite:
            resting = self.orders[opposite[0]]
            limit = order["price"]
            if limit is not None and (resting["price"] > limit if buying else resting["price"] < limit):
                break
            quantity = min(order["remaining"], resting["remaining"])
            order["remaining"] -= quantity
            resting["remaining"] -= quantity
            filled += quantity
            buy_id, sell_id = (order_id, opposite[0]) if buying else (opposite[0], order_id)
            self.trades.append((buy_id, sell_id, resting["price"], quantity))
            if resting["remaining"] == 0:
                opposite.pop(0)
        return filled

    def submit_limit(self, side: str, price: int, quantity: int, trader: str) -> int:
        """Submit a limit order; it trades at once where prices cross and the rest rests.

        :param side: ``"buy"`` or ``"sell"``.
        :param price: limit price in ticks, > 0.
        :param quantity: units, > 0.
        :param trader: who placed it.
        :return: the order id (1, 2, ...).
        :raises ValueError: if the side is unknown or price/quantity is not positive.

        >>> OrderBook().submit_limit("buy", 99, 10, "bob")
        1
        """
        order_id = self._new_order(side, price, quantity, trader)
        self._match(order_id)
        if self.orders[order_id]["remaining"]:
            queue = self.bids if side == "buy" else self.asks
            queue.append(order_id)
            sign = -1 if side == "buy" else 1
            queue.sort(key=lambda oid: (sign * self.orders[oid]["price"], oid))
        return order_id

    def submit_market(self, side: str, quantity: int, trader: str) -> int:
        """Submit a market order: trade against the best prices, drop whatever is left.

        :param side: ``"buy"`` or ``"sell"``.
        :param quantity: units, > 0.
        :param trader: who placed it.
        :return: the quantity filled (0 when the other side is empty).
        :raises ValueError: if the side is unknown or the quantity is not positive.

        >>> book = OrderBook()
        >>> _ = book.submit_limit("sell", 50, 4, "ann")
        >>> book.submit_market("buy", 10, "bob")
        4
        """
        order_id = self._new_order(side, None, quantity, trader)
        filled = self._match(order_id)
        self.orders[order_id]["remaining"] = 0
        return filled

    def cancel(self, order_id: int) -> int:
        """Withdraw a resting order.

        :param order_id: id of an order resting in the book.
        :return: the quantity that was still open.
        :raises KeyError: if no such order is resting in the book.

        >>> book = OrderBook()
        >>> book.cancel(book.submit_limit("buy", 99, 10, "bob"))
        10
        """
        for queue in (self.bids, self.asks):
            if order_id in queue:
                queue.remove(order_id)
                open_quantity = self.orders[order_id]["remaining"]
                self.orders[order_id]["remaining"] = 0
                return open_quantity
        raise KeyError(order_id)

    def remaining(self, order_id: int) -> int:
        """Open quantity of an order.

        :param order_id: an issued order id.
        :return: units still open (0 once filled, cancelled or for a finished market order).
        :raises KeyError: if the order id was never issued.

        >>> book = OrderBook()
        >>> book.remaining(book.submit_limit("buy", 99, 10, "bob"))
        10
        """
        return self.orders[order_id]["remaining"]

    def best_bid(self) -> int | None:
        """Highest resting buy price.

        :return: the price, or None when there are no bids.

        >>> OrderBook().best_bid() is None
        True
        """
        if not self.bids:
            return None
        return self.orders[self.bids[0]]["price"]

    def best_ask(self) -> int | None:
        """Lowest resting sell price.

        :return: the price, or None when there are no asks.

        >>> book = OrderBook()
        >>> _ = book.submit_limit("sell", 105, 1, "ann")
        >>> book.best_ask()
        105
        """
        if not self.asks:
            return None
        return self.orders[self.asks[0]]["price"]

    def spread(self) -> int | None:
        """Difference between the best ask and the best bid.

        :return: ask minus bid, or None if either side is empty.

        >>> book = OrderBook()
        >>> _ = book.submit_limit("sell", 105, 1, "ann")
        >>> _ = book.submit_limit("buy", 101, 1, "bob")
        >>> book.spread()
        4
        """
        bid, ask = self.best_bid(), self.best_ask()
        if bid is None or ask is None:
            return None
        return ask - bid

    def depth(self, side: str, levels: int) -> list[tuple[int, int]]:
        """Aggregated open quantity at the best ``levels`` prices of one side.

        :param side: ``"buy"`` or ``"sell"``.
        :param levels: number of price levels, >= 0.
        :return: ``(price, total_quantity)`` pairs, best price first.
        :raises ValueError: if the side is unknown.

        >>> book = OrderBook()
        >>> _ = book.submit_limit("buy", 99, 2, "bob")
        >>> _ = book.submit_limit("buy", 99, 3, "cy")
        >>> book.depth("buy", 5)
        [(99, 5)]
        """
        if side not in ("buy", "sell"):
            raise ValueError(f"side must be 'buy' or 'sell', not {side!r}")
        result: list[tuple[int, int]] = []
        for order_id in self.bids if side == "buy" else self.asks:
            price, quantity = self.orders[order_id]["price"], self.orders[order_id]["remaining"]
            if result and result[-1][0] == price:
                result[-1] = (price, result[-1][1] + quantity)
            elif len(result) < levels:
                result.append((price, quantity))
            else:
                break
        return result

    def last_price(self) -> int | None:
        """Price of the most recent trade.

        :return: the price, or None before the first trade.

        >>> OrderBook().last_price() is None
        True
        """
        if not self.trades:
            return None
        return self.trades[-1][2]

    def fills_for(self, trader: str) -> list[tuple[str, int, int]]:
        """Trades involving ``trader`` in time order, as ``(side, price, quantity)``.

        A trader on both sides of one trade gets two entries (buy first).

        :param trader: the trader's name.
        :return: the trader's fills; empty if none.

        >>> book = OrderBook()
        >>> _ = book.submit_limit("sell", 50, 4, "ann")
        >>> _ = book.submit_market("buy", 1, "bob")
        >>> book.fills_for("ann")
        [('sell', 50, 1)]
        """
        fills = []
        for buy_id, sell_id, price, quantity in self.trades:
            if self.orders[buy_id]["trader"] == trader:
                fills.append(("buy", price, quantity))
            if self.orders[sell_id]["trader"] == trader:
                fills.append(("sell", price, quantity))
        return fills
