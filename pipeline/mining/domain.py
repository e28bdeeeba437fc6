"""Which registry domain a mined class belongs to, from the registry's keywords.

The class's own names (class, methods, file path) say most and weigh three times what the repository's
topics and README say: a graph class in a web framework is an algorithms task. Matching is on whole words
after splitting CamelCase and snake_case, so "LRUCache" matches the keyword "cache" and "contextual" does
not match "text".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.domains import DomainRegistry

CLASS_WEIGHT = 3


def words(text: str) -> str:
    """Lower-case words of `text` joined by single spaces, CamelCase, snake_case and kebab-case split (a
    repository named `python-algorithms` or a folder `linked-list/` says "algorithms" and "linked list";
    a hyphenated keyword such as "n-gram" is split the same way, so it still matches "n-gram")."""
    split = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", text))
    return " " + " ".join(re.findall(r"[a-z0-9]+", split.lower())) + " "


def _hits(keyword: str, text: str) -> int:
    phrase = words(keyword).strip()
    # a trailing 's' is allowed so that "graphs" matches "graph"
    return len(re.findall(rf" {re.escape(phrase)}s? ", text)) if phrase else 0


def match_domain(registry: DomainRegistry, *, class_names: Iterable[str], context: Iterable[str],
                 allowed: tuple[str, ...] = ()) -> tuple[str | None, dict[str, int]]:
    """The best-scoring domain (ties go to registry order) and every domain's score; None when nothing
    matches or the best is not among `allowed` (when given)."""
    own = words(" ".join(class_names))
    around = words(" ".join(context))
    scores: dict[str, int] = {}
    for domain in registry.domain:
        if allowed and domain.name not in allowed:
            continue
        score = sum(CLASS_WEIGHT * _hits(k, own) + min(_hits(k, around), 3) for k in domain.keywords)
        if score:
            scores[domain.name] = score
    if not scores:
        return None, scores
    return max(scores, key=lambda name: (scores[name], -registry.names.index(name))), scores
