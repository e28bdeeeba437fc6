"""A smoothed word bigram language model."""

import math
import re

_WORD = re.compile(r"[a-z0-9']+")


class BigramModel:
    """Estimate ``P(word | previous word)`` from sentences, with add-k smoothing.

    Every sentence is wrapped in ``<s>`` ... ``</s>`` markers before
    counting, so the model also learns how sentences start and end.  With
    add-k smoothing

        P(w | v) = (count(v, w) + k) / (count(v, *) + k * V)

    where ``V`` is the number of distinct words seen in training plus one for
    ``</s>``.  Scores, perplexity, ranking and generation are all derived
    from :meth:`probability`, so training more text changes every answer.

    >>> model = BigramModel(k=0.5)
    >>> model.train(["the cat sat", "the cat ran", "a dog ran"])
    12
    >>> [(word, round(p, 3)) for word, p in model.next_words("cat", 2)]
    [('ran', 0.273), ('sat', 0.273)]
    >>> model.generate("the")
    'the cat ran'
    """

    START = "<s>"
    END = "</s>"

    def __init__(self, k: float = 1.0) -> None:
        """Create an untrained model.

        :param k: the pseudo-count added to every bigram, ``> 0``.
        :raises ValueError: if ``k <= 0``.

        >>> BigramModel().vocabulary()
        []
        """
        if k <= 0:
            raise ValueError(f"k must be positive, got {k}")
        self._k = k
        self._bigrams: dict[str, dict[str, int]] = {}
        self._context_totals: dict[str, int] = {}
        self._words: set[str] = set()

    @staticmethod
    def _split(sentence: str) -> list[str]:
        """Lower-case a sentence and split it into words (letters, digits, apostrophes).

        :param sentence: raw text.
        :return: the words.

        >>> BigramModel._split("It's 5 o'clock!")
        ["it's", '5', "o'clock"]
        """
        return _WORD.findall(sentence.lower())

    def train(self, sentences: list[str]) -> int:
        """Count the bigrams of each sentence, boundary markers included.

        Sentences without any word are skipped.

        :param sentences: training sentences.
        :return: how many bigrams were counted.

        >>> BigramModel().train(["hello world", "!!!"])
        3
        """
        added = 0
        for sentence in sentences:
            words = self._split(sentence)
            if not words:
                continue
            self._words.update(words)
            sequence = [self.START] + words + [self.END]
            for previous, word in zip(sequence, sequence[1:]):
                followers = self._bigrams.setdefault(previous, {})
                followers[word] = followers.get(word, 0) + 1
                self._context_totals[previous] = self._context_totals.get(previous, 0) + 1
                added += 1
        return added

    def vocabulary(self) -> list[str]:
        """List the words seen in training, sorted (markers excluded).

        :return: the distinct words.

        >>> model = BigramModel(); _ = model.train(["b a", "a c"])
        >>> model.vocabulary()
        ['a', 'b', 'c']
        """
        return sorted(self._words)

    def count(self, previous: str, word: str) -> int:
        """Return how often ``word`` followed ``previous`` in training.

        :param previous: the first word (or ``"<s>"``).
        :param word: the second word (or ``"</s>"``).
        :return: the raw bigram count.

        >>> model = BigramModel(); _ = model.train(["go go go"])
        >>> model.count("go", "go"), model.count("<s>", "go")
        (2, 1)
        """
        return self._bigrams.get(previous.lower(), {}).get(word.lower(), 0)

    def probability(self, previous: str, word: str) -> float:
        """Return the smoothed probability of ``word`` after ``previous``.

        :param previous: the conditioning word (``"<s>"`` for sentence start).
        :param word: the predicted word (``"</s>"`` for sentence end).
        :return: the add-k estimate.
        :raises ValueError: if the model has not been trained.

        >>> model = BigramModel(k=1); _ = model.train(["a b"])
        >>> model.probability("a", "b"), model.probability("a", "a")
        (0.5, 0.25)
        """
        if not self._words:
            raise ValueError("the model has not been trained")
        size = len(self._words) + 1
        total = self._context_totals.get(previous.lower(), 0)
        return (self.count(previous, word) + self._k) / (total + self._k * size)

    def sentence_log_prob(self, sentence: str) -> float:
        """Return the natural-log probability of a whole sentence, markers included.

        :param sentence: the sentence to score.
        :return: the sum of the log bigram probabilities.
        :raises ValueError: if the model has not been trained.

        >>> model = BigramModel(k=1); _ = model.train(["a b"])
        >>> round(math.exp(model.sentence_log_prob("a b")), 4)
        0.125
        """
        sequence = [self.START] + self._split(sentence) + [self.END]
        return sum(math.log(self.probability(v, w)) for v, w in zip(sequence, sequence[1:]))

    def perplexity(self, sentences: list[str]) -> float:
        """Return the per-token perplexity of the model on ``sentences``.

        Each sentence contributes its words plus the end marker as tokens.

        :param sentences: evaluation sentences.
        :return: ``exp(-total log probability / token count)``.
        :raises ValueError: if ``sentences`` is empty or the model is untrained.

        >>> model = BigramModel(k=1); _ = model.train(["a b"])
        >>> model.perplexity(["a b"])
        2.0
        """
        if not sentences:
            raise ValueError("perplexity needs at least one sentence")
        log_total = sum(self.sentence_log_prob(sentence) for sentence in sentences)
        tokens = sum(len(self._split(sentence)) + 1 for sentence in sentences)
        return math.exp(-log_total / tokens)

    def next_words(self, previous: str, n: int = 3) -> list[tuple[str, float]]:
        """Rank the likeliest continuations of ``previous``.

        Candidates are every known word plus ``"</s>"``; ties are broken alphabetically.

        :param previous: the conditioning word (``"<s>"`` for sentence start).
        :param n: how many to return, at least 1.
        :return: ``(word, probability)`` pairs, most probable first.
        :raises ValueError: if ``n < 1`` or the model is untrained.

        >>> model = BigramModel(k=1); _ = model.train(["a b"])
        >>> model.next_words("<s>", 1)
        [('a', 0.5)]
        """
        if n < 1:
            raise ValueError(f"n must be at least 1, got {n}")
        candidates = sorted(self._words) + [self.END]
        scored = [(word, self.probability(previous, word)) for word in candidates]
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return scored[:n]

    def generate(self, start: str, max_words: int = 10) -> str:
        """Extend ``start`` greedily with the likeliest next word until ``</s>``.

        :param start: the first word; ``""`` lets the model pick it after ``<s>``.
        :param max_words: the maximum length of the result, in words (>= 1).
        :return: the generated words joined by spaces.
        :raises ValueError: if ``max_words < 1`` or the model is untrained.

        >>> model = BigramModel(); _ = model.train(["i like tea", "i like jam"])
        >>> model.generate(""), model.generate("i", max_words=2)
        ('i like jam', 'i like')
        """
        if max_words < 1:
            raise ValueError(f"max_words must be at least 1, got {max_words}")
        words = self._split(start)[:1]
        current = words[0] if words else self.START
        while len(words) < max_words:
            best = self.next_words(current, 1)[0][0]
            if best == self.END:
                break
            words.append(best)
            current = best
        return " ".join(words)
