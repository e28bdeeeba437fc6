"""Split shared expenses within a group and work out who pays whom."""


class ExpenseSplitter:
    """A group's shared expenses, kept in integer cents.

    An expense is paid by one member and shared by several according to integer
    weights. Shares are rounded down to cents; the cents left over go one each
    to the participants in alphabetical order, so shares always add up to the
    amount. A positive balance means the group owes that member money.

    >>> g = ExpenseSplitter(["ana", "ben", "cy"])
    >>> g.add_expense("ana", 1000, ["ana", "ben", "cy"], "pizza")
    1
    >>> g.balances()
    {'ana': 666, 'ben': -333, 'cy': -333}
    >>> g.settle_up()
    [('ben', 'ana', 333), ('cy', 'ana', 333)]
    """

    def __init__(self, members: list[str]) -> None:
        """Start a group.

        :param members: member names; duplicates are ignored.

        >>> ExpenseSplitter(["ana", "ana", "ben"]).balances()
        {'ana': 0, 'ben': 0}
        """
        self.members: set[str] = set(members)
        self.expenses: dict[int, tuple[str, int, dict[str, int], str]] = {}
        self.payments: list[tuple[str, str, int]] = []
        self.next_id = 1

    def add_member(self, name: str) -> None:
        """Add a member to the group.

        :param name: the new member's name.
        :raises ValueError: if the name is already a member.

        >>> g = ExpenseSplitter(["ana"])
        >>> g.add_member("ben")
        >>> g.balances()
        {'ana': 0, 'ben': 0}
        """
        if name in self.members:
            raise ValueError(f"{name!r} is already a member")
        self.members.add(name)

    def _require_members(self, names: list[str]) -> None:
        """Check that every name in ``names`` is a member.

        :param names: names to check, in order.
        :raises KeyError: naming the first that is not a member.

        >>> ExpenseSplitter(["ana"])._require_members(["ana", "zed"])
        Traceback (most recent call last):
        ...
        KeyError: 'zed'
        """
        for name in names:
            if name not in self.members:
                raise KeyError(name)

    def add_weighted_expense(self, payer: str, amount: int, weights: dict[str, int], description: str) -> int:
        """Record an expense shared in proportion to integer weights.

        :param payer: member who paid.
        :param amount: amount paid in cents, > 0.
        :param weights: participant -> weight (>= 1); participants must be members.
        :param description: what the money was for.
        :return: the expense id (1, 2, ...).
        :raises KeyError: if the payer or a participant is not a member.
        :raises ValueError: if the amount is not positive, there are no participants or a weight is below 1.

        >>> g = ExpenseSplitter(["ana", "ben"])
        >>> g.add_weighted_expense("ana", 900, {"ana": 1, "ben": 2}, "cabin")
        1
        >>> g.owes("ben")
        600
        """
        self._require_members([payer] + sorted(weights))
        if amount <= 0 or not weights or min(weights.values()) < 1:
            raise ValueError("need a positive amount and participants with weights >= 1")
        total_weight = sum(weights.values())
        shares = {name: amount * weight // total_weight for name, weight in weights.items()}
        leftover = amount - sum(shares.values())
        for name in sorted(weights)[:leftover]:
            shares[name] += 1
        expense_id = self.next_id
        self.next_id += 1
        self.expenses[expense_id] = (payer, amount, shares, description)
        return expense_id

    def add_expense(self, payer: str, amount: int, participants: list[str], description: str) -> int:
        """Record an expense split evenly among ``participants``.

        :param payer: member who paid.
        :param amount: amount paid in cents, > 0.
        :param participants: members sharing the cost (each once).
        :param description: what the money was for.
        :return: the expense id.
        :raises KeyError: if the payer or a participant is not a member.
        :raises ValueError: if the amount is not positive or the participant list is empty.

        >>> g = ExpenseSplitter(["ana", "ben"])
        >>> g.add_expense("ben", 300, ["ana"], "taxi")
        1
        >>> g.owes("ana")
        300
        """
        return self.add_weighted_expense(payer, amount, {name: 1 for name in participants}, description)

    def remove_expense(self, expense_id: int) -> str:
        """Delete a recorded expense.

        :param expense_id: id returned when the expense was added.
        :return: the description of the removed expense.
        :raises KeyError: if there is no such expense.

        >>> g = ExpenseSplitter(["ana", "ben"])
        >>> g.remove_expense(g.add_expense("ben", 300, ["ana"], "taxi"))
        'taxi'
        """
        return self.expenses.pop(expense_id)[3]

    def record_payment(self, sender: str, receiver: str, amount: int) -> None:
        """Record money paid directly from one member to another.

        :param sender: member who paid.
        :param receiver: member who received the money.
        :param amount: cents paid, > 0.
        :raises KeyError: if either person is not a member.
        :raises ValueError: if the amount is not positive or sender equals receiver.

        >>> g = ExpenseSplitter(["ana", "ben"])
        >>> _ = g.add_expense("ben", 300, ["ana"], "taxi")
        >>> g.record_payment("ana", "ben", 300)
        >>> g.owes("ana")
        0
        """
        self._require_members([sender, receiver])
        if amount <= 0 or sender == receiver:
            raise ValueError("a payment needs a positive amount between two different members")
        self.payments.append((sender, receiver, amount))

    def balances(self) -> dict[str, int]:
        """Net position of every member in cents, members in alphabetical order.

        Paid expenses and payments sent count in a member's favour; shares and
        payments received count against.

        :return: member -> balance in cents (positive: the group owes them).

        >>> ExpenseSplitter(["cy", "ana"]).balances()
        {'ana': 0, 'cy': 0}
        """
        net = {name: 0 for name in sorted(self.members)}
        for payer, amount, shares, _ in self.expenses.values():
            net[payer] += amount
            for name, share in shares.items():
                net[name] -= share
        for sender, receiver, amount in self.payments:
            net[sender] += amount
            net[receiver] -= amount
        return net

    def owes(self, name: str) -> int:
        """How much ``name`` owes the group.

        :param name: a member.
        :return: the debt in cents, 0 if the member owes nothing.
        :raises KeyError: if ``name`` is not a member.

        >>> ExpenseSplitter(["ana"]).owes("ana")
        0
        """
        self._require_members([name])
        return max(0, -self.balances()[name])

    def remove_member(self, name: str) -> None:
        """Remove a member who takes part in no recorded expense or payment.

        Removing an expense can make a member removable again.

        :param name: a member.
        :raises KeyError: if ``name`` is not a member.
        :raises ValueError: if an expense or a payment involves the member.

        >>> g = ExpenseSplitter(["ana", "ben"])
        >>> g.remove_member("ben")
        >>> g.balances()
        {'ana': 0}
        """
        self._require_members([name])
        in_expense = any(payer == name or name in shares for payer, _, shares, _ in self.expenses.values())
        if in_expense or any(name in (sender, receiver) for sender, receiver, _ in self.payments):
            raise ValueError(f"{name} appears in recorded expenses or payments")
        self.members.remove(name)

    def settle_up(self) -> list[tuple[str, str, int]]:
        """A short list of payments that would bring every balance to zero.

        Repeatedly the member who owes most pays the member owed most (ties by
        name) as much as settles one of them. Nothing is recorded.

        :return: ``(payer, receiver, amount)`` triples.

        >>> ExpenseSplitter(["ana"]).settle_up()
        []
        """
        balance = self.balances()
        transfers: list[tuple[str, str, int]] = []
        while balance:
            debtor = min(balance, key=lambda n: (balance[n], n))
            creditor = min(balance, key=lambda n: (-balance[n], n))
            amount = min(-balance[debtor], balance[creditor])
            if amount <= 0:
                return transfers
            transfers.append((debtor, creditor, amount))
            balance[debtor] += amount
            balance[creditor] -= amount
        return transfers
