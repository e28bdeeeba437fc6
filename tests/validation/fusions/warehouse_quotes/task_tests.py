import pytest

from warehouse_quotes import WarehouseShipping


@pytest.fixture
def depot():
    depot = WarehouseShipping(base_fee=400, per_kg=150)
    depot.define_item("kettle", 1200)
    depot.define_item("mug", 300)
    return depot


def test_an_order_is_quoted_by_its_weight(depot):
    assert depot.add_to_order("o1", "kettle") == 1200
    assert depot.add_to_order("o1", "mug", 2) == 600
    assert depot.order_weight("o1") == 1800
    assert depot.quote_order("o1") == 700
    assert depot.quoted_total() == 700


def test_a_requote_replaces_the_orders_quote(depot):
    depot.add_to_order("o1", "mug")
    assert depot.quote_order("o1") == 550
    depot.add_to_order("o1", "kettle")
    assert depot.quote_order("o1") == 700
    depot.add_to_order("o2", "mug", 4)
    depot.quote_order("o2")
    assert depot.quoted_total() == 1400


def test_the_carriers_price(depot):
    assert depot.price(0) == 400
    assert depot.price(1000) == 550
    assert depot.price(1001) == 700
    assert depot.order_weight("none") == 0


def test_refusals(depot):
    with pytest.raises(KeyError):
        depot.add_to_order("o1", "anvil")
    with pytest.raises(KeyError):
        depot.quote_order("o9")
    with pytest.raises(ValueError):
        depot.define_item("feather", 0)
    assert depot.quoted_total() == 0
