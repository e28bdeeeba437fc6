import pytest

from order_book import OrderBook


@pytest.fixture
def book():
    b = OrderBook()
    b.submit_limit("sell", 102, 5, "ann")
    b.submit_limit("sell", 101, 3, "cy")
    b.submit_limit("buy", 99, 4, "bob")
    b.submit_limit("buy", 98, 6, "dee")
    return b


def test_submit_limit_returns_sequential_ids():
    b = OrderBook()
    assert b.submit_limit("buy", 10, 1, "bob") == 1
    assert b.submit_limit("sell", 12, 1, "ann") == 2


def test_submit_limit_rests_without_cross(book):
    assert book.best_bid() == 99
    assert book.best_ask() == 101


def test_submit_limit_unknown_side_rejected():
    with pytest.raises(ValueError):
        OrderBook().submit_limit("hold", 10, 1, "bob")


def test_submit_limit_zero_quantity_rejected():
    with pytest.raises(ValueError):
        OrderBook().submit_limit("buy", 10, 0, "bob")


def test_submit_limit_zero_price_rejected():
    with pytest.raises(ValueError):
        OrderBook().submit_limit("buy", 0, 5, "bob")


def test_crossing_buy_trades_at_resting_price(book):
    order = book.submit_limit("buy", 103, 2, "eve")
    assert book.last_price() == 101
    assert book.remaining(order) == 0


def test_crossing_buy_walks_several_levels(book):
    order = book.submit_limit("buy", 102, 10, "eve")
    assert book.fills_for("eve") == [("buy", 101, 3), ("buy", 102, 5)]
    assert book.remaining(order) == 2
    assert book.best_bid() == 102


def test_crossing_sell_hits_best_bid(book):
    book.submit_limit("sell", 98, 5, "eve")
    assert book.fills_for("eve") == [("sell", 99, 4), ("sell", 98, 1)]
    assert book.depth("buy", 3) == [(98, 5)]


def test_limit_stops_at_its_price(book):
    order = book.submit_limit("buy", 101, 5, "eve")
    assert book.remaining(order) == 2
    assert book.best_ask() == 102


def test_time_priority_at_same_price():
    b = OrderBook()
    first = b.submit_limit("sell", 50, 2, "ann")
    second = b.submit_limit("sell", 50, 2, "cy")
    b.submit_limit("buy", 50, 3, "bob")
    assert (b.remaining(first), b.remaining(second)) == (0, 1)


def test_submit_market_fills_available(book):
    assert book.submit_market("buy", 4, "eve") == 4
    assert book.fills_for("eve") == [("buy", 101, 3), ("buy", 102, 1)]


def test_submit_market_drops_remainder(book):
    order_filled = book.submit_market("sell", 20, "eve")
    assert order_filled == 10
    assert book.best_bid() is None
    assert book.remaining(5) == 0


def test_submit_market_on_empty_side():
    b = OrderBook()
    assert b.submit_market("buy", 3, "bob") == 0


def test_submit_market_invalid_quantity(book):
    with pytest.raises(ValueError):
        book.submit_market("buy", -1, "eve")


def test_cancel_returns_open_quantity(book):
    assert book.cancel(3) == 4
    assert book.best_bid() == 98


def test_cancel_partially_filled_order(book):
    book.submit_market("buy", 1, "eve")
    assert book.cancel(2) == 2


def test_cancel_unknown_order(book):
    with pytest.raises(KeyError):
        book.cancel(99)


def test_cancel_filled_order_rejected(book):
    book.submit_market("buy", 3, "eve")
    with pytest.raises(KeyError):
        book.cancel(2)


def test_cancel_twice_rejected(book):
    book.cancel(1)
    with pytest.raises(KeyError):
        book.cancel(1)


def test_remaining_unknown_order(book):
    with pytest.raises(KeyError):
        book.remaining(42)


def test_best_prices_on_empty_book():
    b = OrderBook()
    assert (b.best_bid(), b.best_ask()) == (None, None)


def test_spread(book):
    assert book.spread() == 2


def test_spread_one_sided_until_the_other_side_arrives():
    b = OrderBook()
    b.submit_limit("buy", 10, 1, "bob")
    assert b.spread() is None
    b.submit_limit("sell", 12, 1, "ann")
    assert b.spread() == 2


def test_depth_aggregates_levels(book):
    book.submit_limit("sell", 101, 4, "eve")
    assert book.depth("sell", 5) == [(101, 7), (102, 5)]


def test_depth_limits_levels(book):
    assert book.depth("buy", 1) == [(99, 4)]


def test_depth_zero_levels(book):
    assert book.depth("sell", 0) == []


def test_depth_unknown_side(book):
    with pytest.raises(ValueError):
        book.depth("both", 2)


def test_last_price_none_before_trades_then_the_trade_price(book):
    assert book.last_price() is None
    book.submit_market("buy", 1, "eve")
    assert book.last_price() == 101


def test_fills_for_both_sides_of_one_trade():
    b = OrderBook()
    b.submit_limit("sell", 20, 1, "ann")
    b.submit_limit("buy", 20, 1, "ann")
    assert b.fills_for("ann") == [("buy", 20, 1), ("sell", 20, 1)]


def test_fills_for_unknown_trader(book):
    book.submit_market("buy", 2, "eve")
    assert book.fills_for("zed") == []


def test_trading_session_scenario():
    b = OrderBook()
    ask = b.submit_limit("sell", 105, 10, "ann")
    bid = b.submit_limit("buy", 100, 10, "bob")
    assert b.spread() == 5
    assert b.submit_market("buy", 4, "cy") == 4
    assert b.last_price() == 105
    assert b.remaining(ask) == 6
    assert b.cancel(bid) == 10
    assert b.best_bid() is None
    b.submit_limit("buy", 104, 3, "dee")
    b.submit_limit("sell", 104, 5, "eve")
    assert b.last_price() == 104
    assert b.depth("sell", 2) == [(104, 2), (105, 6)]
    assert b.best_ask() == 104
    assert b.submit_market("buy", 5, "cy") == 5
    assert b.fills_for("cy") == [("buy", 105, 4), ("buy", 104, 2), ("buy", 105, 3)]
    assert b.cancel(ask) == 3
    assert b.spread() is None
    assert b.fills_for("ann") == [("sell", 105, 4), ("sell", 105, 3)]


def test_cancel_then_resubmit_scenario():
    b = OrderBook()
    first = b.submit_limit("buy", 10, 5, "bob")
    assert b.cancel(first) == 5
    second = b.submit_limit("buy", 9, 5, "bob")
    assert b.submit_market("sell", 2, "ann") == 2
    assert b.remaining(second) == 3
    assert b.best_bid() == 9
    assert b.depth("buy", 1) == [(9, 3)]
    assert b.last_price() == 9
    assert b.spread() is None


def test_cancelled_order_has_nothing_remaining(book):
    book.cancel(4)
    assert book.remaining(4) == 0
    assert book.depth("buy", 5) == [(99, 4)]
