class CarParkWallet:
    """A car park's sessions and a prepaid wallet, with a daily close.

    Closing the day, allowed only once every car has left, clears the wallet's statement for the next day.
    Parking itself is never paid from the wallet.
    """

    def __init__(self):
        """Start with no cars and an empty wallet."""
        self.sessions = {}
        self.credit = 0
        self.statement = []

    def enter(self, plate, minute):
        """Start a session for `plate` at `minute`.

        :raises ValueError: if `plate` is parked; the sessions are then left unchanged.
        """
        if plate in self.sessions:
            raise ValueError(plate)
        self.sessions[plate] = minute

    def leave(self, plate, minute):
        """End the session of `plate` at `minute`; returns the minutes it lasted.

        :raises KeyError: if `plate` is not parked.
        """
        return minute - self.sessions.pop(plate)

    def parked(self):
        """Return how many cars are parked."""
        return len(self.sessions)

    def top_up(self, cents):
        """Add `cents` to the wallet and its statement.

        :raises ValueError: if `cents` is not positive; the wallet is then left unchanged.
        """
        if cents <= 0:
            raise ValueError(cents)
        self.credit += cents
        self.statement.append(cents)

    def balance(self):
        """Return the wallet's credit."""
        return self.credit

    def statement_lines(self):
        """Return how many lines today's statement holds."""
        return len(self.statement)

    def close_day(self):
        """Clear the wallet's statement for the next day (the credit stays).

        :raises RuntimeError: if a car is still parked; the statement is then left unchanged.
        """
        if self.sessions:
            raise RuntimeError("cars still parked")
        self.statement = []
