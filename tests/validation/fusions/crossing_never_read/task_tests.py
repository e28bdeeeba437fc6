import pytest

from crossing_never_read import OrderQuotes


def test_orders_and_quotes():
    depot = OrderQuotes(per_kg=150)
    depot.define_item("kettle", 1200)
    assert depot.quoted_total() == 0
    depot.add_to_order("o1", "kettle")
    depot.add_to_order("o1", "kettle")
    assert depot.order_weight("o1") == 2400
    assert depot.quote_order("o1") == 450


def test_refusals():
    depot = OrderQuotes(per_kg=150)
    with pytest.raises(KeyError):
        depot.add_to_order("o1", "anvil")
    assert depot.order_weight("o1") == 0
    assert depot.quote_order("o1") == 0
