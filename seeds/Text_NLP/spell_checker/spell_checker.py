"""A frequency-aware spelling corrector based on edit distance."""

import re

_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


class SpellChecker:
    """Suggest and apply corrections for misspelled words.

    The checker learns word frequencies from text (:meth:`add_text`,
    :meth:`add_word`).  Candidates for an unknown word are the known words
    within a maximum optimal-string-alignment distance (insertions,
    deletions, substitutions and adjacent transpositions each cost 1),
    ranked by distance, then by frequency, then alphabetically.
    :meth:`correct_text` fixes every word of a text, preserving
    capitalisation, and keeps a log of what it changed.

    >>> checker = SpellChecker()
    >>> checker.add_text("the quick brown fox jumps over the lazy dog")
    9
    >>> checker.correct("teh"), checker.correct("Lazzy")
    ('the', 'Lazy')
    >>> checker.correct_text("The quikc fox")
    'The quick fox'
    >>> checker.correction_log()
    [('quikc', 'quick')]
    """

    def __init__(self, max_distance: int = 2) -> None:
        """Create a checker with an empty dictionary.

        :param max_distance: the largest edit distance considered for corrections (1 or more).
        :raises ValueError: if ``max_distance < 1``.

        >>> SpellChecker().known("word")
        False
        """
        if max_distance < 1:
            raise ValueError(f"max_distance must be at least 1, got {max_distance}")
        self._max_distance = max_distance
        self._frequencies: dict[str, int] = {}
        self._log: list[tuple[str, str]] = []

    @staticmethod
    def edit_distance(source: str, target: str) -> int:
        """Return the optimal string alignment distance between two strings.

        Insertions, deletions, substitutions and transpositions of two
        adjacent characters each cost 1 (a substring is never edited twice).

        :param source: the first string.
        :param target: the second string.
        :return: the minimum number of edits.

        >>> SpellChecker.edit_distance("kitten", "sitting"), SpellChecker.edit_distance("ab", "ba")
        (3, 1)
        """
        rows, cols = len(source) + 1, len(target) + 1
        table = [[0] * cols for _ in range(rows)]
        for i in range(rows):
            table[i][0] = i
        for j in range(cols):
            table[0][j] = j
        for i in range(1, rows):
            for j in range(1, cols):
                cost = 0 if source[i - 1] == target[j - 1] else 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1 and j > 1 and source[i - 1] == target[j - 2] and source[i - 2] == target[j - 1]:
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        return table[-1][-1]

    def add_word(self, word: str, count: int = 1) -> int:
        """Learn ``count`` occurrences of one word (case-folded).

        :param word: a word made of letters (an inner apostrophe is allowed).
        :param count: occurrences to add, at least 1.
        :return: the word's new frequency.
        :raises ValueError: if ``word`` is not a single word or ``count < 1``.

        >>> SpellChecker().add_word("Hello", 3)
        3
        """
        if not _WORD.fullmatch(word):
            raise ValueError(f"not a single word: {word!r}")
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        key = word.lower()
        self._frequencies[key] = self._frequencies.get(key, 0) + count
        return self._frequencies[key]

    def add_text(self, text: str) -> int:
        """Learn every word of a text.

        :param text: running text; punctuation and digits are ignored.
        :return: how many words were learned.

        >>> SpellChecker().add_text("Hi, hi... 42 bye!")
        3
        """
        words = _WORD.findall(text)
        for word in words:
            self.add_word(word)
        return len(words)

    def known(self, word: str) -> bool:
        """Tell whether a word is in the dictionary (case-insensitive).

        :param word: the word.
        :return: ``True`` if it has been learned.

        >>> checker = SpellChecker(); _ = checker.add_word("cat")
        >>> checker.known("CAT"), checker.known("cart")
        (True, False)
        """
        return word.lower() in self._frequencies

    def candidates(self, word: str, limit: int = 5) -> list[str]:
        """List known words close to ``word``, best first.

        Ranking: smaller edit distance, then higher frequency, then alphabetical.
        A known word is its own best candidate (distance 0).

        :param word: the (possibly misspelled) word.
        :param limit: maximum number of candidates, at least 1.
        :return: up to ``limit`` lower-case words within the maximum distance.
        :raises ValueError: if ``limit < 1``.

        >>> checker = SpellChecker(); _ = checker.add_text("cat cart cast cast")
        >>> checker.candidates("cas")
        ['cast', 'cat', 'cart']
        """
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        probe = word.lower()
        scored = []
        for known_word, frequency in self._frequencies.items():
            if abs(len(known_word) - len(probe)) > self._max_distance:
                continue
            distance = self.edit_distance(probe, known_word)
            if distance <= self._max_distance:
                scored.append((distance, -frequency, known_word))
        scored.sort()
        return [known_word for _, _, known_word in scored[:limit]]

    def correct(self, word: str) -> str:
        """Return the best correction of one word, matching its capitalisation.

        Known words and words without any candidate are returned unchanged.
        An all-caps word gets an all-caps correction; a capitalised word a
        capitalised one.

        :param word: the word to correct.
        :return: the corrected word.

        >>> checker = SpellChecker(); _ = checker.add_word("python")
        >>> checker.correct("PYTHN"), checker.correct("Pyton"), checker.correct("xyz")
        ('PYTHON', 'Python', 'xyz')
        """
        if self.known(word):
            return word
        options = self.candidates(word, 1)
        if not options:
            return word
        best = options[0]
        if len(word) > 1 and word.isupper():
            return best.upper()
        if word[:1].isupper():
            return best.capitalize()
        return best

    def correct_text(self, text: str) -> str:
        """Correct every word of a text, keeping punctuation and spacing.

        Each change is appended to the correction log as ``(original, corrected)``.

        :param text: the text to correct.
        :return: the corrected text.

        >>> checker = SpellChecker(); _ = checker.add_text("hello world")
        >>> checker.correct_text("Helo, wrld!")
        'Hello, world!'
        """
        pieces: list[str] = []
        position = 0
        for match in _WORD.finditer(text):
            original = match.group(0)
            fixed = self.correct(original)
            if fixed != original:
                self._log.append((original, fixed))
            pieces.append(text[position:match.start()])
            pieces.append(fixed)
            position = match.end()
        pieces.append(text[position:])
        return "".join(pieces)

    def correction_log(self, clear: bool = False) -> list[tuple[str, str]]:
        """Return the corrections made by :meth:`correct_text` so far.

        :param clear: empty the log after reading it.
        :return: ``(original, corrected)`` pairs in the order they were made.

        >>> checker = SpellChecker(); _ = checker.add_word("yes")
        >>> _ = checker.correct_text("yse"); checker.correction_log(clear=True), checker.correction_log()
        ([('yse', 'yes')], [])
        """
        entries = list(self._log)
        if clear:
            self._log.clear()
        return entries
