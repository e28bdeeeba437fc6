"""TF-IDF keyword extraction and document similarity over a small corpus."""

import math
import re

_TOKEN = re.compile(r"[a-z][a-z0-9'-]*")

DEFAULT_STOPWORDS = (
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "in", "is", "it",
    "its", "of", "on", "or", "that", "the", "this", "to", "was", "were", "will", "with",
)


class KeywordExtractor:
    """Rank the characteristic terms of documents by TF-IDF.

    ``_documents`` keeps each document's term counts and
    ``_document_frequency`` how many documents contain each term; both change
    when documents are added or removed, so every score is relative to the
    current collection.  The smoothed inverse document frequency is

        idf(t) = ln((1 + N) / (1 + df(t))) + 1

    and ``tfidf(d, t) = count(t in d) / len(d) * idf(t)``.

    >>> kx = KeywordExtractor()
    >>> kx.add_document("pasta", "Boil the pasta. Drain the pasta and add the sauce.")
    5
    >>> kx.add_document("bread", "Knead the dough, proof the dough and bake.")
    4
    >>> [term for term, _ in kx.top_keywords("pasta", 2)]
    ['pasta', 'add']
    """

    def __init__(self, stopwords: list[str] | None = None, min_length: int = 2) -> None:
        """Create an extractor with an empty collection.

        :param stopwords: words to ignore; ``None`` uses a small English list.
        :param min_length: ignore terms shorter than this (at least 1).
        :raises ValueError: if ``min_length < 1``.

        >>> KeywordExtractor(stopwords=[]).terms("The cat")
        ['the', 'cat']
        """
        if min_length < 1:
            raise ValueError(f"min_length must be at least 1, got {min_length}")
        words = DEFAULT_STOPWORDS if stopwords is None else stopwords
        self._stopwords = frozenset(word.lower() for word in words)
        self._min_length = min_length
        self._documents: dict[str, dict[str, int]] = {}
        self._document_frequency: dict[str, int] = {}

    def terms(self, text: str) -> list[str]:
        """Split text into lower-case terms, dropping stopwords and short tokens.

        :param text: the text.
        :return: the remaining terms in order (with repeats).

        >>> KeywordExtractor().terms("It is a well-known fact, isn't it?")
        ['well-known', 'fact', "isn't"]
        """
        return [
            token
            for token in _TOKEN.findall(text.lower())
            if token not in self._stopwords and len(token) >= self._min_length
        ]

    def add_document(self, doc_id: str, text: str) -> int:
        """Add a document to the collection.

        :param doc_id: a new, unique identifier.
        :param text: the document text.
        :return: the number of distinct terms in the document.
        :raises ValueError: if ``doc_id`` is already used or the text has no terms.

        >>> KeywordExtractor().add_document("d1", "red red green")
        2
        """
        if doc_id in self._documents:
            raise ValueError(f"duplicate document id: {doc_id}")
        counts: dict[str, int] = {}
        for term in self.terms(text):
            counts[term] = counts.get(term, 0) + 1
        if not counts:
            raise ValueError(f"document {doc_id!r} has no terms")
        self._documents[doc_id] = counts
        for term in counts:
            self._document_frequency[term] = self._document_frequency.get(term, 0) + 1
        return len(counts)

    def remove_document(self, doc_id: str) -> None:
        """Remove a document and its contribution to document frequencies.

        :param doc_id: an existing identifier.
        :raises KeyError: if no such document exists.

        >>> kx = KeywordExtractor(); _ = kx.add_document("d1", "word")
        >>> kx.remove_document("d1"); kx.document_frequency("word")
        0
        """
        counts = self._documents.pop(doc_id)
        for term in counts:
            self._document_frequency[term] -= 1
            if self._document_frequency[term] == 0:
                del self._document_frequency[term]

    def document_frequency(self, term: str) -> int:
        """Return how many documents contain ``term``.

        :param term: the term (case-insensitive).
        :return: the number of documents.

        >>> kx = KeywordExtractor(); _ = kx.add_document("a", "sun"); _ = kx.add_document("b", "Sun moon")
        >>> kx.document_frequency("SUN")
        2
        """
        return self._document_frequency.get(term.lower(), 0)

    def idf(self, term: str) -> float:
        """Return the smoothed inverse document frequency of ``term``.

        :param term: the term.
        :return: ``ln((1 + N) / (1 + df)) + 1``; rarer terms score higher.

        >>> kx = KeywordExtractor(); _ = kx.add_document("a", "sun")
        >>> kx.idf("sun"), round(kx.idf("moon"), 4)
        (1.0, 1.6931)
        """
        total = len(self._documents)
        return math.log((1 + total) / (1 + self.document_frequency(term))) + 1

    def tfidf(self, doc_id: str, term: str) -> float:
        """Return the TF-IDF weight of ``term`` in one document.

        :param doc_id: an existing document.
        :param term: the term.
        :return: relative term frequency times :meth:`idf` (0.0 if absent).
        :raises KeyError: if no such document exists.

        >>> kx = KeywordExtractor(); _ = kx.add_document("a", "sun sun moon")
        >>> round(kx.tfidf("a", "sun"), 4)
        0.6667
        """
        counts = self._documents[doc_id]
        term = term.lower()
        if term not in counts:
            return 0.0
        return counts[term] / sum(counts.values()) * self.idf(term)

    def top_keywords(self, doc_id: str, k: int = 5) -> list[tuple[str, float]]:
        """Return the ``k`` highest-weighted terms of a document.

        :param doc_id: an existing document.
        :param k: how many terms, at least 1.
        :return: ``(term, weight)`` pairs, heaviest first, ties alphabetical.
        :raises KeyError: if no such document exists.
        :raises ValueError: if ``k < 1``.

        >>> kx = KeywordExtractor(); _ = kx.add_document("a", "b-movie b-movie plot")
        >>> [term for term, _ in kx.top_keywords("a")]
        ['b-movie', 'plot']
        """
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        scored = [(term, self.tfidf(doc_id, term)) for term in self._documents[doc_id]]
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return scored[:k]

    def similarity(self, first_id: str, second_id: str) -> float:
        """Return the cosine similarity of two documents' TF-IDF vectors.

        :param first_id: an existing document.
        :param second_id: an existing document.
        :return: a value in ``[0, 1]``, rounded to 12 decimals; 1.0 for documents
            with proportional term counts.
        :raises KeyError: if either document does not exist.

        >>> kx = KeywordExtractor(); _ = kx.add_document("a", "x1 y1"); _ = kx.add_document("b", "z1")
        >>> kx.similarity("a", "a"), kx.similarity("a", "b")
        (1.0, 0.0)
        """
        first = {term: self.tfidf(first_id, term) for term in self._documents[first_id]}
        second = {term: self.tfidf(second_id, term) for term in self._documents[second_id]}
        dot = sum(weight * second.get(term, 0.0) for term, weight in first.items())
        norms = math.sqrt(sum(w * w for w in first.values())) * math.sqrt(sum(w * w for w in second.values()))
        return round(dot / norms, 12)
