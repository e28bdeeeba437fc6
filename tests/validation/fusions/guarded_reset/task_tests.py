import pytest

from guarded_reset import CarParkWallet


@pytest.fixture
def park():
    park = CarParkWallet()
    park.top_up(500)
    return park


def test_closing_the_day_clears_the_statement(park):
    park.enter("AB-1", 0)
    with pytest.raises(RuntimeError):
        park.close_day()
    assert park.leave("AB-1", 45) == 45
    park.top_up(100)
    assert park.statement_lines() == 2
    park.close_day()
    assert park.statement_lines() == 0
    assert park.balance() == 600
    assert park.parked() == 0


def test_sessions_and_refusals(park):
    park.enter("AB-1", 10)
    park.enter("CD-2", 20)
    assert park.parked() == 2
    with pytest.raises(ValueError):
        park.enter("AB-1", 30)
    with pytest.raises(KeyError):
        park.leave("ZZ-9", 30)
    with pytest.raises(ValueError):
        park.top_up(0)
    assert park.leave("CD-2", 50) == 30
    assert park.parked() == 1
