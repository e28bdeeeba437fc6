class TillPreview:
    """A hotel's rooms and a till, with a preview of the till after the stays were paid.

    The preview adds the nightly rates of the occupied rooms to a copy of the till's receipts; the till
    itself is never paid.
    """

    def __init__(self, rate):
        """Let every room at `rate` a night; no rooms, an empty till."""
        self.rate = rate
        self.guests = {}
        self.receipts = []

    def check_in(self, room, guest):
        """Let `room` to `guest`.

        :raises ValueError: if the room is occupied; the room is then left unchanged.
        """
        if room in self.guests:
            raise ValueError(room)
        self.guests[room] = guest

    def occupied(self):
        """Return how many rooms are let."""
        return len(self.guests)

    def pay(self, amount):
        """Take `amount` into the till."""
        self.receipts.append(amount)

    def takings(self):
        """Return the till's total."""
        return sum(self.receipts)

    def preview(self):
        """Return what the till would hold if every let room paid one night."""
        projected = self.receipts.copy()
        for _ in self.guests:
            projected.append(self.rate)
        return sum(projected)
