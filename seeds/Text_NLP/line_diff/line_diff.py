"""Line-by-line comparison of two texts via the longest common subsequence."""


class LineDiff:
    """Compare an original and a revised text line by line.

    :meth:`edit_script` computes a minimal script of kept (``"="``), removed
    (``"-"``) and added (``"+"``) lines from a longest-common-subsequence
    table and caches it; :meth:`set_original` and :meth:`set_revised`
    invalidate the cache.  Rendering, statistics, similarity and the list of
    changed lines are all derived from the script, and :meth:`apply` replays
    a script against the current original.  With ``ignore_whitespace`` lines
    that differ only in spacing count as equal (kept lines show the
    original's text).

    >>> diff = LineDiff()
    >>> diff.set_original("apples\\nbread\\ncheese")
    3
    >>> diff.set_revised("apples\\nbutter\\ncheese\\ndates")
    4
    >>> print(diff.render())
      apples
    - bread
    + butter
      cheese
    + dates
    >>> diff.stats()
    {'added': 2, 'removed': 1, 'unchanged': 2}
    """

    def __init__(self, ignore_whitespace: bool = False) -> None:
        """Create a differ with two empty texts.

        :param ignore_whitespace: compare lines with runs of whitespace collapsed and ends stripped.

        >>> LineDiff().edit_script()
        []
        """
        self._ignore_whitespace = ignore_whitespace
        self._original: list[str] = []
        self._revised: list[str] = []
        self._script: list[tuple[str, str]] | None = None

    def _key(self, line: str) -> str:
        """Return the form of ``line`` used for comparison.

        :param line: a line of text.
        :return: the line itself, or its whitespace-normalised form.

        >>> LineDiff(ignore_whitespace=True)._key("  a   b ")
        'a b'
        """
        return " ".join(line.split()) if self._ignore_whitespace else line

    def set_original(self, text: str) -> int:
        """Load the original text.

        :param text: the text; lines are split with :meth:`str.splitlines`.
        :return: the number of lines.

        >>> LineDiff().set_original("one\\ntwo\\n")
        2
        """
        self._original = text.splitlines()
        self._script = None
        return len(self._original)

    def set_revised(self, text: str) -> int:
        """Load the revised text.

        :param text: the text; lines are split with :meth:`str.splitlines`.
        :return: the number of lines.

        >>> LineDiff().set_revised("")
        0
        """
        self._revised = text.splitlines()
        self._script = None
        return len(self._revised)

    def edit_script(self) -> list[tuple[str, str]]:
        """Return the edit script turning the original into the revised text.

        Where a line is replaced, its removal comes before the addition.

        :return: ``(op, line)`` pairs with ``op`` in ``"="``, ``"-"``, ``"+"``.

        >>> diff = LineDiff(); _ = diff.set_original("a\\nb"); _ = diff.set_revised("b\\nc")
        >>> diff.edit_script()
        [('-', 'a'), ('=', 'b'), ('+', 'c')]
        """
        if self._script is not None:
            return list(self._script)
        old = [self._key(line) for line in self._original]
        new = [self._key(line) for line in self._revised]
        n, m = len(old), len(new)
        common = [[0] * (m + 1) for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            for j in range(m - 1, -1, -1):
                if old[i] == new[j]:
                    common[i][j] = common[i + 1][j + 1] + 1
                else:
                    common[i][j] = max(common[i + 1][j], common[i][j + 1])
        script: list[tuple[str, str]] = []
        i = j = 0
        while i < n and j < m:
            if old[i] == new[j]:
                script.append(("=", self._original[i]))
                i, j = i + 1, j + 1
            elif common[i + 1][j] >= common[i][j + 1]:
                script.append(("-", self._original[i]))
                i += 1
            else:
                script.append(("+", self._revised[j]))
                j += 1
        script.extend(("-", line) for line in self._original[i:])
        script.extend(("+", line) for line in self._revised[j:])
        self._script = script
        return list(script)

    def render(self) -> str:
        """Format the edit script one line per entry, prefixed ``"  "``, ``"- "`` or ``"+ "``.

        :return: the rendered diff (``""`` when both texts are empty).

        >>> diff = LineDiff(); _ = diff.set_original("x"); _ = diff.set_revised("y")
        >>> diff.render()
        '- x\\n+ y'
        """
        prefixes = {"=": "  ", "-": "- ", "+": "+ "}
        return "\n".join(prefixes[op] + line for op, line in self.edit_script())

    def stats(self) -> dict[str, int]:
        """Count added, removed and unchanged lines.

        :return: ``{"added": ..., "removed": ..., "unchanged": ...}``.

        >>> diff = LineDiff(); _ = diff.set_original("a"); _ = diff.set_revised("a\\nb")
        >>> diff.stats()
        {'added': 1, 'removed': 0, 'unchanged': 1}
        """
        counts = {"added": 0, "removed": 0, "unchanged": 0}
        names = {"+": "added", "-": "removed", "=": "unchanged"}
        for op, _ in self.edit_script():
            counts[names[op]] += 1
        return counts

    def similarity(self) -> float:
        """Return ``2 * unchanged / (original lines + revised lines)``.

        :return: a ratio in ``[0, 1]``; 1.0 when both texts are empty.

        >>> diff = LineDiff(); _ = diff.set_original("a\\nb"); _ = diff.set_revised("a\\nc")
        >>> diff.similarity()
        0.5
        """
        total = len(self._original) + len(self._revised)
        if total == 0:
            return 1.0
        return 2 * self.stats()["unchanged"] / total

    def changed_lines(self) -> list[int]:
        """List the 1-based numbers of original lines that were removed or replaced.

        :return: line numbers in ascending order.

        >>> diff = LineDiff(); _ = diff.set_original("a\\nb\\nc"); _ = diff.set_revised("a\\nc")
        >>> diff.changed_lines()
        [2]
        """
        numbers: list[int] = []
        line_number = 0
        for op, _ in self.edit_script():
            if op != "+":
                line_number += 1
            if op == "-":
                numbers.append(line_number)
        return numbers

    def apply(self, script: list[tuple[str, str]]) -> str:
        """Replay an edit script against the current original text.

        ``"="`` and ``"-"`` entries must match the original's lines in order
        (compared as in the diff), and together cover all of them.

        :param script: ``(op, line)`` pairs as produced by :meth:`edit_script`.
        :return: the resulting text, lines joined with ``"\\n"``.
        :raises ValueError: on an unknown op, a line that does not match the
            original, or a script that does not consume the whole original.

        >>> diff = LineDiff(); _ = diff.set_original("a\\nb")
        >>> diff.apply([("=", "a"), ("-", "b"), ("+", "c")])
        'a\\nc'
        """
        result: list[str] = []
        position = 0
        for op, line in script:
            if op == "+":
                result.append(line)
                continue
            if op not in ("=", "-"):
                raise ValueError(f"unknown op {op!r}")
            if position >= len(self._original) or self._key(self._original[position]) != self._key(line):
                raise ValueError(f"line {position + 1} of the original does not match {line!r}")
            if op == "=":
                result.append(self._original[position])
            position += 1
        if position != len(self._original):
            raise ValueError(f"script stops at line {position} of {len(self._original)}")
        return "\n".join(result)
