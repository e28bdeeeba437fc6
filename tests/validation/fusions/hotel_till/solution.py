class HotelFrontDesk:
    """A small hotel's front desk with its own till.

    Rooms are let by the night at the rate of their kind; every check-in is paid for at once, so the till
    holds what the stays brought in, and cash taken out of it for change or expenses.

    >>> desk = HotelFrontDesk({"single": 60, "double": 90})
    >>> desk.add_room("101", "single")
    >>> desk.check_in("101", "ada", 2)
    120
    >>> desk.takings()
    120
    """

    def __init__(self, rates):
        """Open the desk with `rates`, the nightly price of each kind of room (a dict of kind -> price in
        whole currency units); no rooms yet and an empty till."""
        self.rates = dict(rates)
        self.rooms = {}
        self.guests = {}
        self.takings_total = 0
        self.withdrawals = []

    def add_room(self, number, kind):
        """Add room `number` of the given `kind` (one of the rate's kinds).

        :raises KeyError: if `kind` has no rate.
        :raises ValueError: if the room `number` already exists.
        """
        if kind not in self.rates:
            raise KeyError(kind)
        if number in self.rooms:
            raise ValueError(f"room {number} exists")
        self.rooms[number] = kind

    def check_in(self, number, guest, nights):
        """Let room `number` to `guest` for `nights` nights and take the payment (the room's nightly rate
        times `nights`) into the till. Returns the amount paid.

        :raises KeyError: if there is no room `number`.
        :raises ValueError: if the room is occupied, or `nights` is not positive.
        """
        if number not in self.rooms:
            raise KeyError(number)
        if number in self.guests or nights <= 0:
            raise ValueError("room occupied or no nights")
        self.guests[number] = guest
        paid = self.rates[self.rooms[number]] * nights
        self.takings_total += paid
        return paid

    def check_out(self, number):
        """Free room `number` and return the guest who stayed there.

        :raises KeyError: if nobody stays in room `number`.
        """
        return self.guests.pop(number)

    def vacant_rooms(self):
        """Return the numbers of the rooms nobody stays in, sorted."""
        return sorted(n for n in self.rooms if n not in self.guests)

    def withdraw(self, amount):
        """Take `amount` out of the till.

        :raises ValueError: if `amount` is not positive or more than the till holds.
        """
        if amount <= 0 or amount > self.takings_total:
            raise ValueError("bad amount")
        self.takings_total -= amount
        self.withdrawals.append(amount)

    def takings(self):
        """Return what the till holds: all payments taken, less the withdrawals."""
        return self.takings_total

    def withdrawn(self):
        """Return the total taken out of the till so far."""
        return sum(self.withdrawals)
