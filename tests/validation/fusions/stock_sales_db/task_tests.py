import sqlite3

import pytest

from stock_sales_db import StockroomSales


@pytest.fixture
def shop():
    shop = StockroomSales()
    shop.receive("tea", 10, 350)
    shop.receive("jam", 4, 500)
    return shop


def test_a_sale_is_booked_in_the_database(shop):
    assert shop.revenue() == 0
    assert shop.sell("tea", 3) == 1050
    assert shop.in_stock("tea") == 7
    assert shop.revenue() == 1050
    assert shop.units_sold("tea") == 3
    assert shop.units_sold("jam") == 0


def test_sales_add_up_at_the_price_of_the_day(shop):
    shop.sell("jam", 1)
    shop.receive("jam", 2, 600)
    assert shop.sell("jam", 2) == 1200
    assert shop.revenue() == 1700
    assert shop.units_sold("jam") == 3
    assert shop.in_stock("jam") == 3


def test_a_sale_beyond_the_stock_is_refused(shop):
    with pytest.raises(ValueError):
        shop.sell("jam", 5)
    with pytest.raises(KeyError):
        shop.sell("salt", 1)
    with pytest.raises(ValueError):
        shop.receive("salt", 0, 10)
    assert shop.in_stock("salt") == 0
    assert shop.sell("jam", 4) == 2000
    assert shop.revenue() == 2000


def test_a_closed_database_cannot_be_read(shop):
    shop.sell("tea", 1)
    shop.close()
    assert shop.in_stock("tea") == 9
    with pytest.raises(sqlite3.Error):
        shop.revenue()
    with pytest.raises(sqlite3.Error):
        shop.units_sold("tea")
