"""Exact solution of linear equation systems with rational arithmetic."""

import re
from fractions import Fraction

_TERM = re.compile(r"([+-]?)\s*(\d+(?:/\d+)?)?\s*\*?\s*([A-Za-z_]\w*)|([+-]?)\s*(\d+(?:/\d+)?)")


class LinearSystem:
    """Linear equations over a fixed list of named variables, solved exactly.

    Each stored equation is a row of :class:`~fractions.Fraction` coefficients
    (one per variable, in the order given at construction) plus a right-hand
    side.  :meth:`_reduce` computes the reduced row echelon form by
    Gauss-Jordan elimination; :meth:`rank`, :meth:`classify`, :meth:`solve`
    and friends all build on it, so results are exact (no rounding).
    Solutions are reported as strings such as ``"3/2"`` so they can be
    printed, compared or parsed back with :class:`~fractions.Fraction`.

    >>> system = LinearSystem(["x", "y"])
    >>> system.add_equation_text("2x + 3y = 7")
    0
    >>> system.add_equation({"x": 1, "y": -1}, 1)
    1
    >>> system.solve()
    {'x': '2', 'y': '1'}
    """

    def __init__(self, variables: list[str]) -> None:
        """Create an empty system over ``variables``.

        :param variables: distinct identifier names, at least one.
        :raises ValueError: if the list is empty, has duplicates or a name is not an identifier.

        >>> LinearSystem(["a", "b"]).rank()
        0
        """
        if not variables:
            raise ValueError("a system needs at least one variable")
        if len(set(variables)) != len(variables):
            raise ValueError("variable names must be distinct")
        for name in variables:
            if not name.isidentifier():
                raise ValueError(f"not a valid variable name: {name!r}")
        self._variables = list(variables)
        self._rows: list[list[Fraction]] = []

    def add_equation(self, coefficients: dict[str, int | str], constant: int | str) -> int:
        """Add ``sum(coefficients[v] * v) = constant``.

        Variables missing from ``coefficients`` get coefficient 0.
        Coefficients and the constant may be ``int`` or fraction strings such as ``"1/2"``.

        :param coefficients: variable name -> coefficient.
        :param constant: the right-hand side.
        :return: the index of the new equation.
        :raises KeyError: if a name is not one of the system's variables.
        :raises ValueError: if a string is not a valid fraction.

        >>> system = LinearSystem(["x", "y"])
        >>> system.add_equation({"y": 2}, 4)
        0
        """
        for name in coefficients:
            if name not in self._variables:
                raise KeyError(f"unknown variable: {name}")
        row = [Fraction(coefficients.get(name, 0)) for name in self._variables]
        row.append(Fraction(constant))
        self._rows.append(row)
        return len(self._rows) - 1

    def add_equation_text(self, text: str) -> int:
        """Parse an equation such as ````"3x - 1/2 y = 4"`` and add it.

        Accepted syntax: each side is a sum of terms; a term is an optional
        sign, an optional integer or ``a/b`` coefficient, an optional ``*``
        and a variable name, or just a number.  Every term but the first on
        a side needs a sign.  Terms may appear on both sides; they are moved
        to the left.

        :param text: the equation, with exactly one ``=``.
        :return: the index of the new equation.
        :raises ValueError: if the text cannot be parsed.
        :raises KeyError: if it mentions an unknown variable.

        >>> system = LinearSystem(["x", "y"])
        >>> system.add_equation_text("x + 1/2 y = 3 - y")
        0
        >>> system.equations()
        ['x + 3/2y = 3']
        """
        sides = text.split("=")
        if len(sides) != 2:
            raise ValueError(f"expected exactly one '=' in {text!r}")
        totals: dict[str, Fraction] = {}
        constant = Fraction(0)
        for side, direction in ((sides[0], 1), (sides[1], -1)):
            compact = side.strip()
            if not compact:
                raise ValueError(f"empty side in {text!r}")
            position = 0
            while position < len(compact):
                match = _TERM.match(compact, position)
                if match is None:
                    raise ValueError(f"cannot parse {compact[position:]!r} in {text!r}")
                sign_v, number_v, name, sign_c, number_c = match.groups()
                if position > 0 and not (sign_v or sign_c):
                    raise ValueError(f"missing '+' or '-' before {match.group(0)!r} in {text!r}")
                if name is not None:
                    value = Fraction(number_v or 1) * (-1 if sign_v == "-" else 1)
                    totals[name] = totals.get(name, Fraction(0)) + direction * value
                else:
                    value = Fraction(number_c) * (-1 if sign_c == "-" else 1)
                    constant -= direction * value
                position = match.end()
                while position < len(compact) and compact[position] == " ":
                    position += 1
        return self.add_equation({name: str(value) for name, value in totals.items()}, str(constant))

    def equations(self) -> list[str]:
        """Render the stored equations, one string each.

        :return: equations like ``"2x - y = 5"`` (zero terms omitted, ``"0"`` if none).

        >>> system = LinearSystem(["x", "y"])
        >>> _ = system.add_equation({"x": 2, "y": -1}, 5)
        >>> system.equations()
        ['2x - y = 5']
        """
        rendered: list[str] = []
        for row in self._rows:
            terms: list[str] = []
            for name, value in zip(self._variables, row):
                if value == 0:
                    continue
                magnitude = "" if abs(value) == 1 else str(abs(value))
                sign = "-" if value < 0 else "+"
                if terms:
                    terms.append(f"{sign} {magnitude}{name}")
                else:
                    terms.append(f"{'-' if value < 0 else ''}{magnitude}{name}")
            rendered.append(f"{' '.join(terms) or '0'} = {row[-1]}")
        return rendered

    def remove_equation(self, index: int) -> str:
        """Delete a stored equation; later equations move up by one.

        :param index: position of the equation, as returned when it was added.
        :return: the removed equation rendered as in :meth:`equations`.
        :raises IndexError: if no equation has that index.

        >>> system = LinearSystem(["x"])
        >>> _ = system.add_equation({"x": 1}, 1); _ = system.add_equation({"x": 3}, 0)
        >>> system.remove_equation(0), system.equations()
        ('x = 1', ['3x = 0'])
        """
        if not 0 <= index < len(self._rows):
            raise IndexError(f"no equation {index}; there are {len(self._rows)}")
        rendered = self.equations()[index]
        del self._rows[index]
        return rendered

    def _reduce(self) -> list[list[Fraction]]:
        """Return the reduced row echelon form of the augmented matrix.

        Rows that reduce to all zeros are dropped.  The stored equations are
        not modified.

        :return: the non-zero reduced rows.

        >>> system = LinearSystem(["x"]); _ = system.add_equation({"x": 2}, 3)
        >>> system._reduce()
        [[Fraction(1, 1), Fraction(3, 2)]]
        """
        matrix = [list(row) for row in self._rows]
        pivot_row = 0
        for column in range(len(self._variables) + 1):
            pivot = next((r for r in range(pivot_row, len(matrix)) if matrix[r][column] != 0), None)
            if pivot is None:
                continue
            matrix[pivot_row], matrix[pivot] = matrix[pivot], matrix[pivot_row]
            lead = matrix[pivot_row][column]
            matrix[pivot_row] = [value / lead for value in matrix[pivot_row]]
            for r in range(len(matrix)):
                if r != pivot_row and matrix[r][column] != 0:
                    factor = matrix[r][column]
                    matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[pivot_row])]
            pivot_row += 1
        return matrix[:pivot_row]

    def rank(self) -> int:
        """Return the rank of the coefficient matrix.

        :return: the number of independent equations (ignoring the right-hand sides).

        >>> system = LinearSystem(["x", "y"])
        >>> _ = system.add_equation({"x": 1, "y": 1}, 1); _ = system.add_equation({"x": 2, "y": 2}, 2)
        >>> system.rank()
        1
        """
        return sum(1 for row in self._reduce() if any(value != 0 for value in row[:-1]))

    def is_consistent(self) -> bool:
        """Tell whether the equations have at least one common solution.

        :return: ``False`` if elimination produces ``0 = c`` with ``c != 0``.

        >>> system = LinearSystem(["x"])
        >>> _ = system.add_equation({"x": 1}, 1); _ = system.add_equation({"x": 1}, 2)
        >>> system.is_consistent()
        False
        """
        return len(self._reduce()) == self.rank()

    def classify(self) -> str:
        """Classify the solution set.

        :return: ``"none"``, ``"unique"`` or ``"infinite"``.

        >>> LinearSystem(["x"]).classify()
        'infinite'
        """
        if not self.is_consistent():
            return "none"
        return "unique" if self.rank() == len(self._variables) else "infinite"

    def solve(self) -> dict[str, str]:
        """Return the unique solution, exactly.

        :return: variable name -> value as a fraction string (``"2"``, ``"-3/4"``).
        :raises ValueError: if the system has no solution or infinitely many.

        >>> system = LinearSystem(["x"]); _ = system.add_equation({"x": 4}, 3)
        >>> system.solve()
        {'x': '3/4'}
        """
        kind = self.classify()
        if kind != "unique":
            raise ValueError(f"system has {'no' if kind == 'none' else 'infinitely many'} solutions")
        reduced = self._reduce()
        return {name: str(reduced[i][-1]) for i, name in enumerate(self._variables)}

    def verify(self, assignment: dict[str, int | str]) -> bool:
        """Check an assignment against every stored equation, exactly.

        :param assignment: variable name -> value (``int`` or fraction string); every variable needed.
        :return: ``True`` if all equations hold.
        :raises KeyError: if a variable is missing from ``assignment``.
        :raises ValueError: if a value is not a valid fraction.

        >>> system = LinearSystem(["x", "y"]); _ = system.add_equation({"x": 1, "y": 1}, 3)
        >>> system.verify({"x": "1", "y": "2"}), system.verify({"x": "1/2", "y": "1/2"})
        (True, False)
        """
        values = [Fraction(assignment[name]) for name in self._variables]
        return all(sum(c * v for c, v in zip(row, values)) == row[-1] for row in self._rows)
