"""Semantic version ranges and a tiny package index that resolves them."""


class SemverResolver:
    """Match ``MAJOR.MINOR.PATCH`` versions against ranges and pick the best release.

    Range grammar (alternatives separated by ``||``, terms inside an
    alternative separated by spaces and all required):

    * ``1.2.3`` or ``=1.2.3``: exactly that version;
    * ``>1.2.3``, ``>=1.2.3``, ``<1.2.3``, ``<=1.2.3``: comparisons;
    * ``^1.2.3``: compatible, i.e. below the next change of the leftmost non-zero part;
    * ``~1.2.3``: at least 1.2.3, below 1.3.0;
    * ``*``, ``1``, ``1.x``, ``1.2``, ``1.2.*``: wildcards.

    >>> index = SemverResolver()
    >>> for v in ["1.0.0", "1.4.2", "2.0.0"]:
    ...     _ = index.publish("left-pad", v)
    >>> index.best_match("left-pad", "^1.0.0")
    '1.4.2'
    >>> index.satisfies("0.3.1", "^0.3.0 || >=2.0.0")
    True
    """

    def __init__(self) -> None:
        """Create an empty index with no packages.

        >>> SemverResolver().resolve({})
        {}
        """
        self._releases: dict[str, list[tuple[int, int, int]]] = {}
        self._yanked: dict[str, set[tuple[int, int, int]]] = {}

    @staticmethod
    def parse(version: str) -> tuple[int, int, int]:
        """Turn ``"MAJOR.MINOR.PATCH"`` into a tuple of three integers.

        Args:
            version: text such as ``"1.4.2"``.

        Returns:
            The ``(major, minor, patch)`` tuple.

        Raises:
            ValueError: if the text is not three dot-separated non-negative integers.

        >>> SemverResolver.parse("10.0.7")
        (10, 0, 7)
        """
        parts = version.split(".")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise ValueError(f"invalid version {version!r}")
        major, minor, patch = (int(p) for p in parts)
        return (major, minor, patch)

    def _bounds(self, term: str) -> list[tuple[str, tuple[int, int, int]]]:
        """Translate one range term into ``(operator, version)`` comparisons.

        Args:
            term: one space-free term of a range.

        Returns:
            A list of ``(operator, version)`` pairs that must all hold; empty for ``*``.

        Raises:
            ValueError: if the term is not part of the grammar.

        >>> SemverResolver()._bounds("~1.2.3")
        [('>=', (1, 2, 3)), ('<', (1, 3, 0))]
        """
        for op in (">=", "<=", ">", "<", "="):
            if term.startswith(op):
                return [(op, self.parse(term[len(op):]))]
        if term[0] in "^~":
            low = self.parse(term[1:])
            major, minor, patch = low
            if term[0] == "~":
                high = (major, minor + 1, 0)
            elif major:
                high = (major + 1, 0, 0)
            elif minor:
                high = (0, minor + 1, 0)
            else:
                high = (0, 0, patch + 1)
            return [(">=", low), ("<", high)]
        parts = [p for p in term.split(".") if p not in ("x", "X", "*")]
        if len(parts) == 3:
            return [("=", self.parse(term))]
        if len(parts) > 3 or not all(p.isdigit() for p in parts) or term.split(".")[:len(parts)] != parts:
            raise ValueError(f"invalid range term {term!r}")
        if not parts:
            return []
        numbers = [int(p) for p in parts]
        low = tuple(numbers + [0] * (3 - len(numbers)))
        high = tuple(numbers[:-1] + [numbers[-1] + 1] + [0] * (3 - len(numbers)))
        return [(">=", low), ("<", high)]

    def satisfies(self, version: str, constraint: str) -> bool:
        """Tell whether ``version`` lies in the range ``constraint``.

        Args:
            version: a full version such as ``"1.4.2"``.
            constraint: a range in the grammar above.

        Returns:
            True if some alternative of the range accepts the version.

        Raises:
            ValueError: if the version or any range term is invalid, or an
                alternative is empty.

        >>> SemverResolver().satisfies("1.3.0", "~1.2.0")
        False
        """
        value = self.parse(version)
        checks = {"=": lambda a, b: a == b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
                  "<": lambda a, b: a < b, "<=": lambda a, b: a <= b}
        matched = False
        for alternative in constraint.split("||"):
            terms = alternative.split()
            if not terms:
                raise ValueError(f"empty alternative in {constraint!r}")
            bounds = []
            for term in terms:
                bounds.extend(self._bounds(term))
            matched = matched or all(checks[op](value, bound) for op, bound in bounds)
        return matched

    def publish(self, package: str, version: str) -> int:
        """Add a release of ``package``.

        Args:
            package: the package name.
            version: the release version.

        Returns:
            The number of releases of the package, yanked ones included.

        Raises:
            ValueError: if the version is invalid or already published.

        >>> SemverResolver().publish("tool", "0.1.0")
        1
        """
        parsed = self.parse(version)
        releases = self._releases.setdefault(package, [])
        if parsed in releases:
            raise ValueError(f"{package} {version} is already published")
        self._releases[package].append(parsed)
        self._releases[package].sort()
        return len(releases)

    def yank(self, package: str, version: str) -> bool:
        """Hide a release from resolution without deleting it.

        Args:
            package: the package name.
            version: the release to hide.

        Returns:
            True if it was yanked now, False if it was already yanked.

        Raises:
            KeyError: if the package or the release does not exist.

        >>> index = SemverResolver(); _ = index.publish("tool", "0.1.0")
        >>> index.yank("tool", "0.1.0")
        True
        """
        parsed = self.parse(version)
        if parsed not in self._releases[package]:
            raise KeyError(f"{package} {version}")
        if parsed in self._yanked.get(package, set()):
            return False
        self._yanked.setdefault(package, set()).add(parsed)
        return True

    def versions(self, package: str, include_yanked: bool = False) -> list[str]:
        """List releases of ``package`` in ascending order.

        Args:
            package: the package name.
            include_yanked: also list yanked releases.

        Returns:
            Version strings, lowest first.

        Raises:
            KeyError: if the package was never published.

        >>> index = SemverResolver()
        >>> _ = index.publish("tool", "1.10.0"); _ = index.publish("tool", "1.9.0")
        >>> index.versions("tool")
        ['1.9.0', '1.10.0']
        """
        hidden = set() if include_yanked else self._yanked.get(package, set())
        return [".".join(map(str, v)) for v in self._releases[package] if v not in hidden]

    def best_match(self, package: str, constraint: str) -> str:
        """Return the highest non-yanked release satisfying ``constraint``.

        Args:
            package: the package name.
            constraint: the range to satisfy.

        Returns:
            The chosen version string.

        Raises:
            KeyError: if the package was never published.
            ValueError: if no release satisfies the range.

        >>> index = SemverResolver(); _ = index.publish("tool", "2.1.0")
        >>> index.best_match("tool", ">=2.0.0 <3.0.0")
        '2.1.0'
        """
        best = ""
        for version in self.versions(package):
            if self.satisfies(version, constraint):
                best = version
        if not best:
            raise ValueError(f"no release of {package} satisfies {constraint!r}")
        return best

    def resolve(self, requirements: dict[str, str]) -> dict[str, str]:
        """Pick the best release for every ``package -> range`` requirement.

        Args:
            requirements: a dict from package name to range.

        Returns:
            A dict from package name to chosen version, sorted by package name.

        Raises:
            KeyError, ValueError: as ``best_match`` for the first failing package
                (packages are processed in sorted order).

        >>> index = SemverResolver(); _ = index.publish("a", "1.0.0"); _ = index.publish("b", "0.2.5")
        >>> index.resolve({"b": "~0.2.0", "a": "*"})
        {'a': '1.0.0', 'b': '0.2.5'}
        """
        chosen = {}
        for name in sorted(requirements):
            chosen[name] = self.best_match(name, requirements[name])
        return chosen
