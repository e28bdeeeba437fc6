import pytest

from room_booking_calendar import RoomBookingCalendar


@pytest.fixture
def cal():
    calendar = RoomBookingCalendar(8, 18)
    calendar.add_room("Oak", 6)
    calendar.add_room("Hall", 30)
    return calendar


def test_init_rejects_invalid_opening_hours():
    with pytest.raises(ValueError):
        RoomBookingCalendar(18, 8)
    with pytest.raises(ValueError):
        RoomBookingCalendar(8, 25)


def test_add_room_duplicate_rejected(cal):
    with pytest.raises(ValueError):
        cal.add_room("Oak", 4)


def test_add_room_zero_capacity_rejected(cal):
    with pytest.raises(ValueError):
        cal.add_room("Cupboard", 0)


def test_add_room_makes_room_bookable():
    calendar = RoomBookingCalendar(9, 17)
    calendar.add_room("Pine", 2)
    assert calendar.free_slots("Pine", 1) == [(9, 17)]


def test_is_free_on_empty_room(cal):
    assert cal.is_free("Oak", 1, 8, 18) is True


def test_is_free_unknown_room(cal):
    with pytest.raises(KeyError):
        cal.is_free("Attic", 1, 9, 10)


def test_is_free_false_when_overlapping(cal):
    cal.book("Oak", 1, 9, 11, "ivy", 3)
    assert cal.is_free("Oak", 1, 10, 12) is False


def test_is_free_adjacent_slot_is_free(cal):
    cal.book("Oak", 1, 9, 11, "ivy", 3)
    assert cal.is_free("Oak", 1, 11, 12) is True


def test_is_free_other_day_unaffected(cal):
    cal.book("Oak", 1, 9, 11, "ivy", 3)
    assert cal.is_free("Oak", 2, 9, 11) is True


def test_book_returns_sequential_ids(cal):
    assert cal.book("Oak", 1, 9, 10, "ivy", 2) == 1
    assert cal.book("Hall", 1, 9, 10, "ivy", 20) == 2


def test_book_clash_rejected(cal):
    cal.book("Oak", 1, 9, 11, "ivy", 3)
    with pytest.raises(ValueError):
        cal.book("Oak", 1, 10, 11, "max", 2)


def test_book_before_opening_rejected(cal):
    with pytest.raises(ValueError):
        cal.book("Oak", 1, 7, 9, "ivy", 2)


def test_book_after_closing_rejected(cal):
    with pytest.raises(ValueError):
        cal.book("Oak", 1, 17, 19, "ivy", 2)


def test_book_empty_range_rejected(cal):
    with pytest.raises(ValueError):
        cal.book("Oak", 1, 10, 10, "ivy", 2)


def test_book_day_zero_rejected(cal):
    with pytest.raises(ValueError):
        cal.book("Oak", 0, 9, 10, "ivy", 2)


def test_book_over_capacity_rejected(cal):
    with pytest.raises(ValueError):
        cal.book("Oak", 1, 9, 10, "ivy", 7)


def test_book_unknown_room(cal):
    with pytest.raises(KeyError):
        cal.book("Attic", 1, 9, 10, "ivy", 2)


def test_cancel_frees_slot(cal):
    booking = cal.book("Oak", 1, 9, 11, "ivy", 3)
    cal.cancel(booking, "ivy")
    assert cal.is_free("Oak", 1, 9, 11) is True


def test_cancel_by_other_person_refused(cal):
    booking = cal.book("Oak", 1, 9, 11, "ivy", 3)
    with pytest.raises(PermissionError):
        cal.cancel(booking, "max")


def test_cancel_unknown_booking(cal):
    with pytest.raises(KeyError):
        cal.cancel(7, "ivy")


def test_free_slots_splits_around_bookings(cal):
    cal.book("Oak", 1, 8, 9, "ivy", 2)
    cal.book("Oak", 1, 12, 14, "max", 2)
    assert cal.free_slots("Oak", 1) == [(9, 12), (14, 18)]


def test_free_slots_fully_booked(cal):
    cal.book("Oak", 1, 8, 18, "ivy", 2)
    assert cal.free_slots("Oak", 1) == []


def test_free_slots_unknown_room(cal):
    with pytest.raises(KeyError):
        cal.free_slots("Attic", 1)


def test_suggest_room_prefers_smallest(cal):
    assert cal.suggest_room(1, 9, 10, 4) == "Oak"


