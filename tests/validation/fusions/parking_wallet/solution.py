class PrepaidParking:
    """A car park whose drivers pay from a prepaid wallet.

    A parking session starts when a car enters and ends when it leaves; the fee of a session is the
    tariff per started hour of its zone times the hours started, and it is debited from the wallet when the
    car leaves. A car cannot leave while the wallet cannot pay its fee.
    """

    def __init__(self, tariffs):
        """Open the car park with `tariffs`, the price per started hour of each zone (zone -> cents), and
        an empty wallet."""
        self.tariffs = dict(tariffs)
        self.sessions = {}
        self.credit = 0
        self.statement = []

    def enter(self, plate, zone, minute):
        """Start a session for the car `plate` in `zone` at `minute` (minutes since opening).

        :raises KeyError: if `zone` has no tariff.
        :raises ValueError: if the car is already parked.
        """
        if zone not in self.tariffs:
            raise KeyError(zone)
        if plate in self.sessions:
            raise ValueError(f"{plate} is parked")
        self.sessions[plate] = (zone, minute)

    def leave(self, plate, minute):
        """End the session of `plate` at `minute` and pay its fee from the wallet; returns the fee in
        cents. The session stays open when the wallet cannot pay.

        :raises KeyError: if `plate` is not parked.
        :raises ValueError: if the wallet holds less than the fee.
        """
        zone, since = self.sessions[plate]
        hours = max(1, -(-(minute - since) // 60))
        fee = self.tariffs[zone] * hours
        self._debit(fee, f"parking {plate}")
        del self.sessions[plate]
        return fee

    def parked(self):
        """Return how many cars are parked."""
        return len(self.sessions)

    def top_up(self, cents):
        """Add `cents` to the wallet.

        :raises ValueError: if `cents` is not positive.
        """
        if cents <= 0:
            raise ValueError("top-up must be positive")
        self.credit += cents
        self.statement.append(("top-up", cents))

    def _debit(self, cents, reason):
        if cents > self.credit:
            raise ValueError("insufficient credit")
        self.credit -= cents
        self.statement.append((reason, -cents))

    def balance(self):
        """Return the wallet's credit in cents."""
        return self.credit

    def spent(self):
        """Return the total debited from the wallet, in cents."""
        return -sum(amount for _, amount in self.statement if amount < 0)
