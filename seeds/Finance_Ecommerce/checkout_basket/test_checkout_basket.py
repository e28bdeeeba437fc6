import pytest

from checkout_basket import CheckoutBasket


@pytest.fixture
def basket():
    return CheckoutBasket({"mug": 1250, "tea": 800, "pot": 4500}, {"mug": 5, "tea": 9, "pot": 1})


def test_add_item_returns_line_quantity(basket):
    assert basket.add_item("mug", 2) == 2
    assert basket.add_item("mug") == 3


def test_add_item_unknown_sku(basket):
    with pytest.raises(KeyError):
        basket.add_item("cup")


def test_add_item_zero_quantity_rejected(basket):
    with pytest.raises(ValueError):
        basket.add_item("mug", 0)


def test_add_item_beyond_stock_rejected(basket):
    basket.add_item("pot")
    with pytest.raises(ValueError):
        basket.add_item("pot")


def test_add_item_without_stock_entry_rejected():
    b = CheckoutBasket({"mug": 1250}, {})
    with pytest.raises(ValueError):
        b.add_item("mug")


def test_remove_item_partial(basket):
    basket.add_item("tea", 4)
    assert basket.remove_item("tea", 3) == 1
    assert basket.subtotal() == 800


def test_remove_item_whole_line(basket):
    basket.add_item("tea", 4)
    assert basket.remove_item("tea") == 0
    assert basket.subtotal() == 0


def test_remove_item_too_many_rejected(basket):
    basket.add_item("tea", 2)
    with pytest.raises(ValueError):
        basket.remove_item("tea", 3)


def test_remove_item_not_in_basket(basket):
    with pytest.raises(KeyError):
        basket.remove_item("tea")


def test_remove_frees_stock_for_re_adding(basket):
    basket.add_item("pot")
    basket.remove_item("pot")
    assert basket.add_item("pot") == 1


def test_subtotal_sums_lines(basket):
    basket.add_item("mug", 2)
    basket.add_item("tea", 3)
    assert basket.subtotal() == 4900


def test_apply_percent_coupon(basket):
    basket.add_item("mug", 2)
    assert basket.apply_coupon("SAVE10") == 250


def test_percent_discount_rounds_down(basket):
    basket.add_item("mug", 1)
    basket.add_item("tea", 1)
    basket.apply_coupon("SAVE10")
    assert basket.discount() == 205


def test_apply_fixed_coupon(basket):
    basket.add_item("tea", 4)
    assert basket.apply_coupon("TAKE5") == 500


def test_apply_coupon_below_minimum_rejected(basket):
    basket.add_item("tea", 2)
    with pytest.raises(ValueError):
        basket.apply_coupon("SAVE10")


def test_apply_unknown_coupon_rejected(basket):
    with pytest.raises(ValueError):
        basket.apply_coupon("HALFOFF")


def test_apply_same_coupon_twice_rejected(basket):
    basket.apply_coupon("FREESHIP")
    with pytest.raises(ValueError):
        basket.apply_coupon("FREESHIP")


def test_two_discount_coupons_rejected(basket):
    basket.add_item("tea", 5)
    basket.apply_coupon("SAVE10")
    with pytest.raises(ValueError):
        basket.apply_coupon("TAKE5")


def test_freeship_stacks_with_discount(basket):
    basket.add_item("tea", 5)
    basket.apply_coupon("TAKE5")
    assert basket.apply_coupon("FREESHIP") == 500
    assert basket.total() == 3500


def test_coupon_stops_discounting_below_minimum(basket):
    basket.add_item("tea", 3)
    basket.apply_coupon("SAVE10")
    basket.remove_item("tea", 1)
    assert basket.discount() == 0


def test_coupon_discounts_again_when_minimum_met(basket):
    basket.add_item("tea", 3)
    basket.apply_coupon("SAVE10")
    basket.remove_item("tea", 1)
    basket.add_item("tea", 1)
    assert basket.discount() == 240


def test_remove_coupon(basket):
    basket.add_item("tea", 3)
    basket.apply_coupon("SAVE10")
    basket.remove_coupon("SAVE10")
    assert basket.discount() == 0


def test_remove_coupon_not_applied(basket):
    with pytest.raises(KeyError):
        basket.remove_coupon("SAVE10")


def test_remove_coupon_allows_other_discount(basket):
    basket.add_item("tea", 4)
    basket.apply_coupon("SAVE10")
    basket.remove_coupon("SAVE10")
    assert basket.apply_coupon("TAKE5") == 500


def test_shipping_empty_basket_free(basket):
    assert basket.shipping() == 0


def test_shipping_below_threshold(basket):
    basket.add_item("tea")
    assert basket.shipping() == 499


def test_shipping_free_from_threshold(basket):
    basket.add_item("mug", 4)
    assert basket.shipping() == 0


def test_shipping_charged_when_discount_drops_below_threshold(basket):
    basket.add_item("mug", 4)
    basket.apply_coupon("TAKE5")
    assert basket.shipping() == 499


def test_shipping_waived_by_coupon(basket):
    basket.add_item("tea")
    basket.apply_coupon("FREESHIP")
    assert basket.shipping() == 0


def test_total_with_shipping(basket):
    basket.add_item("tea", 2)
    assert basket.total() == 2099


def test_receipt_lines(basket):
    basket.add_item("tea", 3)
    basket.add_item("mug", 1)
    basket.apply_coupon("SAVE10")
    assert basket.receipt() == [
        "mug x1 12.50",
        "tea x3 24.00",
        "discount -3.65",
        "shipping 4.99",
        "total 37.84",
    ]


def test_receipt_empty_basket(basket):
    assert basket.receipt() == ["shipping 0.00", "total 0.00"]


def test_shopping_session_scenario():
    b = CheckoutBasket({"mug": 1250, "tea": 800}, {"mug": 5, "tea": 9})
    assert b.add_item("mug", 2) == 2
    with pytest.raises(ValueError):
        b.apply_coupon("TAKE5")
    assert b.apply_coupon("SAVE10") == 250
    assert b.add_item("tea", 2) == 2
    assert b.discount() == 410
    assert b.shipping() == 499
    assert b.remove_item("mug") == 0
    assert b.discount() == 0
    b.remove_coupon("SAVE10")
    assert b.add_item("mug", 3) == 3
    assert b.apply_coupon("TAKE5") == 500
    assert b.apply_coupon("FREESHIP") == 500
    assert b.total() == 4850
    b.remove_coupon("FREESHIP")
    assert b.remove_item("tea") == 0
    assert b.receipt() == ["mug x3 37.50", "discount -5.00", "shipping 4.99", "total 37.49"]


def test_coupon_first_then_items_scenario():
    b = CheckoutBasket({"pot": 4500}, {"pot": 2})
    assert b.apply_coupon("FREESHIP") == 0
    assert b.add_item("pot") == 1
    assert b.shipping() == 0
    b.remove_coupon("FREESHIP")
    assert b.total() == 4999
    assert b.add_item("pot") == 2
    assert b.apply_coupon("SAVE10") == 900
    assert b.remove_item("pot", 1) == 1
    assert b.total() == 4549
