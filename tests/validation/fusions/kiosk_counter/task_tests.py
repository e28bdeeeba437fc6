import pytest

from kiosk_counter import CountedKiosk


@pytest.fixture
def kiosk():
    return CountedKiosk(seats=3)


def test_accepted_operations_are_counted(kiosk):
    kiosk.sell(1, "ann")
    kiosk.sell(2, "bo")
    assert kiosk.count("sale") == 2
    assert kiosk.refund(1) == "ann"
    assert kiosk.count("refund") == 1
    assert kiosk.free_seats() == 2


def test_refused_operations_are_not_counted(kiosk):
    kiosk.sell(3, "cy")
    with pytest.raises(ValueError):
        kiosk.sell(3, "dee")
    with pytest.raises(KeyError):
        kiosk.refund(2)
    assert kiosk.count("sale") == 1
    assert kiosk.count("refund") == 0
    assert kiosk.free_seats() == 2


def test_other_events_are_counted_apart(kiosk):
    kiosk.count_event("enquiry")
    kiosk.count_event("enquiry")
    kiosk.sell(1, "ann")
    assert kiosk.count("enquiry") == 2
    assert kiosk.count("sale") == 1
