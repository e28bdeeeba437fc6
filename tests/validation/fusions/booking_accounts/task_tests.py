import pytest

from booking_accounts import StudioBookings


@pytest.fixture
def studio():
    return StudioBookings(price=30, peak_price=50, peak_hours=[18, 19])


def test_a_booking_bills_the_slots_price(studio):
    assert studio.book(10, "ann") == 30
    assert studio.book(18, "ann") == 50
    assert studio.owed("ann") == 80
    assert studio.booked_hours() == [10, 18]


def test_cancelling_credits_the_price_back(studio):
    studio.book(19, "bo")
    studio.book(11, "bo")
    studio.cancel(19)
    assert studio.owed("bo") == 30
    studio.pay("bo", 30)
    assert studio.owed("bo") == 0
    assert studio.booked_hours() == [11]


def test_refusals(studio):
    studio.book(10, "ann")
    with pytest.raises(ValueError):
        studio.book(10, "bo")
    with pytest.raises(KeyError):
        studio.cancel(12)
    with pytest.raises(KeyError):
        studio.pay("cy", 5)
    assert studio.owed("bo") == 0
    assert studio.owed("ann") == 30
