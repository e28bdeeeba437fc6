import pytest

from cart_loyalty import LoyaltyCheckout


@pytest.fixture
def shop():
    shop = LoyaltyCheckout()
    shop.add("boots", 80)
    shop.add("socks", 6, 3)
    return shop


def test_checkout_earns_a_point_per_ten(shop):
    assert shop.total() == 98
    assert shop.checkout() == 98
    assert shop.balance() == 9
    assert shop.earned() == 9
    assert shop.total() == 0


def test_redeemed_points_lower_the_next_checkout(shop):
    shop.checkout()
    shop.add("hat", 25)
    shop.redeem(5)
    assert shop.balance() == 4
    assert shop.total() == 20
    assert shop.checkout() == 20
    assert shop.balance() == 6
    assert shop.earned() == 11


def test_points_from_elsewhere_and_refusals(shop):
    shop.earn(3)
    with pytest.raises(ValueError):
        shop.redeem(4)
    with pytest.raises(ValueError):
        shop.redeem(0)
    with pytest.raises(ValueError):
        shop.add("gloves", -1)
    shop.add("socks", 6)
    assert shop.total() == 104
    shop.redeem(3)
    assert shop.checkout() == 101
    assert shop.balance() == 10
