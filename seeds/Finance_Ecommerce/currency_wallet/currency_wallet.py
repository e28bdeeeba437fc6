"""A wallet holding several currencies, converting at fixed rates with a fee."""

from decimal import ROUND_HALF_EVEN, Decimal


class CurrencyWallet:
    """Balances in several currencies, kept in integer minor units (cents of a dollar, pence of a pound).

    Every rate says how many units of the base currency one unit of a currency
    is worth; the base currency's rate is always 1. Conversions charge a fee
    (in percent of the converted value) and round half-to-even to the cent.

    >>> w = CurrencyWallet("EUR", {"USD": "0.90", "GBP": "1.20"}, fee_percent="1")
    >>> w.deposit("USD", 10000)
    10000
    >>> w.convert("USD", "EUR", 5000)
    4455
    >>> w.net_worth("EUR")
    8955
    """

    def __init__(self, base: str, rates: dict[str, str], fee_percent: str = "0") -> None:
        """Create an empty wallet.

        :param base: code of the base currency (rate 1).
        :param rates: currency code -> value of one unit in the base currency, as a decimal string.
        :param fee_percent: conversion fee in percent, as a decimal string, 0..100.
        :raises ValueError: if a rate is not positive, the base currency is given a
            rate, or the fee is outside 0..100.

        >>> CurrencyWallet("EUR", {"USD": "0.9"}).quote("EUR", "USD", 90)
        100
        """
        self.base = base
        self.fee = Decimal(fee_percent) / 100
        if not 0 <= self.fee <= 1:
            raise ValueError("fee must be between 0 and 100 percent")
        self.rates: dict[str, Decimal] = {base: Decimal(1)}
        for currency, rate in rates.items():
            self.rates[currency] = self._parse_rate(currency, rate)
        self.balances: dict[str, int] = {}
        self.ledger: list[str] = []

    def set_rate(self, currency: str, rate: str) -> None:
        """Add or change the rate of a currency.

        :param currency: currency code other than the base.
        :param rate: value of one unit in the base currency, as a decimal string, > 0.
        :raises ValueError: if the rate is not positive or ``currency`` is the base.

        >>> w = CurrencyWallet("EUR", {})
        >>> w.set_rate("CHF", "1.05")
        >>> w.quote("CHF", "EUR", 100)
        105
        """
        self.rates[currency] = self._parse_rate(currency, rate)

    def _parse_rate(self, currency: str, rate: str) -> Decimal:
        """Validate the rate of ``currency``.

        :param currency: currency code other than the base.
        :param rate: value of one unit in the base currency, as a decimal string.
        :return: the rate as a Decimal.
        :raises ValueError: if the rate is not positive or ``currency`` is the base.

        >>> CurrencyWallet("EUR", {})._parse_rate("USD", "0.90")
        Decimal('0.90')
        """
        if currency == self.base:
            raise ValueError("the base currency's rate is fixed at 1")
        value = Decimal(rate)
        if value <= 0:
            raise ValueError("rates must be positive")
        return value

    def _check_amount(self, currency: str, amount: int) -> None:
        """Check that ``currency`` has a rate and ``amount`` is positive.

        :param currency: currency code.
        :param amount: amount in minor units.
        :raises KeyError: if the currency has no rate.
        :raises ValueError: if the amount is not positive.

        >>> CurrencyWallet("EUR", {})._check_amount("EUR", 0)
        Traceback (most recent call last):
        ...
        ValueError: amounts must be positive
        """
        if currency not in self.rates:
            raise KeyError(currency)
        if amount <= 0:
            raise ValueError("amounts must be positive")

    def balance(self, currency: str) -> int:
        """Balance held in ``currency``.

        :param currency: currency code (need not have a rate).
        :return: the balance in minor units, 0 if none is held.

        >>> CurrencyWallet("EUR", {}).balance("EUR")
        0
        """
        return self.balances.get(currency, 0)

    def _credit(self, currency: str, amount: int) -> int:
        """Add ``amount`` to the balance of ``currency``, without a ledger entry.

        Deposits and the received side of a conversion both credit through here,
        so each writes only its own ledger entry.

        :param currency: a currency with a rate.
        :param amount: minor units to add, > 0 (checked by the caller).
        :return: the new balance in that currency.

        >>> CurrencyWallet("EUR", {})._credit("EUR", 40)
        40
        """
        self.balances[currency] = self.balance(currency) + amount
        return self.balances[currency]

    def _debit(self, currency: str, amount: int) -> int:
        """Take ``amount`` from the balance of ``currency``, without a ledger entry.

        Withdrawals and the given side of a conversion both debit through here.

        :param currency: a currency with a rate.
        :param amount: minor units to take, > 0 (checked by the caller).
        :return: the new balance in that currency.
        :raises ValueError: if the amount exceeds the balance; nothing changes then.

        >>> w = CurrencyWallet("EUR", {})
        >>> _ = w._credit("EUR", 40)
        >>> w._debit("EUR", 15)
        25
        """
        if amount > self.balance(currency):
            raise ValueError(f"insufficient {currency}: have {self.balance(currency)}, need {amount}")
        self.balances[currency] -= amount
        return self.balances[currency]

    def deposit(self, currency: str, amount: int) -> int:
        """Add ``amount`` minor units of ``currency``.

        :param currency: a currency with a rate.
        :param amount: minor units to add, > 0.
        :return: the new balance in that currency.
        :raises KeyError: if the currency has no rate.
        :raises ValueError: if the amount is not positive.

        >>> CurrencyWallet("EUR", {}).deposit("EUR", 250)
        250
        """
        self._check_amount(currency, amount)
        balance = self._credit(currency, amount)
        self.ledger.append(f"deposit {amount} {currency}")
        return balance

    def withdraw(self, currency: str, amount: int) -> int:
        """Take ``amount`` minor units of ``currency`` out of the wallet.

        :param currency: a currency with a rate.
        :param amount: minor units to take, > 0.
        :return: the new balance in that currency.
        :raises KeyError: if the currency has no rate.
        :raises ValueError: if the amount is not positive or exceeds the balance.

        >>> w = CurrencyWallet("EUR", {})
        >>> _ = w.deposit("EUR", 250)
        >>> w.withdraw("EUR", 100)
        150
        """
        self._check_amount(currency, amount)
        balance = self._debit(currency, amount)
        self.ledger.append(f"withdraw {amount} {currency}")
        return balance

    def quote(self, source: str, target: str, amount: int, with_fee: bool = False) -> int:
        """Value of ``amount`` minor units of ``source`` in ``target``, rounded half-to-even.

        :param source: currency converted from.
        :param target: currency converted to.
        :param amount: minor units of ``source``.
        :param with_fee: deduct the conversion fee from the result.
        :return: minor units of ``target``.
        :raises KeyError: if either currency has no rate.

        >>> CurrencyWallet("EUR", {"USD": "0.90"}, "1").quote("USD", "EUR", 5000, with_fee=True)
        4455
        """
        value = Decimal(amount) * self.rates[source] / self.rates[target]
        if with_fee:
            value -= value * self.fee
        return int(value.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))

    def convert(self, source: str, target: str, amount: int) -> int:
        """Exchange ``amount`` minor units of ``source`` into ``target``, paying the fee.

        The received amount is quoted with the fee; when it rounds to 0 nothing is credited.
        An exchange is one ledger entry of its own: it is neither a withdrawal nor a deposit.

        :param source: currency given.
        :param target: currency received, different from ``source``.
        :param amount: minor units of ``source`` to exchange, > 0.
        :return: minor units of ``target`` received.
        :raises KeyError: if either currency has no rate.
        :raises ValueError: if source equals target, the amount is not positive or exceeds the balance.

        >>> w = CurrencyWallet("EUR", {"GBP": "1.20"})
        >>> _ = w.deposit("EUR", 1200)
        >>> w.convert("EUR", "GBP", 1200)
        1000
        >>> w.statement()
        ['deposit 1200 EUR', 'convert 1200 EUR -> 1000 GBP']
        """
        if source == target:
            raise ValueError("source and target must differ")
        self._check_amount(source, amount)
        received = self.quote(source, target, amount, with_fee=True)
        self._debit(source, amount)
        if received > 0:
            self._credit(target, received)
        self.ledger.append(f"convert {amount} {source} -> {received} {target}")
        return received

    def net_worth(self, currency: str) -> int:
        """Value of all balances in ``currency`` at current rates, without fees.

        Each balance is converted and rounded on its own, then summed.

        :param currency: a currency with a rate.
        :return: the total value in minor units of ``currency``.
        :raises KeyError: if ``currency`` has no rate.

        >>> w = CurrencyWallet("EUR", {"USD": "0.5"})
        >>> _ = w.deposit("EUR", 100)
        >>> w.net_worth("USD")
        200
        """
        if currency not in self.rates:
            raise KeyError(currency)
        return sum(
            self.quote(held, currency, amount)
            for held, amount in sorted(self.balances.items())
            if amount
        )

    def statement(self) -> list[str]:
        """Ledger entries in the order they happened: ``"deposit <amount> <currency>"``,
        ``"withdraw <amount> <currency>"`` and, for a conversion, the single entry
        ``"convert <amount> <source> -> <received> <target>"``.

        :return: a copy of the entries.

        >>> w = CurrencyWallet("EUR", {})
        >>> _ = w.deposit("EUR", 5)
        >>> w.statement()
        ['deposit 5 EUR']
        """
        return list(self.ledger)
