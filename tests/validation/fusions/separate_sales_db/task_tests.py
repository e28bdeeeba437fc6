import sqlite3

import pytest

from separate_sales_db import StockAndLedger


def test_stock_and_bookings_side_by_side():
    shop = StockAndLedger()
    shop.receive("tea", 5)
    assert shop.take("tea", 2) == 3
    shop.book("tea", 700)
    assert shop.revenue() == 700
    shop.receive("tea", 1)
    assert shop.take("tea", 4) == 0
    shop.book("tea", 1400)
    assert shop.revenue() == 2100


def test_refusals_and_closing():
    shop = StockAndLedger()
    with pytest.raises(ValueError):
        shop.receive("tea", 0)
    with pytest.raises(ValueError):
        shop.take("tea", 1)
    assert shop.revenue() == 0
    shop.close()
    with pytest.raises(sqlite3.Error):
        shop.revenue()
