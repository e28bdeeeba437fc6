"""Convert quantities between user-defined units."""


class UnitConverter:
    """A table of units grouped by dimension, with conversion between them.

    Every unit maps a value ``v`` to the dimension's base unit as
    ``v * factor + offset``; the base unit itself has factor 1 and offset 0.
    Offsets make temperature scales possible. Results are rounded to nine
    decimal places so that round trips print cleanly.

    >>> units = UnitConverter()
    >>> units.define_unit("m", "length", 1.0)
    1
    >>> units.derive_unit("km", 1000, "m")
    1000.0
    >>> units.convert(2.5, "km", "m")
    2500.0
    >>> units.convert_text("1200 m", "km")
    '1.2 km'
    """

    def __init__(self) -> None:
        """Create a converter with no units.

        >>> UnitConverter().units("length")
        []
        """
        self._units: dict[str, tuple[str, float, float]] = {}
        self._aliases: dict[str, str] = {}

    def define_unit(self, name: str, dimension: str, factor: float, offset: float = 0.0) -> int:
        """Add a unit given by its factor and offset relative to the base unit.

        Args:
            name: the unit symbol, without whitespace.
            dimension: what it measures, e.g. ``"length"``.
            factor: how many base units one of this unit is.
            offset: added after scaling (for shifted scales such as Celsius).

        Returns:
            The number of units now defined for ``dimension``.

        Raises:
            ValueError: if the name is already a unit or alias, contains
                whitespace, or the factor is not positive.

        >>> UnitConverter().define_unit("K", "temperature", 1.0)
        1
        """
        if not name or name.split() != [name] or name in self._units or name in self._aliases:
            raise ValueError(f"unit name {name!r} is invalid or taken")
        if factor <= 0:
            raise ValueError("factor must be positive")
        self._units[name] = (dimension, float(factor), float(offset))
        return len(self.units(dimension))

    def _lookup(self, name: str) -> tuple[str, float, float]:
        """Return ``(dimension, factor, offset)`` for a unit or alias.

        Args:
            name: a unit name or alias.

        Returns:
            The unit's ``(dimension, factor, offset)``.

        Raises:
            KeyError: if the name is unknown.

        >>> u = UnitConverter(); _ = u.define_unit("s", "time", 1.0)
        >>> u._lookup("s")
        ('time', 1.0, 0.0)
        """
        return self._units[self._aliases.get(name, name)]

    def derive_unit(self, name: str, amount: float, of_unit: str) -> float:
        """Define ``name`` as ``amount`` of an existing unit.

        Args:
            name: the new unit's name.
            amount: how many ``of_unit`` make one new unit.
            of_unit: an existing unit or alias without offset.

        Returns:
            The new unit's factor relative to the base unit.

        Raises:
            KeyError: if ``of_unit`` is unknown.
            ValueError: if ``of_unit`` has an offset (a ratio of a shifted
                scale is meaningless) or the name is taken.

        >>> u = UnitConverter(); _ = u.define_unit("s", "time", 1.0)
        >>> u.derive_unit("min", 60, "s"), u.derive_unit("h", 60, "min")
        (60.0, 3600.0)
        """
        dimension, factor, offset = self._lookup(of_unit)
        if offset:
            raise ValueError(f"cannot derive from offset unit {of_unit!r}")
        self.define_unit(name, dimension, amount * factor)
        return amount * factor

    def add_alias(self, alias: str, unit: str) -> list[str]:
        """Let ``alias`` stand for ``unit`` (which may itself be an alias).

        Args:
            alias: the new name.
            unit: an existing unit or alias.

        Returns:
            All aliases of the target unit, sorted.

        Raises:
            KeyError: if ``unit`` is unknown.
            ValueError: if ``alias`` is already a unit or alias.

        >>> u = UnitConverter(); _ = u.define_unit("m", "length", 1.0)
        >>> u.add_alias("metre", "m")
        ['metre']
        """
        self._lookup(unit)
        if alias in self._units or alias in self._aliases:
            raise ValueError(f"name {alias!r} is taken")
        target = self._aliases.get(unit, unit)
        self._aliases[alias] = target
        return sorted(a for a, t in self._aliases.items() if t == target)

    def units(self, dimension: str) -> list[str]:
        """Return the unit names (not aliases) of ``dimension``, sorted.

        Args:
            dimension: the dimension name.

        Returns:
            Unit names in ascending order; empty for an unknown dimension.

        >>> UnitConverter().units("length")
        []
        """
        return sorted(name for name, spec in self._units.items() if spec[0] == dimension)

    def convert(self, value: float, from_unit: str, to_unit: str) -> float:
        """Convert ``value`` from one unit to another of the same dimension.

        Args:
            value: the amount in ``from_unit``.
            from_unit: the source unit or alias.
            to_unit: the target unit or alias.

        Returns:
            The amount in ``to_unit``, rounded to nine decimal places.

        Raises:
            KeyError: if a unit is unknown.
            ValueError: if the units measure different dimensions.

        >>> u = UnitConverter(); _ = u.define_unit("K", "temperature", 1.0)
        >>> _ = u.define_unit("C", "temperature", 1.0, 273.15)
        >>> u.convert(25, "C", "K")
        298.15
        """
        dim_from, factor_from, offset_from = self._lookup(from_unit)
        dim_to, factor_to, offset_to = self._lookup(to_unit)
        if dim_from != dim_to:
            raise ValueError(f"cannot convert {dim_from} to {dim_to}")
        base = value * factor_from + offset_from
        return round((base - offset_to) / factor_to, 9) + 0.0

    def parse_quantity(self, text: str) -> tuple[float, str]:
        """Split text such as ``"3.5 km"`` or ``"-40C"`` into value and unit.

        A unit whose name starts with ``e`` or ``E`` must be separated from
        the number by a space, since those letters may belong to an exponent.

        Args:
            text: a number followed by a unit, with optional spaces.

        Returns:
            A ``(value, unit)`` tuple; the unit is returned as written.

        Raises:
            ValueError: if there is no number or no unit.
            KeyError: if the unit is unknown.

        >>> u = UnitConverter(); _ = u.define_unit("km", "length", 1000.0)
        >>> u.parse_quantity(" 3.5 km ")
        (3.5, 'km')
        """
        stripped = text.strip()
        split_at = len(stripped)
        for index, char in enumerate(stripped):
            if not (char.isdigit() or char in "+-.eE"):
                split_at = index
                break
        number, unit = stripped[:split_at], stripped[split_at:].strip()
        if not unit:
            raise ValueError(f"no unit in {text!r}")
        try:
            value = float(number)
        except ValueError:
            raise ValueError(f"no number in {text!r}") from None
        self._lookup(unit)
        return (value, unit)

    def convert_text(self, text: str, to_unit: str) -> str:
        """Convert a quantity written as text and format it as ``"<value> <unit>"``.

        The value is formatted with up to six significant digits.

        Args:
            text: a quantity such as ``"3.5 km"``.
            to_unit: the target unit or alias.

        Returns:
            The converted quantity as text, e.g. ``"3500 m"``.

        Raises:
            KeyError, ValueError: as ``parse_quantity`` and ``convert``.

        >>> u = UnitConverter(); _ = u.define_unit("g", "mass", 1.0); _ = u.derive_unit("kg", 1000, "g")
        >>> u.convert_text("250 g", "kg")
        '0.25 kg'
        """
        value, unit = self.parse_quantity(text)
        return f"{self.convert(value, unit, to_unit):g} {to_unit}"

    def humanize(self, value: float, unit: str) -> tuple[float, str]:
        """Re-express a quantity in the largest unit of its dimension that keeps it at least 1.

        Only units without an offset are considered; if none keeps the
        absolute value at least 1, the smallest such unit is used.

        Args:
            value: the amount in ``unit``.
            unit: a unit or alias.

        Returns:
            A ``(value, unit)`` tuple in the chosen unit.

        Raises:
            KeyError: if the unit is unknown.
            ValueError: if every unit of the dimension has an offset.

        >>> u = UnitConverter(); _ = u.define_unit("m", "length", 1.0); _ = u.derive_unit("km", 1000, "m")
        >>> u.humanize(0.25, "km")
        (250.0, 'm')
        """
        dimension = self._lookup(unit)[0]
        candidates = sorted((self._units[n][1], n) for n in self.units(dimension) if not self._units[n][2])
        if not candidates:
            raise ValueError(f"no offset-free unit for {dimension}")
        best = candidates[0][1]
        for _, name in candidates:
            if abs(self.convert(value, unit, name)) >= 1:
                best = name
        return (self.convert(value, unit, best), best)
