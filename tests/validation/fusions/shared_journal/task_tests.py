import pytest

from shared_journal import JournaledShop


@pytest.fixture
def shop():
    shop = JournaledShop()
    shop.receive("tea", 5)
    return shop


def test_both_halves_write_the_journal(shop):
    shop.take("tea", 2)
    shop.earn(10)
    assert shop.in_stock("tea") == 3
    assert shop.balance() == 10
    assert shop.journal_size() == 3
    shop.receive("tea", 1)
    shop.earn(5)
    assert shop.balance() == 15
    assert shop.in_stock("tea") == 4
    assert shop.journal_size() == 5


def test_refusals(shop):
    with pytest.raises(ValueError):
        shop.take("tea", 6)
    with pytest.raises(ValueError):
        shop.receive("jam", 0)
    assert shop.in_stock("jam") == 0
    assert shop.journal_size() == 1
