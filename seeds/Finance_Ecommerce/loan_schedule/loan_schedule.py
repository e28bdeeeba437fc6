"""Amortisation schedule of a fixed-rate loan, with optional overpayments."""

from decimal import ROUND_HALF_UP, Decimal


class LoanSchedule:
    """A fixed-rate loan repaid in equal monthly instalments, computed with Decimal.

    Interest for a month is the opening balance times ``annual_rate / 12 / 100``,
    rounded half-up to cents. The instalment is fixed at the start; planned
    overpayments reduce the balance after the instalment of their month, so the
    loan ends earlier. The final instalment is shortened to clear the balance
    exactly.

    >>> loan = LoanSchedule("1000.00", "12", 12)
    >>> loan.monthly_payment()
    Decimal('88.85')
    >>> loan.schedule()[0]
    (1, Decimal('10.00'), Decimal('78.85'), Decimal('921.15'))
    """

    CENT = Decimal("0.01")

    def __init__(self, principal: str, annual_rate_percent: str, months: int) -> None:
        """Define the loan.

        :param principal: amount borrowed, as a decimal string (e.g. ``"2500.00"``), > 0.
        :param annual_rate_percent: nominal yearly rate in percent, as a string, >= 0.
        :param months: number of monthly instalments, at least 1.
        :raises ValueError: if any term is out of range.

        >>> LoanSchedule("2500", "0", 10).monthly_payment()
        Decimal('250.00')
        """
        self.principal = Decimal(principal).quantize(self.CENT, rounding=ROUND_HALF_UP)
        self.monthly_rate = Decimal(annual_rate_percent) / 1200
        if self.principal <= 0 or self.monthly_rate < 0 or months < 1:
            raise ValueError("principal must be > 0, rate >= 0 and months >= 1")
        self.months = months
        self.overpayments: dict[int, Decimal] = {}

    def monthly_payment(self) -> Decimal:
        """The regular instalment, rounded half-up to cents.

        :return: the annuity payment (principal / months when the rate is 0).

        >>> LoanSchedule("1200", "0", 12).monthly_payment()
        Decimal('100.00')
        """
        if self.monthly_rate == 0:
            payment = self.principal / self.months
        else:
            factor = (1 + self.monthly_rate) ** self.months
            payment = self.principal * self.monthly_rate * factor / (factor - 1)
        return payment.quantize(self.CENT, rounding=ROUND_HALF_UP)

    def add_overpayment(self, month: int, amount: str) -> Decimal:
        """Plan an extra repayment in ``month`` (added to any already planned for it).

        :param month: month number, 1..months.
        :param amount: extra amount as a decimal string, > 0.
        :return: the total overpayment now planned for that month.
        :raises ValueError: if the month is out of range or the amount is not positive.

        >>> loan = LoanSchedule("1000", "12", 12)
        >>> loan.add_overpayment(3, "100")
        Decimal('100.00')
        """
        extra = Decimal(amount).quantize(self.CENT, rounding=ROUND_HALF_UP)
        if not 1 <= month <= self.months or extra <= 0:
            raise ValueError("overpayment needs a month in range and a positive amount")
        self.overpayments[month] = self.overpayments.get(month, Decimal("0.00")) + extra
        return self.overpayments[month]

    def remove_overpayment(self, month: int) -> Decimal:
        """Cancel the overpayment planned for ``month``.

        :param month: a month with a planned overpayment.
        :return: the amount that was planned.
        :raises KeyError: if nothing is planned for that month.

        >>> loan = LoanSchedule("1000", "12", 12)
        >>> _ = loan.add_overpayment(3, "50")
        >>> loan.remove_overpayment(3)
        Decimal('50.00')
        """
        return self.overpayments.pop(month)

    def _table(self, overpayments: dict[int, Decimal]) -> list[tuple[int, Decimal, Decimal, Decimal]]:
        """Amortisation rows for a given overpayment plan.

        :param overpayments: month -> extra repayment.
        :return: rows as described in :meth:`schedule`.

        >>> len(LoanSchedule("1000.00", "12", 12)._table({1: Decimal("900")}))
        2
        """
        payment = self.monthly_payment()
        balance = self.principal
        rows: list[tuple[int, Decimal, Decimal, Decimal]] = []
        while balance > 0:
            month = len(rows) + 1
            interest = (balance * self.monthly_rate).quantize(self.CENT, rounding=ROUND_HALF_UP)
            repaid = payment - interest + overpayments.get(month, Decimal("0"))
            if repaid >= balance or month == self.months:
                repaid = balance
            balance -= repaid
            rows.append((month, interest, repaid, balance))
        return rows

    def schedule(self) -> list[tuple[int, Decimal, Decimal, Decimal]]:
        """The amortisation table including planned overpayments.

        :return: one ``(month, interest, principal_repaid, closing_balance)`` row
            per month until the balance reaches 0; ``principal_repaid`` includes
            that month's overpayment.

        >>> LoanSchedule("300", "0", 3).schedule()[-1]
        (3, Decimal('0.00'), Decimal('100.00'), Decimal('0.00'))
        """
        return self._table(self.overpayments)

    def balance_after(self, month: int) -> Decimal:
        """Outstanding balance after the instalment (and overpayment) of ``month``.

        :param month: 0..months; month 0 is the original principal.
        :return: the closing balance, 0 once the loan is repaid.
        :raises ValueError: if ``month`` is outside 0..months.

        >>> LoanSchedule("1000.00", "12", 12).balance_after(1)
        Decimal('921.15')
        """
        if not 0 <= month <= self.months:
            raise ValueError(f"month must be within 0..{self.months}")
        if month == 0:
            return self.principal
        rows = self.schedule()
        return rows[month - 1][3] if month <= len(rows) else Decimal("0.00")

    def payoff_month(self) -> int:
        """The month in which the balance reaches 0, taking overpayments into account.

        :return: the month number (``months`` without overpayments).

        >>> loan = LoanSchedule("1000.00", "12", 12)
        >>> _ = loan.add_overpayment(1, "500")
        >>> loan.payoff_month()
        6
        """
        return len(self.schedule())

    def total_interest(self) -> Decimal:
        """Interest paid over the life of the loan with the planned overpayments.

        :return: the total interest, in cents precision.

        >>> LoanSchedule("1000.00", "12", 12).total_interest()
        Decimal('66.19')
        """
        return sum((row[1] for row in self.schedule()), Decimal("0.00"))

    def interest_saved(self) -> Decimal:
        """Interest avoided by the planned overpayments compared with none.

        :return: interest without overpayments minus interest with them.

        >>> LoanSchedule("1000.00", "12", 12).interest_saved()
        Decimal('0.00')
        """
        baseline = sum((row[1] for row in self._table({})), Decimal("0.00"))
        return baseline - self.total_interest()
