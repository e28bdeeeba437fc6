import pytest

from dead_store_bridge import DepotRates


@pytest.fixture
def depot():
    depot = DepotRates(base_fee=400, per_kg=150)
    depot.define_item("kettle", 1200)
    depot.define_item("mug", 300)
    return depot


def test_weighing_and_pricing(depot):
    depot.add_to_order("o1", "kettle")
    depot.add_to_order("o1", "mug")
    assert depot.weigh("o1") == 1500
    assert depot.order_weight("o1") == 1500
    assert depot.price(1500) == 700
    assert depot.price(depot.weigh("o2")) == 400


def test_refusals(depot):
    with pytest.raises(KeyError):
        depot.add_to_order("o1", "anvil")
    with pytest.raises(ValueError):
        depot.define_item("feather", 0)
    assert depot.weigh("o1") == 0
