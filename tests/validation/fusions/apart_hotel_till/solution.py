class HotelAndTill:
    """A hotel's rooms and a till, side by side.

    The rooms are let and freed; the till takes payments and gives out cash. Neither looks at the other.
    """

    def __init__(self):
        """Start with no rooms and an empty till."""
        self.rooms = {}
        self.guests = {}
        self.holdings = 0
        self.receipts = []

    def add_room(self, number, kind):
        """Add room `number` of the given `kind`.

        :raises ValueError: if room `number` exists; the rooms are then left unchanged.
        """
        if number in self.rooms:
            raise ValueError(number)
        self.rooms[number] = kind

    def check_in(self, number, guest):
        """Let room `number` to `guest`.

        :raises KeyError: if there is no room `number`.
        :raises ValueError: if the room is occupied; the room is then left unchanged.
        """
        if number not in self.rooms:
            raise KeyError(number)
        if number in self.guests:
            raise ValueError(number)
        self.guests[number] = guest

    def check_out(self, number):
        """Free room `number`; returns the guest who stayed there.

        :raises KeyError: if nobody stays there.
        """
        return self.guests.pop(number)

    def vacant(self):
        """Return the numbers of the free rooms, sorted."""
        return sorted(n for n in self.rooms if n not in self.guests)

    def pay(self, amount):
        """Take a payment of `amount` into the till.

        :raises ValueError: if `amount` is not positive; the till is then left unchanged.
        """
        if amount <= 0:
            raise ValueError(amount)
        self.holdings += amount
        self.receipts.append(amount)

    def take_out(self, amount):
        """Give out `amount` from the till.

        :raises ValueError: if the till holds less than `amount`; the till is then left unchanged.
        """
        if amount > self.holdings:
            raise ValueError(amount)
        self.holdings -= amount

    def holding(self):
        """Return what the till holds."""
        return self.holdings

    def payments(self):
        """Return how many payments the till took."""
        return len(self.receipts)
