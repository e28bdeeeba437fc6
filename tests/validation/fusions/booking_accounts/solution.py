class StudioBookings:
    """A studio's booking calendar that bills each customer's account.

    Booking a slot bills the customer the slot's price (peak slots cost more); cancelling credits it back.
    Each customer's account is a list of entries (positive: billed, negative: credited or paid).
    """

    def __init__(self, price, peak_price, peak_hours):
        """Charge `price` per slot, `peak_price` for the hours in `peak_hours`; no bookings, no accounts."""
        self.price = price
        self.peak_price = peak_price
        self.peak_hours = set(peak_hours)
        self.slots = {}
        self.accounts = {}

    def book(self, hour, customer):
        """Book the slot at `hour` for `customer` and bill its price; returns the price.

        :raises ValueError: if the slot is taken; the bookings and accounts are then left unchanged.
        """
        if hour in self.slots:
            raise ValueError(hour)
        self.slots[hour] = customer
        amount = self.peak_price if hour in self.peak_hours else self.price
        entries = self.accounts.setdefault(customer, [])
        entries.append(amount)
        return amount

    def cancel(self, hour):
        """Cancel the booking at `hour` and credit its price back to the customer.

        :raises KeyError: if nothing is booked at `hour`.
        """
        customer = self.slots.pop(hour)
        amount = self.peak_price if hour in self.peak_hours else self.price
        self.accounts[customer].append(-amount)

    def booked_hours(self):
        """Return the booked hours, sorted."""
        return sorted(self.slots)

    def pay(self, customer, amount):
        """Record a payment of `amount` by `customer`.

        :raises KeyError: if `customer` has no account.
        """
        self.accounts[customer].append(-amount)

    def owed(self, customer):
        """Return what `customer` owes (0 without an account)."""
        return sum(self.accounts.get(customer, []))
