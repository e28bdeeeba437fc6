"""Small inline classes shared by the synthesis tests."""

ACCOUNT = '''"""A tiny bank account."""


class Account:
    """Money in, money out, with a ledger."""

    def __init__(self, owner: str, balance: int = 0) -> None:
        """Open an account."""
        self.owner = owner
        self.balance = balance
        self.ledger: list[int] = []

    def deposit(self, amount: int) -> int:
        """Add money; return the new balance."""
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.balance += amount
        self.ledger.append(amount)
        return self.balance

    def withdraw(self, amount: int) -> int:
        """Take money out; return the new balance."""
        if amount > self.balance:
            raise ValueError("insufficient funds")
        self.balance -= amount
        self.ledger.append(-amount)
        return self.balance

    def current(self) -> int:
        """Return the balance."""
        return self.balance

    def movements(self) -> int:
        """Return how many movements were booked."""
        return len(self.ledger)
'''

ACCOUNT_TESTS = '''import pytest

from account import Account


def test_deposit_then_withdraw():
    account = Account("ada", 10)
    assert account.deposit(5) == 15
    assert account.withdraw(3) == 12
    assert account.movements() == 2


def test_overdraw_refused():
    account = Account("bob")
    with pytest.raises(ValueError):
        account.withdraw(1)
    assert account.current() == 0


def test_negative_deposit_refused():
    with pytest.raises(ValueError):
        Account("cy").deposit(-2)
'''

WALLET = ACCOUNT.replace("class Account:", "class Wallet:").replace('''    def current(self) -> int:''', '''    def withdraw_all(self) -> int:
        """Take out the whole balance; return the amount taken (0 changes nothing)."""
        amount = self.current()
        if amount:
            self.balance = 0
            self.ledger.append(-amount)
        return amount

    def try_withdraw(self, amount: int) -> bool:
        """Take money out if the balance covers it; return whether it did (False changes nothing)."""
        if amount > self.balance:
            return False
        self.balance -= amount
        self.ledger.append(-amount)
        return True

    def entries(self) -> list[int]:
        """Return the booked amounts, oldest first."""
        return list(self.ledger)

    def current(self) -> int:''')
"""An account whose every field a public method shows (a snapshot can state its shape), with a method that
calls another (`withdraw_all` reads `current()`), one that reports failure by returning False and one that
can be a no-op."""


def hybrid_instance(fusion, **kwargs):
    """An instance of a fusion's hybrid class, made from its source (the bundled seeds' own code)."""
    namespace: dict = {}
    exec(compile(fusion.source, fusion.module_name, "exec"), namespace)
    return namespace[fusion.class_name](**kwargs)
