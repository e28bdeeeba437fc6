"""A mutable polynomial in one variable with real coefficients."""


class Polynomial:
    """A polynomial ``c0 + c1*x + c2*x**2 + ...`` that can be changed in place.

    ``_coefficients[i]`` is the coefficient of ``x**i``; the list never ends
    in a zero (the zero polynomial is the empty list), which
    :meth:`_trim` restores after every change.  Evaluation uses Horner's
    rule, and :meth:`find_root` bisects using :meth:`evaluate`.

    >>> p = Polynomial([-2, 0, 1])          # x^2 - 2
    >>> p.to_string()
    'x^2 - 2'
    >>> round(p.find_root(0, 2), 6)
    1.414214
    >>> p.multiply([1, 1])                  # (x^2 - 2)(x + 1)
    >>> p.coefficients()
    [-2, -2, 1, 1]
    """

    def __init__(self, coefficients: list[float] | None = None) -> None:
        """Create a polynomial from coefficients, lowest power first.

        :param coefficients: ``[c0, c1, ...]``; ``None`` or ``[]`` gives the zero polynomial.
        :raises TypeError: if a coefficient is not an ``int`` or ``float``.

        >>> Polynomial([3, 0, 0]).degree()
        0
        """
        values = list(coefficients or [])
        for value in values:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"coefficients must be numbers, got {value!r}")
        self._coefficients: list[float] = values
        self._trim()

    def _trim(self) -> None:
        """Drop trailing zero coefficients so the leading one is non-zero.

        >>> p = Polynomial([1]); p._coefficients.append(0); p._trim(); p.coefficients()
        [1]
        """
        while self._coefficients and self._coefficients[-1] == 0:
            self._coefficients.pop()

    def degree(self) -> int:
        """Return the degree; the zero polynomial has degree ``-1``.

        :return: the highest power with a non-zero coefficient, or ``-1``.

        >>> Polynomial([1, 2, 3]).degree(), Polynomial().degree()
        (2, -1)
        """
        return len(self._coefficients) - 1

    def coefficients(self) -> list[float]:
        """Return a copy of the coefficients, lowest power first.

        :return: the trimmed coefficient list (``[]`` for zero).

        >>> Polynomial([0, 1, 0]).coefficients()
        [0, 1]
        """
        return list(self._coefficients)

    def add_term(self, coefficient: float, power: int) -> None:
        """Add ``coefficient * x**power`` to the polynomial.

        :param coefficient: the amount to add to the coefficient of ``x**power``.
        :param power: a non-negative exponent.
        :raises ValueError: if ``power`` is negative.

        >>> p = Polynomial([1])
        >>> p.add_term(4, 3)
        >>> p.coefficients()
        [1, 0, 0, 4]
        """
        if power < 0:
            raise ValueError(f"power must be non-negative, got {power}")
        if power >= len(self._coefficients):
            self._coefficients.extend([0] * (power + 1 - len(self._coefficients)))
        self._coefficients[power] += coefficient
        self._trim()

    def multiply(self, coefficients: list[float]) -> None:
        """Multiply in place by another polynomial given by its coefficients.

        :param coefficients: the factor, lowest power first.

        >>> p = Polynomial([1, 1])
        >>> p.multiply([-1, 1])
        >>> p.to_string()
        'x^2 - 1'
        """
        product = [0] * max(0, len(self._coefficients) + len(coefficients) - 1)
        for i, left in enumerate(self._coefficients):
            for j, right in enumerate(coefficients):
                product[i + j] += left * right
        self._coefficients = product
        self._trim()

    def evaluate(self, x: float) -> float:
        """Evaluate at ``x`` with Horner's rule.

        :param x: the point.
        :return: the polynomial's value there (``0`` for the zero polynomial).

        >>> Polynomial([1, -3, 2]).evaluate(3)
        10
        """
        result = 0
        for coefficient in reversed(self._coefficients):
            result = result * x + coefficient
        return result

    def derivative(self) -> list[float]:
        """Return the coefficients of the first derivative.

        :return: derivative coefficients, lowest power first.

        >>> Polynomial([5, 3, 2]).derivative()
        [3, 4]
        """
        return [power * c for power, c in enumerate(self._coefficients)][1:]

    def integral(self, lower: float, upper: float) -> float:
        """Return the definite integral from ``lower`` to ``upper``.

        :param lower: lower limit.
        :param upper: upper limit.
        :return: the signed area under the curve.

        >>> Polynomial([0, 0, 3]).integral(0, 2)
        8.0
        """
        antiderivative = Polynomial([0.0] + [c / (power + 1) for power, c in enumerate(self._coefficients)])
        return antiderivative.evaluate(upper) - antiderivative.evaluate(lower)

    def find_root(self, low: float, high: float, tolerance: float = 1e-12) -> float:
        """Find a root in ``[low, high]`` by bisection.

        :param low: one end of the bracket.
        :param high: the other end, greater than ``low``.
        :param tolerance: stop when the bracket is narrower than this (> 0).
        :return: a point within ``tolerance`` of a root.
        :raises ValueError: if ``low >= high``, ``tolerance <= 0``, or the
            values at the ends have the same sign (no bracketed root).

        >>> round(Polynomial([-6, 1, 1]).find_root(0, 5), 9)
        2.0
        """
        if low >= high:
            raise ValueError(f"empty bracket [{low}, {high}]")
        if tolerance <= 0:
            raise ValueError("tolerance must be positive")
        f_low, f_high = self.evaluate(low), self.evaluate(high)
        if f_low == 0:
            return low
        if f_high == 0:
            return high
        if (f_low < 0) == (f_high < 0):
            raise ValueError(f"no sign change between {low} and {high}")
        while high - low > tolerance:
            middle = (low + high) / 2
            f_middle = self.evaluate(middle)
            if f_middle == 0:
                return middle
            if (f_middle < 0) == (f_low < 0):
                low, f_low = middle, f_middle
            else:
                high = middle
        return (low + high) / 2

    def to_string(self, variable: str = "x") -> str:
        """Format the polynomial, highest power first, like ``3x^2 - x + 2``.

        Coefficients are printed with ``%g``; a coefficient of 1 is omitted
        except on the constant term.

        :param variable: the variable name to print.
        :return: the formatted polynomial, ``"0"`` for the zero polynomial.

        >>> Polynomial([2, -1, 3]).to_string()
        '3x^2 - x + 2'
        >>> Polynomial([0, 0.5]).to_string("t")
        '0.5t'
        """
        parts: list[str] = []
        for power in range(self.degree(), -1, -1):
            coefficient = self._coefficients[power]
            if coefficient == 0:
                continue
            magnitude = abs(coefficient)
            if power == 0:
                body = f"{magnitude:g}"
            else:
                head = "" if magnitude == 1 else f"{magnitude:g}"
                body = head + variable + (f"^{power}" if power > 1 else "")
            if not parts:
                parts.append(("-" if coefficient < 0 else "") + body)
            else:
                parts.append(("- " if coefficient < 0 else "+ ") + body)
        return " ".join(parts) if parts else "0"
