"""How a feature speaks inside one class: the class's own noun and field words, the seed's docstring style,
and a choice between phrasings made from the class's content.

A feature written in the same words into every class reads as a template pasted on: the same sentence in a
third of a release's tasks measures how well a model copies our template, not how it writes a class. So a
feature's text names what the class holds in the class's own words ("the inventory's recipes and items",
not "every domain field"), its fields are written in the seed's docstring style (reST ``:raises X:``,
Google ``Raises:`` or plain sentences; never two of them in one task), and where several phrasings say the
same thing, the class's name picks one, so that a build is reproducible and two classes rarely read alike.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from core.analysis.class_model import ClassModel

REST, GOOGLE, PROSE = "rest", "google", "prose"
GOOGLE_WIDTH = 92
"""Width of a Google-style section's lines before the method's indentation (a docstring wraps at 100)."""

_REST_FIELD = re.compile(r"^\s*:(?:param|parameter|arg|type|returns?|rtype|raises?|except)\b", re.M)
_GOOGLE_SECTION = re.compile(r"^\s*(?:Args|Arguments|Parameters|Returns?|Raises|Yields):\s*$", re.M)
_NAME_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
MAX_HOLDINGS = 4
"""Most field words named when the class's state is spoken of."""
_GENERIC_FIELDS = frozenset({"data", "state", "items", "values"})


def docstring_style(model: ClassModel, own: Sequence[str] | None = None) -> str:
    """The style the class's own docstrings use for fields: `REST` (``:param x:``), `GOOGLE` (``Args:``
    sections) or `PROSE` (no fields). `own` limits the methods read (a feature's own methods follow the
    style they were written in, so reading them would be circular); the more frequent style wins a mix."""
    docs = [model.docstring or ""] + [m.docstring or "" for m in model.methods.values()
                                      if own is None or m.name in own]
    rest = sum(len(_REST_FIELD.findall(d)) for d in docs)
    google = sum(len(_GOOGLE_SECTION.findall(d)) for d in docs)
    if rest == 0 and google == 0:
        return PROSE
    return REST if rest >= google else GOOGLE


def name_words(identifier: str) -> list[str]:
    """The lower-case words of a class, method or field name (`LRUCache` -> lru, cache; `max_weight` ->
    max, weight)."""
    return [w.lower() for part in identifier.split("_") for w in _NAME_WORDS.findall(part)]


@dataclass(frozen=True)
class Voice:
    """The words and style a feature uses in one class."""

    class_name: str
    noun: str  # what an instance is, in the class's own word ("inventory", "board", "parser")
    style: str
    fields: tuple[str, ...]  # the class's domain fields, for "what it holds"

    @classmethod
    def of(cls, model: ClassModel, own: Sequence[str], fields: Sequence[str] = ()) -> Voice:
        words = name_words(model.name) or ["object"]
        return cls(model.name, words[-1], docstring_style(model, own), tuple(fields))

    def pick(self, key: str, *options: str) -> str:
        """One of `options`, chosen by the class name and `key`: the same on every build, different
        between classes."""
        digest = hashlib.sha256(f"{self.class_name}:{key}".encode()).digest()
        return options[digest[0] % len(options)]

    @property
    def the(self) -> str:
        return f"the {self.noun}"

    @property
    def possessive(self) -> str:
        return f"the {self.noun}'" if self.noun.endswith("s") else f"the {self.noun}'s"

    def holdings(self) -> str:
        """What the class's state is, in its field names' words ("recipes, weights and items")."""
        words = []
        for field in self.fields:
            phrase = " ".join(name_words(field))
            if phrase and phrase not in words:
                words.append(phrase)
        if not words or all(w in _GENERIC_FIELDS for w in words):
            return "state"
        if len(words) == 1:
            return words[0]
        if len(words) > MAX_HOLDINGS:  # a long list repeated in every rule would bury the rule
            return ", ".join(words[:MAX_HOLDINGS - 1]) + " and the rest of its state"
        return ", ".join(words[:-1]) + " and " + words[-1]

    def fields_block(self, *, params: Sequence[tuple[str, str]] = (), returns: str | None = None,
                     raises: Sequence[tuple[str, str]] = ()) -> str:
        """A docstring's parameter, return and exception fields in the class's style. `raises` clauses
        start with their condition word ("if the history is empty")."""
        if self.style == GOOGLE:
            parts = []
            if params:
                parts.append("Args:\n" + "\n".join(_entry(f"{n}: {_period(t)}") for n, t in params))
            if returns is not None:
                parts.append("Returns:\n" + _entry(_capital(_period(returns))))
            if raises:
                parts.append("Raises:\n" + "\n".join(_entry(f"{e}: {_capital(_period(w))}") for e, w in raises))
            return "\n\n".join(parts)
        if self.style == REST:
            lines = [f":param {n}: {_period(t)}" for n, t in params]
            lines += [f":return: {_period(returns)}"] if returns is not None else []
            lines += [f":raises {e}: {_period(w)}" for e, w in raises]
            return "\n".join(lines)
        sentences = [f"``{n}`` is {_period(t)}" for n, t in params]
        sentences += [f"Returns {_period(returns)}"] if returns is not None else []
        sentences += [f"Raises ``{e}`` {_period(w)}" for e, w in raises]
        return " ".join(sentences)

    def docstring(self, summary: str, *body: str, params: Sequence[tuple[str, str]] = (),
                  returns: str | None = None, raises: Sequence[tuple[str, str]] = ()) -> str:
        """A whole method docstring's text (without quotes or indentation): summary line, body paragraphs,
        then the fields in the class's style."""
        parts = [summary, *(b for b in body if b)]
        block = self.fields_block(params=params, returns=returns, raises=raises)
        if block:
            parts.append(block)
        return "\n\n".join(parts)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _period(text: str) -> str:
    text = text.rstrip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _entry(text: str) -> str:
    """One entry of a Google-style section: indented, continuation lines indented further."""
    return textwrap.fill(text, GOOGLE_WIDTH, initial_indent="    ", subsequent_indent="        ")


def indent_docstring(text: str, indent: str = "    ") -> str:
    """`text` as the inside of a triple-quoted docstring in a dedented method definition: continuation lines
    indented by `indent`, a closing line when it spans several lines."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(indent + line if line else "" for line in lines[1:]) + "\n" + indent
