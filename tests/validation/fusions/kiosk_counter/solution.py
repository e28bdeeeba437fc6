class CountedKiosk:
    """A theatre's ticket kiosk with a usage counter of its operations.

    Selling or refunding a seat is counted by kind once the kiosk accepted it; refused requests are not
    counted. The counter can also count other kinds of events given to it.
    """

    def __init__(self, seats):
        """Open the kiosk with the seat numbers 1..`seats` free and every count at zero."""
        self.free = set(range(1, seats + 1))
        self.sold = {}
        self.counts = {}

    def sell(self, seat, name):
        """Sell `seat` to `name`.

        :raises ValueError: if `seat` is not free; nothing is counted then.
        """
        if seat not in self.free:
            raise ValueError(seat)
        self.free.remove(seat)
        self.sold[seat] = name
        self._tick("sale")

    def refund(self, seat):
        """Refund `seat` and free it; returns the name it was sold to.

        :raises KeyError: if `seat` was not sold; nothing is counted then.
        """
        name = self.sold.pop(seat)
        self.free.add(seat)
        self._tick("refund")
        return name

    def free_seats(self):
        """Return how many seats are free."""
        return len(self.free)

    def _tick(self, kind):
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def count_event(self, kind):
        """Count one event of `kind`."""
        self._tick(kind)

    def count(self, kind):
        """Return how many events of `kind` were counted (0 for none)."""
        return self.counts.get(kind, 0)
