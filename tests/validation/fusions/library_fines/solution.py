class LendingLibrary:
    """A lending library that keeps its members' fines in a ledger.

    Books are lent for a loan period; a book returned late is fined per day late, and the fine is entered in
    the ledger as a record ``(member, amount)``. Members settle their fines by paying; the ledger holds one
    record per fine and per payment (a payment as a negative amount).
    """

    def __init__(self, loan_days=14, fine_per_day=20):
        """Open the library: loans last `loan_days` days, a late day costs `fine_per_day` cents."""
        self.loan_days = loan_days
        self.fine_per_day = fine_per_day
        self.shelf = set()
        self.loans = {}
        self.entries = []

    def add_book(self, title):
        """Put a copy of `title` on the shelf.

        :raises ValueError: if the library already has `title`; the shelf is then left unchanged.
        """
        if title in self.shelf or title in self.loans:
            raise ValueError(title)
        self.shelf.add(title)

    def lend(self, title, member, day):
        """Lend `title` to `member` on `day`; returns the day it is due back.

        :raises KeyError: if `title` is not on the shelf.
        """
        self.shelf.remove(title) if title in self.shelf else self._missing(title)
        due = day + self.loan_days
        self.loans[title] = (member, due)
        return due

    def _missing(self, title):
        raise KeyError(title)

    def give_back(self, title, day):
        """Take `title` back on `day` and fine its borrower for each day after the due day; returns the
        fine in cents (0 when on time).

        :raises KeyError: if `title` is not lent.
        """
        member, due = self.loans.pop(title)
        self.shelf.add(title)
        fine = max(0, day - due) * self.fine_per_day
        if fine:
            self._enter(member, fine)
        return fine

    def _enter(self, member, amount):
        self.entries.append((member, amount))

    def pay(self, member, amount):
        """Record a payment of `amount` cents by `member` against their fines.

        :raises ValueError: if `amount` is not positive or more than `member` owes; the ledger is then left
            unchanged.
        """
        if amount <= 0 or amount > self.owed(member):
            raise ValueError("bad payment")
        self._enter(member, -amount)

    def owed(self, member):
        """Return what `member` owes in cents: their fines less their payments."""
        return sum(amount for who, amount in self.entries if who == member)

    def on_shelf(self):
        """Return the titles on the shelf, sorted."""
        return sorted(self.shelf)
