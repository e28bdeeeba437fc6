import pytest

from inventory_ledger import InventoryLedger


def test_receive_returns_movement_ids():
    ledger = InventoryLedger()
    assert [ledger.receive("A", 5, 100), ledger.receive("B", 1, 7), ledger.receive("A", 2, 120)] == [1, 2, 3]
    assert ledger.on_hand("A") == 7


def test_receive_non_positive_quantity_raises():
    with pytest.raises(ValueError):
        InventoryLedger().receive("A", -1, 10)


def test_receive_negative_cost_raises():
    with pytest.raises(ValueError):
        InventoryLedger().receive("A", 1, -10)


def test_receive_zero_cost_is_allowed():
    ledger = InventoryLedger()
    ledger.receive("SAMPLE", 3, 0)
    assert (ledger.on_hand("SAMPLE"), ledger.valuation("SAMPLE")) == (3, 0)


def test_on_hand_unknown_sku_is_zero():
    assert InventoryLedger().on_hand("NOPE") == 0


def test_ship_consumes_oldest_lot_first():
    ledger = InventoryLedger()
    ledger.receive("TEA", 10, 300)
    ledger.receive("TEA", 10, 350)
    assert ledger.ship("TEA", 4, "SO-101") == 1200
    assert ledger.ship("TEA", 10, "SO-102") == 6 * 300 + 4 * 350
    assert (ledger.on_hand("TEA"), ledger.valuation("TEA")) == (6, 2100)


def test_ship_exact_stock_empties_sku():
    ledger = InventoryLedger()
    ledger.receive("A", 3, 10)
    assert ledger.ship("A", 3, "SO-103") == 30
    assert (ledger.on_hand("A"), ledger.valuation()) == (0, 0)


def test_ship_more_than_on_hand_raises_and_books_nothing():
    ledger = InventoryLedger()
    ledger.receive("A", 3, 10)
    with pytest.raises(ValueError):
        ledger.ship("A", 4, "SO-104")
    assert ledger.on_hand("A") == 3
    assert ledger.movements("A") == ["receive +3 cost=30"]


def test_ship_zero_quantity_raises():
    ledger = InventoryLedger()
    ledger.receive("A", 3, 10)
    with pytest.raises(ValueError):
        ledger.ship("A", 0, "SO-105")


def test_ship_unknown_sku_raises():
    with pytest.raises(ValueError):
        InventoryLedger().ship("GHOST", 1, "SO-106")


def test_adjust_loss_consumes_fifo_and_returns_on_hand():
    ledger = InventoryLedger()
    ledger.receive("EGG", 6, 20)
    ledger.receive("EGG", 6, 25)
    assert ledger.adjust("EGG", -7, "broken") == 5
    assert ledger.valuation("EGG") == 125
    assert ledger.movements("EGG")[-1] == "adjust -7 cost=-145 (broken)"


def test_adjust_found_units_use_last_receipt_cost():
    ledger = InventoryLedger()
    ledger.receive("CUP", 2, 100)
    ledger.receive("CUP", 2, 130)
    ledger.ship("CUP", 4, "SO-107")
    assert ledger.adjust("CUP", 3, "  recount  ") == 3
    assert ledger.valuation("CUP") == 390
    assert ledger.movements("CUP")[-1] == "adjust +3 cost=390 (recount)"


def test_adjust_found_units_of_never_received_sku_cost_nothing():
    ledger = InventoryLedger()
    assert ledger.adjust("MYSTERY", 2, "found in warehouse") == 2
    assert ledger.valuation("MYSTERY") == 0


def test_adjust_zero_raises():
    with pytest.raises(ValueError):
        InventoryLedger().adjust("A", 0, "nothing")


def test_adjust_without_reason_raises():
    with pytest.raises(ValueError):
        InventoryLedger().adjust("A", 1, "   ")


