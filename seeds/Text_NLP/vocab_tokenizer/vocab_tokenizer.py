"""A word-level tokenizer with a learned, frequency-ranked vocabulary."""

import re

_TOKEN = re.compile(r"[A-Za-z0-9]+(?:'[A-Za-z]+)?|[^\sA-Za-z0-9]")


class VocabTokenizer:
    """Split text into word and punctuation tokens and map them to integer ids.

    Id 0 is the padding token ``<pad>`` and id 1 the unknown token ``<unk>``;
    learned tokens follow, most frequent first (ties alphabetical).
    :meth:`fit` accumulates token counts over calls and rebuilds the id
    tables, :meth:`prune` drops rare tokens and rebuilds them too, and
    :meth:`encode` / :meth:`decode` translate with whatever vocabulary is
    current.  ``max_size`` caps the number of learned tokens.

    >>> tok = VocabTokenizer()
    >>> tok.fit(["the cat sat", "the dog sat!"])
    7
    >>> tok.encode("the cat ran")
    [3, 5, 1]
    >>> tok.decode([3, 6, 2, 4])
    'the dog sat!'
    """

    PAD = "<pad>"
    UNK = "<unk>"

    def __init__(self, lowercase: bool = True, max_size: int | None = None) -> None:
        """Create a tokenizer with an empty vocabulary.

        :param lowercase: fold text to lower case before splitting.
        :param max_size: maximum number of learned tokens (specials not counted); ``None`` for no limit.
        :raises ValueError: if ``max_size`` is given and smaller than 1.

        >>> VocabTokenizer().vocab_size()
        2
        """
        if max_size is not None and max_size < 1:
            raise ValueError(f"max_size must be at least 1, got {max_size}")
        self._lowercase = lowercase
        self._max_size = max_size
        self._counts: dict[str, int] = {}
        self._id_of: dict[str, int] = {self.PAD: 0, self.UNK: 1}
        self._token_of: list[str] = [self.PAD, self.UNK]

    def tokenize(self, text: str) -> list[str]:
        """Split text into words (with inner apostrophes) and single punctuation marks.

        :param text: the text to split.
        :return: the tokens in order.

        >>> VocabTokenizer().tokenize("Don't panic, Arthur!")
        ["don't", 'panic', ',', 'arthur', '!']
        """
        if self._lowercase:
            text = text.lower()
        return _TOKEN.findall(text)

    def _rebuild(self) -> None:
        """Recompute the id tables from the counts (most frequent first, ties alphabetical).

        >>> tok = VocabTokenizer(); tok._counts = {"b": 1, "a": 1, "c": 2}; tok._rebuild()
        >>> tok._token_of
        ['<pad>', '<unk>', 'c', 'a', 'b']
        """
        ranked = sorted(self._counts, key=lambda token: (-self._counts[token], token))
        if self._max_size is not None:
            ranked = ranked[: self._max_size]
        self._token_of = [self.PAD, self.UNK] + ranked
        self._id_of = {token: index for index, token in enumerate(self._token_of)}

    def fit(self, texts: list[str]) -> int:
        """Count the tokens of ``texts`` (adding to earlier counts) and rebuild the vocabulary.

        :param texts: training texts.
        :return: the vocabulary size afterwards, specials included.

        >>> VocabTokenizer().fit(["a b a"])
        4
        """
        for text in texts:
            for token in self.tokenize(text):
                self._counts[token] = self._counts.get(token, 0) + 1
        self._rebuild()
        return self.vocab_size()

    def prune(self, min_count: int) -> int:
        """Forget tokens seen fewer than ``min_count`` times and rebuild the vocabulary.

        :param min_count: the smallest count that survives, at least 1.
        :return: how many distinct tokens were forgotten.
        :raises ValueError: if ``min_count < 1``.

        >>> tok = VocabTokenizer(); _ = tok.fit(["a a b"])
        >>> tok.prune(2), tok.vocab_size()
        (1, 3)
        """
        if min_count < 1:
            raise ValueError(f"min_count must be at least 1, got {min_count}")
        rare = [token for token, count in self._counts.items() if count < min_count]
        for token in rare:
            del self._counts[token]
        self._rebuild()
        return len(rare)

    def vocab_size(self) -> int:
        """Return the number of ids in use, the two special tokens included.

        :return: the vocabulary size.

        >>> VocabTokenizer(max_size=1).fit(["x y z"])
        3
        """
        return len(self._token_of)

    def token_id(self, token: str) -> int:
        """Return the id of a token, or the ``<unk>`` id if it is not in the vocabulary.

        :param token: the token (case is folded if the tokenizer lowercases).
        :return: its id.

        >>> tok = VocabTokenizer(); _ = tok.fit(["hello"])
        >>> tok.token_id("Hello"), tok.token_id("bye")
        (2, 1)
        """
        if self._lowercase:
            token = token.lower()
        return self._id_of.get(token, 1)

    def frequency(self, token: str) -> int:
        """Return how often a token was seen during fitting (0 if never or pruned).

        :param token: the token.
        :return: its count.

        >>> tok = VocabTokenizer(); _ = tok.fit(["go go", "go"])
        >>> tok.frequency("go")
        3
        """
        if self._lowercase:
            token = token.lower()
        return self._counts.get(token, 0)

    def encode(self, text: str, length: int | None = None) -> list[int]:
        """Turn text into ids, optionally padded or truncated to ``length``.

        :param text: the text to encode.
        :param length: exact output length; ``None`` keeps the natural length.
        :return: the ids.
        :raises ValueError: if ``length`` is negative.

        >>> tok = VocabTokenizer(); _ = tok.fit(["a b"])
        >>> tok.encode("a b c", 5), tok.encode("a b c", 2)
        ([2, 3, 1, 0, 0], [2, 3])
        """
        if length is not None and length < 0:
            raise ValueError(f"length must be non-negative, got {length}")
        ids = [self.token_id(token) for token in self.tokenize(text)]
        if length is None:
            return ids
        return ids[:length] + [0] * (length - len(ids))

    def decode(self, ids: list[int], skip_special: bool = True) -> str:
        """Turn ids back into text.

        Tokens are joined with spaces, except that punctuation attaches to
        the preceding token.  Padding is always dropped; ``<unk>`` is dropped
        too unless ``skip_special`` is ``False``.

        :param ids: ids to decode.
        :param skip_special: drop ``<unk>`` tokens.
        :return: the decoded text.
        :raises IndexError: if an id is not in the vocabulary.

        >>> tok = VocabTokenizer(); _ = tok.fit(["hi , there"])
        >>> tok.decode([3, 2, 1, 4, 0]), tok.decode([1, 3], skip_special=False)
        ('hi, there', '<unk> hi')
        """
        pieces: list[str] = []
        for index in ids:
            if not 0 <= index < len(self._token_of):
                raise IndexError(f"unknown id {index}")
            token = self._token_of[index]
            if token == self.PAD or (token == self.UNK and skip_special):
                continue
            if pieces and len(token) == 1 and not token.isalnum():
                pieces[-1] += token
            else:
                pieces.append(token)
        return " ".join(pieces)
