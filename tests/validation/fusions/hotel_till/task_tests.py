import pytest

from hotel_till import HotelFrontDesk


@pytest.fixture
def desk():
    desk = HotelFrontDesk({"single": 60, "double": 90})
    desk.add_room("101", "single")
    desk.add_room("102", "double")
    return desk


def test_a_stay_is_paid_into_the_till(desk):
    assert desk.takings() == 0
    assert desk.check_in("102", "ada", 3) == 270
    assert desk.takings() == 270
    assert desk.vacant_rooms() == ["101"]


def test_withdrawals_come_out_of_what_the_stays_brought(desk):
    desk.check_in("101", "bob", 2)
    desk.withdraw(50)
    assert desk.takings() == 70
    assert desk.withdrawn() == 50
    with pytest.raises(ValueError):
        desk.withdraw(71)
    desk.check_in("102", "cy", 1)
    desk.withdraw(100)
    assert desk.takings() == 60
    assert desk.withdrawn() == 150


def test_check_out_frees_the_room_for_the_next_stay(desk):
    desk.check_in("101", "ada", 1)
    assert desk.check_out("101") == "ada"
    assert desk.vacant_rooms() == ["101", "102"]
    assert desk.check_in("101", "bob", 4) == 240
    assert desk.takings() == 300


def test_an_occupied_room_cannot_be_let_again(desk):
    desk.check_in("101", "ada", 1)
    with pytest.raises(ValueError):
        desk.check_in("101", "bob", 1)
    with pytest.raises(ValueError):
        desk.check_in("102", "bob", 0)
    assert desk.takings() == 60


def test_unknown_rooms_and_kinds_are_refused(desk):
    with pytest.raises(KeyError):
        desk.check_in("999", "ada", 1)
    with pytest.raises(KeyError):
        desk.add_room("201", "suite")
    with pytest.raises(ValueError):
        desk.add_room("101", "double")
    with pytest.raises(KeyError):
        desk.check_out("102")
    with pytest.raises(ValueError):
        desk.withdraw(0)
