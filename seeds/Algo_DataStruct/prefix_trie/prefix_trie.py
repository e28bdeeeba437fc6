"""A trie of words with insertion counts, suited to autocompletion."""


class PrefixTrie:
    """A trie that counts how often each word was inserted.

    Nodes live in three parallel lists indexed by node number (node 0 is the
    root): ``_children`` maps a character to a child node, ``_passes`` counts
    the insertions whose word runs through the node, and ``_ends`` counts the
    insertions that end exactly at the node.  :meth:`insert` and
    :meth:`remove` keep the counters consistent; the query methods only walk.

    >>> trie = PrefixTrie()
    >>> for word in ["car", "cart", "care", "car", "dog"]:
    ...     _ = trie.insert(word)
    >>> trie.prefix_count("car")
    4
    >>> trie.complete("car")
    ['car', 'care', 'cart']
    """

    def __init__(self) -> None:
        """Create an empty trie containing only the root node.

        >>> PrefixTrie().total()
        0
        """
        self._children: list[dict[str, int]] = [{}]
        self._passes: list[int] = [0]
        self._ends: list[int] = [0]

    @staticmethod
    def _check_word(word: str) -> None:
        """Reject anything that is not a non-empty string.

        :param word: the candidate word.
        :raises TypeError: if ``word`` is not a ``str``.
        :raises ValueError: if ``word`` is empty.

        >>> PrefixTrie._check_word("ok")
        """
        if not isinstance(word, str):
            raise TypeError(f"words must be str, got {type(word).__name__}")
        if not word:
            raise ValueError("words must not be empty")

    def _find(self, prefix: str) -> int:
        """Return the node reached by spelling ``prefix``, or ``-1``.

        Nodes whose pass count dropped to zero are treated as absent.

        :param prefix: characters to follow from the root ("" is the root).
        :return: the node number, or ``-1`` if no stored word has this prefix.

        >>> PrefixTrie()._find("a")
        -1
        """
        node = 0
        for char in prefix:
            node = self._children[node].get(char, -1)
            if node == -1 or self._passes[node] == 0:
                return -1
        return node

    def _collect(self, node: int, prefix: str) -> list[tuple[str, int]]:
        """Gather ``(word, frequency)`` for every live word below ``node``.

        :param node: node to start from.
        :param prefix: the characters that spell ``node``.
        :return: pairs in alphabetical order of the words.

        >>> PrefixTrie()._collect(0, "")
        []
        """
        found: list[tuple[str, int]] = []
        if self._ends[node] > 0:
            found.append((prefix, self._ends[node]))
        for char in sorted(self._children[node]):
            child = self._children[node][char]
            if self._passes[child] > 0:
                found.extend(self._collect(child, prefix + char))
        return found

    def insert(self, word: str, count: int = 1) -> int:
        """Record ``count`` more occurrences of ``word``.

        :param word: the word to store (non-empty).
        :param count: how many occurrences to add, at least 1.
        :return: the new frequency of ``word``.
        :raises TypeError: if ``word`` is not a ``str``.
        :raises ValueError: if ``word`` is empty or ``count < 1``.

        >>> trie = PrefixTrie()
        >>> trie.insert("tea"), trie.insert("tea", 2)
        (1, 3)
        """
        self._check_word(word)
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        node = 0
        self._passes[0] += count
        for char in word:
            child = self._children[node].get(char)
            if child is None:
                child = len(self._passes)
                self._children.append({})
                self._passes.append(0)
                self._ends.append(0)
                self._children[node][char] = child
            self._passes[child] += count
            node = child
        self._ends[node] += count
        return self._ends[node]

    def remove(self, word: str, count: int = 1) -> int:
        """Forget ``count`` occurrences of ``word``.

        :param word: a stored word.
        :param count: how many occurrences to drop, at least 1.
        :return: the remaining frequency of ``word`` (0 once it is gone).
        :raises TypeError: if ``word`` is not a ``str``.
        :raises KeyError: if ``word`` is not stored.
        :raises ValueError: if ``word`` is empty, ``count < 1`` or ``count``
            exceeds the stored frequency.

        >>> trie = PrefixTrie()
        >>> trie.insert("tea", 3)
        3
        >>> trie.remove("tea", 2)
        1
        """
        self._check_word(word)
        if count < 1:
            raise ValueError(f"count must be at least 1, got {count}")
        stored = self.frequency(word)
        if stored == 0:
            raise KeyError(word)
        if count > stored:
            raise ValueError(f"cannot remove {count} of {word!r}: only {stored} stored")
        node = 0
        self._passes[0] -= count
        for char in word:
            node = self._children[node][char]
            self._passes[node] -= count
        self._ends[node] -= count
        return self._ends[node]

    def frequency(self, word: str) -> int:
        """Return how many times ``word`` is currently stored.

        :param word: the word to look up.
        :return: its frequency, 0 if absent.

        >>> trie = PrefixTrie()
        >>> _ = trie.insert("tea")
        >>> trie.frequency("tea"), trie.frequency("te")
        (1, 0)
        """
        node = self._find(word)
        return 0 if node == -1 else self._ends[node]

    def prefix_count(self, prefix: str) -> int:
        """Count stored occurrences of words that start with ``prefix``.

        :param prefix: the prefix ("" counts everything).
        :return: the summed frequency of matching words.

        >>> trie = PrefixTrie()
        >>> _ = trie.insert("tea"); _ = trie.insert("ten", 2)
        >>> trie.prefix_count("te")
        3
        """
        node = self._find(prefix)
        return 0 if node == -1 else self._passes[node]

    def complete(self, prefix: str, limit: int = 5) -> list[str]:
        """Suggest stored words starting with ``prefix``, most frequent first.

        Ties in frequency are broken alphabetically.

        :param prefix: what the user typed so far.
        :param limit: maximum number of suggestions, at least 1.
        :return: up to ``limit`` words.
        :raises ValueError: if ``limit < 1``.

        >>> trie = PrefixTrie()
        >>> _ = trie.insert("tea"); _ = trie.insert("ten", 2); _ = trie.insert("to")
        >>> trie.complete("t", 2)
        ['ten', 'tea']
        """
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        node = self._find(prefix)
        if node == -1:
            return []
        ranked = sorted(self._collect(node, prefix), key=lambda pair: (-pair[1], pair[0]))
        return [word for word, _ in ranked[:limit]]

    def words(self) -> list[str]:
        """List every stored word once, alphabetically.

        :return: the distinct words.

        >>> trie = PrefixTrie()
        >>> _ = trie.insert("b"); _ = trie.insert("a"); _ = trie.insert("b")
        >>> trie.words()
        ['a', 'b']
        """
        return [word for word, _ in self._collect(0, "")]

    def longest_common_prefix(self) -> str:
        """Return the longest prefix shared by all stored words.

        :return: the shared prefix ("" when the trie is empty or words diverge at once).

        >>> trie = PrefixTrie()
        >>> _ = trie.insert("interval"); _ = trie.insert("internet")
        >>> trie.longest_common_prefix()
        'inter'
        """
        node, prefix = 0, ""
        while self._ends[node] == 0:
            live = [(char, child) for char, child in self._children[node].items() if self._passes[child] > 0]
            if len(live) != 1:
                break
            char, node = live[0]
            prefix += char
        return prefix

    def total(self) -> int:
        """Return the total number of stored occurrences over all words.

        :return: the root's pass count.

        >>> trie = PrefixTrie()
        >>> _ = trie.insert("a", 4)
        >>> trie.total()
        4
        """
        return self._passes[0]