def test_adjust_loss_beyond_stock_raises():
    ledger = InventoryLedger()
    ledger.receive("A", 1, 5)
    with pytest.raises(ValueError):
        ledger.adjust("A", -2, "theft")
    assert ledger.on_hand("A") == 1


def test_valuation_whole_inventory_and_per_sku():
    ledger = InventoryLedger()
    ledger.receive("A", 2, 150)
    ledger.receive("B", 4, 25)
    assert (ledger.valuation(), ledger.valuation("A"), ledger.valuation("C")) == (400, 300, 0)


def test_valuation_empty_ledger_is_zero():
    assert InventoryLedger().valuation() == 0


def test_movements_journal_in_order_with_notes():
    ledger = InventoryLedger()
    ledger.receive("A", 5, 10)
    ledger.ship("A", 2, "SO-7")
    ledger.ship("A", 1, "")
    ledger.receive("B", 1, 1)
    assert ledger.movements("A") == ["receive +5 cost=50", "ship -2 cost=20 (SO-7)", "ship -1 cost=10"]


def test_movements_unknown_sku_is_empty():
    assert InventoryLedger().movements("A") == []


def test_reorder_list_includes_sku_at_threshold():
    ledger = InventoryLedger()
    ledger.receive("A", 5, 1)
    ledger.receive("B", 6, 1)
    ledger.set_reorder_point("A", 5)
    ledger.set_reorder_point("B", 5)
    assert ledger.reorder_list() == ["A"]


def test_reorder_list_sorted_and_includes_never_stocked():
    ledger = InventoryLedger()
    ledger.set_reorder_point("ZINC", 0)
    ledger.set_reorder_point("ALUM", 2)
    assert ledger.reorder_list() == ["ALUM", "ZINC"]


def test_set_reorder_point_negative_removes_reminder():
    ledger = InventoryLedger()
    ledger.set_reorder_point("A", 3)
    ledger.set_reorder_point("A", -1)
    ledger.set_reorder_point("B", -1)
    assert ledger.reorder_list() == []


def test_scenario_month_of_trading():
    ledger = InventoryLedger()
    ledger.set_reorder_point("LAMP", 4)
    ledger.receive("LAMP", 10, 1500)
    ledger.receive("SHADE", 20, 300)
    assert ledger.reorder_list() == []
    assert ledger.ship("LAMP", 7, "SO-1") == 10500
    assert ledger.reorder_list() == ["LAMP"]
    ledger.receive("LAMP", 10, 1600)
    assert ledger.reorder_list() == []
    assert ledger.ship("LAMP", 5, "SO-2") == 3 * 1500 + 2 * 1600
    assert ledger.adjust("LAMP", -1, "display unit broken") == 7
    assert ledger.adjust("LAMP", 2, "returned unopened") == 9
    assert ledger.valuation("LAMP") == 9 * 1600
    assert ledger.valuation() == 9 * 1600 + 20 * 300
    assert ledger.movements("LAMP") == [
        "receive +10 cost=15000",
        "ship -7 cost=10500 (SO-1)",
        "receive +10 cost=16000",
        "ship -5 cost=7700 (SO-2)",
        "adjust -1 cost=-1600 (display unit broken)",
        "adjust +2 cost=3200 (returned unopened)",
    ]
    ledger.set_reorder_point("LAMP", 9)
    assert ledger.reorder_list() == ["LAMP"]


def test_scenario_adjust_before_receiving_then_ship():
    ledger = InventoryLedger()
    ledger.adjust("KEY", 2, "found")
    ledger.receive("KEY", 3, 40)
    ledger.adjust("KEY", 1, "found again")
    assert ledger.ship("KEY", 4, "SO-108") == 0 + 0 + 40 + 40
    assert (ledger.on_hand("KEY"), ledger.valuation("KEY")) == (2, 80)
    ledger.set_reorder_point("KEY", 2)
    assert ledger.reorder_list() == ["KEY"]
