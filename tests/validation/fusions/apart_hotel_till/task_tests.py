import pytest

from apart_hotel_till import HotelAndTill


@pytest.fixture
def desk():
    desk = HotelAndTill()
    desk.add_room("101", "single")
    desk.add_room("102", "double")
    return desk


def test_rooms_and_payments_side_by_side(desk):
    desk.check_in("101", "ada")
    desk.pay(120)
    assert desk.vacant() == ["102"]
    assert desk.holding() == 120
    desk.take_out(20)
    assert desk.check_out("101") == "ada"
    assert desk.holding() == 100
    assert desk.payments() == 1
    assert desk.vacant() == ["101", "102"]


def test_the_till_refuses_more_than_it_holds(desk):
    desk.pay(50)
    with pytest.raises(ValueError):
        desk.take_out(51)
    with pytest.raises(ValueError):
        desk.pay(0)
    desk.pay(10)
    desk.take_out(60)
    assert desk.holding() == 0
    assert desk.payments() == 2


def test_room_refusals(desk):
    desk.check_in("102", "bo")
    with pytest.raises(ValueError):
        desk.check_in("102", "cy")
    with pytest.raises(KeyError):
        desk.check_in("999", "cy")
    with pytest.raises(ValueError):
        desk.add_room("101", "double")
    with pytest.raises(KeyError):
        desk.check_out("101")
    assert desk.vacant() == ["101"]
