import pytest

from parking_wallet import PrepaidParking


@pytest.fixture
def park():
    park = PrepaidParking({"centre": 250, "outer": 100})
    park.top_up(1000)
    return park


def test_leaving_pays_each_started_hour_from_the_wallet(park):
    park.enter("AB-1", "centre", 0)
    assert park.parked() == 1
    assert park.leave("AB-1", 61) == 500
    assert park.balance() == 500
    assert park.spent() == 500
    assert park.parked() == 0


def test_a_short_stay_pays_one_hour(park):
    park.enter("AB-1", "outer", 30)
    assert park.leave("AB-1", 40) == 100
    assert park.balance() == 900


def test_a_car_cannot_leave_until_the_wallet_can_pay(park):
    park.enter("AB-1", "centre", 0)
    with pytest.raises(ValueError):
        park.leave("AB-1", 60 * 5)
    assert park.parked() == 1
    assert park.balance() == 1000
    park.top_up(500)
    assert park.leave("AB-1", 60 * 5) == 1250
    assert park.balance() == 250
    assert park.spent() == 1250


def test_refusals(park):
    with pytest.raises(KeyError):
        park.enter("AB-1", "harbour", 0)
    park.enter("AB-1", "outer", 0)
    with pytest.raises(ValueError):
        park.enter("AB-1", "outer", 5)
    with pytest.raises(KeyError):
        park.leave("ZZ-9", 5)
    with pytest.raises(ValueError):
        park.top_up(0)
    assert park.spent() == 0