def test_suggest_room_skips_small_rooms(cal):
    assert cal.suggest_room(1, 9, 10, 12) == "Hall"


def test_suggest_room_skips_booked_rooms(cal):
    cal.book("Oak", 1, 9, 10, "ivy", 2)
    assert cal.suggest_room(1, 9, 10, 2) == "Hall"


def test_suggest_room_ties_broken_by_name(cal):
    cal.add_room("Ash", 6)
    assert cal.suggest_room(1, 9, 10, 5) == "Ash"


def test_suggest_room_none_available(cal):
    cal.book("Hall", 1, 9, 10, "ivy", 25)
    with pytest.raises(LookupError):
        cal.suggest_room(1, 9, 10, 10)


def test_utilisation_empty_room(cal):
    assert cal.utilisation("Oak", 1) == 0.0


def test_utilisation_partial(cal):
    cal.book("Oak", 1, 9, 12, "ivy", 2)
    assert cal.utilisation("Oak", 1) == 0.3


def test_utilisation_full_day(cal):
    cal.book("Oak", 1, 8, 18, "ivy", 2)
    assert cal.utilisation("Oak", 1) == 1.0


def test_agenda_sorted_by_day_then_hour(cal):
    cal.book("Hall", 2, 9, 10, "ivy", 10)
    cal.book("Oak", 1, 15, 16, "ivy", 2)
    cal.book("Oak", 1, 9, 10, "max", 2)
    cal.book("Hall", 1, 10, 11, "ivy", 10)
    assert cal.agenda("ivy") == [("Hall", 1, 10, 11), ("Oak", 1, 15, 16), ("Hall", 2, 9, 10)]


def test_agenda_empty_for_stranger(cal):
    cal.book("Oak", 1, 9, 10, "max", 2)
    assert cal.agenda("ivy") == []


def test_day_of_bookings_and_rebooking_scenario():
    calendar = RoomBookingCalendar(9, 13)
    calendar.add_room("Oak", 6)
    first = calendar.book("Oak", 3, 9, 11, "ivy", 4)
    assert calendar.utilisation("Oak", 3) == 0.5
    calendar.add_room("Nook", 2)
    assert calendar.suggest_room(3, 10, 11, 2) == "Nook"
    calendar.cancel(first, "ivy")
    assert calendar.free_slots("Oak", 3) == [(9, 13)]
    assert calendar.suggest_room(3, 10, 11, 4) == "Oak"
    second = calendar.book("Oak", 3, 11, 13, "max", 5)
    assert calendar.is_free("Oak", 3, 12, 13) is False
    assert calendar.agenda("max") == [("Oak", 3, 11, 13)]
    calendar.cancel(second, "max")
    assert calendar.agenda("max") == []
    assert calendar.utilisation("Oak", 3) == 0.0


def test_add_room_after_bookings_joins_suggestions():
    calendar = RoomBookingCalendar(8, 10)
    calendar.add_room("Hall", 30)
    calendar.book("Hall", 1, 8, 10, "ivy", 10)
    calendar.add_room("Den", 12)
    assert calendar.suggest_room(1, 8, 9, 10) == "Den"
    assert calendar.free_slots("Den", 1) == [(8, 10)]
    assert calendar.utilisation("Hall", 1) == 1.0


def test_default_opening_hours_are_eight_to_eighteen():
    calendar = RoomBookingCalendar()
    calendar.add_room("Pine", 2)
    assert calendar.free_slots("Pine", 1) == [(8, 18)]


def test_round_the_clock_building():
    calendar = RoomBookingCalendar(0, 24)
    calendar.add_room("Pine", 2)
    calendar.book("Pine", 1, 0, 1, "ivy", 1)
    calendar.book("Pine", 1, 23, 24, "ivy", 2)
    assert calendar.free_slots("Pine", 1) == [(1, 23)]


def test_book_single_attendee_and_full_room(cal):
    assert cal.book("Oak", 1, 9, 10, "ivy", 1) == 1
    assert cal.book("Oak", 1, 10, 11, "ivy", 6) == 2


def test_book_zero_attendees_rejected(cal):
    with pytest.raises(ValueError):
        cal.book("Oak", 1, 9, 10, "ivy", 0)


def test_agenda_same_day_ordered_by_start_not_end(cal):
    cal.book("Hall", 1, 9, 12, "ivy", 10)
    cal.book("Oak", 1, 10, 11, "ivy", 2)
    assert cal.agenda("ivy") == [("Hall", 1, 9, 12), ("Oak", 1, 10, 11)]
