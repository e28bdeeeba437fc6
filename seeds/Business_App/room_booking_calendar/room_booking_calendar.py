"""Meeting-room bookings on whole-hour slots."""


class RoomBookingCalendar:
    """Book meeting rooms by day and whole hours.

    A booking occupies the half-open hour range ``[start, end)`` of one day, so
    a 9-10 meeting and a 10-11 meeting in the same room do not clash. Bookings
    must lie within the building's opening hours and fit the room's capacity.

    >>> cal = RoomBookingCalendar(8, 18)
    >>> cal.add_room("Oak", 6)
    >>> cal.book("Oak", 1, 9, 11, "ivy", 4)
    1
    >>> cal.free_slots("Oak", 1)
    [(8, 9), (11, 18)]
    """

    def __init__(self, opening_hour: int = 8, closing_hour: int = 18) -> None:
        """Create a calendar for a building open from ``opening_hour`` to ``closing_hour``.

        :param opening_hour: first bookable hour (0..23).
        :param closing_hour: hour the building closes (opening_hour+1..24).
        :raises ValueError: if the hours do not form a non-empty range within a day.

        >>> RoomBookingCalendar(9, 17).opening_hour
        9
        """
        if not 0 <= opening_hour < closing_hour <= 24:
            raise ValueError("opening hours must satisfy 0 <= open < close <= 24")
        self.opening_hour = opening_hour
        self.closing_hour = closing_hour
        self.rooms: dict[str, int] = {}
        self.bookings: dict[int, tuple[str, int, int, int, str]] = {}
        self.next_id = 1

    def add_room(self, name: str, capacity: int) -> None:
        """Register a room.

        :param name: unique room name.
        :param capacity: seats in the room, at least 1.
        :raises ValueError: if the room exists already or the capacity is below 1.

        >>> RoomBookingCalendar().add_room("Elm", 8)
        """
        if name in self.rooms:
            raise ValueError(f"room {name!r} already exists")
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.rooms[name] = capacity

    def is_free(self, room: str, day: int, start: int, end: int) -> bool:
        """Whether ``room`` has no booking overlapping ``[start, end)`` on ``day``.

        :param room: a registered room.
        :param day: day number.
        :param start: first hour.
        :param end: hour the slot ends (exclusive).
        :return: True when no booking overlaps the range.
        :raises KeyError: if the room is unknown.

        >>> cal = RoomBookingCalendar()
        >>> cal.add_room("Elm", 8)
        >>> cal.is_free("Elm", 3, 9, 10)
        True
        """
        if room not in self.rooms:
            raise KeyError(room)
        return not any(
            b_room == room and b_day == day and b_start < end and start < b_end
            for b_room, b_day, b_start, b_end, _ in self.bookings.values()
        )

    def book(self, room: str, day: int, start: int, end: int, organiser: str, attendees: int) -> int:
        """Book ``room`` for ``[start, end)`` on ``day``.

        :param room: a registered room.
        :param day: day number, at least 1.
        :param start: first hour, not before opening.
        :param end: end hour (exclusive), after ``start`` and not after closing.
        :param organiser: who books the room.
        :param attendees: number of people, 1..capacity.
        :return: the booking id (1, 2, ...).
        :raises KeyError: if the room is unknown.
        :raises ValueError: if the day or hours are invalid, the room is too small, or the slot is taken.

        Every check comes before any change: a refused booking leaves the calendar unchanged.

        >>> cal = RoomBookingCalendar()
        >>> cal.add_room("Elm", 8)
        >>> cal.book("Elm", 2, 14, 15, "max", 3)
        1
        """
        if not self.is_free(room, day, start, end):
            raise ValueError(f"{room} is already booked on day {day} between {start} and {end}")
        if day < 1 or not self.opening_hour <= start < end <= self.closing_hour:
            raise ValueError("booking must be within opening hours on a day >= 1")
        if not 1 <= attendees <= self.rooms[room]:
            raise ValueError(f"{room} seats {self.rooms[room]}, not {attendees}")
        booking_id = self.next_id
        self.next_id += 1
        self.bookings[booking_id] = (room, day, start, end, organiser)
        return booking_id

    def cancel(self, booking_id: int, organiser: str) -> None:
        """Cancel a booking; only its organiser may cancel it.

        :param booking_id: id returned by :meth:`book`.
        :param organiser: who asks for the cancellation.
        :raises KeyError: if the booking does not exist.
        :raises PermissionError: if ``organiser`` did not make the booking.

        A refused cancellation leaves the booking, and the calendar, unchanged.

        >>> cal = RoomBookingCalendar()
        >>> cal.add_room("Elm", 8)
        >>> cal.cancel(cal.book("Elm", 2, 14, 15, "max", 3), "max")
        >>> cal.is_free("Elm", 2, 14, 15)
        True
        """
        if booking_id not in self.bookings:
            raise KeyError(booking_id)
        if self.bookings[booking_id][4] != organiser:
            raise PermissionError("only the organiser can cancel a booking")
        del self.bookings[booking_id]

    def free_slots(self, room: str, day: int) -> list[tuple[int, int]]:
        """Maximal free hour ranges of ``room`` on ``day``, in time order.

        :param room: a registered room.
        :param day: day number.
        :return: list of ``(start, end)`` ranges not covered by any booking.
        :raises KeyError: if the room is unknown.

        >>> cal = RoomBookingCalendar(9, 12)
        >>> cal.add_room("Elm", 8)
        >>> cal.free_slots("Elm", 1)
        [(9, 12)]
        """
        slots: list[tuple[int, int]] = []
        run_start = None
        for hour in range(self.opening_hour, self.closing_hour):
            if self.is_free(room, day, hour, hour + 1):
                if run_start is None:
                    run_start = hour
            elif run_start is not None:
                slots.append((run_start, hour))
                run_start = None
        if run_start is not None:
            slots.append((run_start, self.closing_hour))
        return slots

    def suggest_room(self, day: int, start: int, end: int, attendees: int) -> str:
        """The smallest free room that seats ``attendees`` (ties broken by name).

        :param day: day number.
        :param start: first hour.
        :param end: end hour (exclusive).
        :param attendees: number of people.
        :return: the name of the suggested room.
        :raises LookupError: if no room is both free and large enough.

        >>> cal = RoomBookingCalendar()
        >>> cal.add_room("Hall", 40)
        >>> cal.add_room("Nook", 4)
        >>> cal.suggest_room(1, 9, 10, 3)
        'Nook'
        """
        candidates = sorted(
            (capacity, name)
            for name, capacity in self.rooms.items()
            if capacity >= attendees and self.is_free(name, day, start, end)
        )
        if not candidates:
            raise LookupError("no free room is large enough")
        return candidates[0][1]

    def utilisation(self, room: str, day: int) -> float:
        """Share of the opening hours of ``day`` during which ``room`` is booked.

        :param room: a registered room.
        :param day: day number.
        :return: booked hours divided by opening hours, rounded to 4 decimals.
        :raises KeyError: if the room is unknown.

        >>> cal = RoomBookingCalendar(8, 12)
        >>> cal.add_room("Elm", 8)
        >>> _ = cal.book("Elm", 1, 8, 9, "max", 2)
        >>> cal.utilisation("Elm", 1)
        0.25
        """
        free_hours = sum(end - start for start, end in self.free_slots(room, day))
        opening = self.closing_hour - self.opening_hour
        return round((opening - free_hours) / opening, 4)

    def agenda(self, organiser: str) -> list[tuple[str, int, int, int]]:
        """All bookings made by ``organiser`` as ``(room, day, start, end)``, sorted by day, start, room.

        :param organiser: who made the bookings.
        :return: the sorted list; empty if there are none.

        >>> RoomBookingCalendar().agenda("nobody")
        []
        """
        return sorted(
            ((room, day, start, end) for room, day, start, end, who in self.bookings.values() if who == organiser),
            key=lambda b: (b[1], b[2], b[0]),
        )
