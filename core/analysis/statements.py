"""What a skeleton states: the one rule every stage asks "is this stated by the skeleton?" with.

A task is fair when its tests check only what its skeleton states, so several places ask the same question
of the same docstrings: the consistency judge (does a test compare an order, a message or a text the
skeleton never states?), the gate's faithful variants (where may a correct implementation differ from the
reference?), the mined tests (compare a list in order only when its order is stated) and the docstring
completion of mined classes (what does an author's docstring leave out?). Each used to keep its own word
list, and the lists drifted: a method whose docstring says "then" had a stated order for the judge and an
unstated one for the gate, so the gate could reject a test the judge accepted. The decisions live here, once:

- orders: `ORDER_WORDS`, `order_stated` (in words, by reference to another method, or by documented indices);
- precedence between checks: `pinned_exceptions`;
- texts: `message_stated` (a reference's exception message quoted in the docstrings), `expected_text_stated`
  (a test's expected message or text written in the skeleton), `StatedTexts` (the words of returned texts
  stated in quotes, examples or formats written out);
- what a failed call leaves: `leaves_stated`;
- what a call changes: `change_stated`, `stated_as_query` (a computation documented as such changes nothing a
  later call returns), `stated_as_adding` (an addition keeps what it adds unless a rule says otherwise);
- exceptions: `raises_clauses` (``:raises X: when``), `exception_named` (a docstring names it),
  `exceptions_documented` and `documented_exceptions` (which exceptions the docs promise, whatever module
  defines them);
- omissions: `omissions` (a public method's docstring leaves out a parameter, the return value or an
  exception the reference raises).

Everything here reads text with `ast` and regular expressions; nothing runs.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from core.analysis.interface import Interface

_WORD_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DERIVED_MARKER = "Derived from observed behaviour"
"""How a docstring derived from observed behaviour opens (`pipeline/mining/derived_docs.py` writes it)."""


@dataclass(frozen=True)
class Statements:
    """What a skeleton states, as a solver reads it: the class docstring, each method's docstring (in
    declaration order) and return annotation, and the whole text (a value or message written anywhere in it
    is stated)."""

    class_doc: str = ""
    methods: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    text: str = ""
    returns: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # annotated methods only

    def of(self, method: str) -> str:
        return self.methods.get(method, "")

    def words(self, method: str | None = None) -> set[str]:
        """Identifiers mentioned in the class docstring and (when given) the method's docstring."""
        return set(_WORD_IDENTIFIER.findall(self.class_doc + "\n" + (self.of(method) if method else "")))


def skeleton_statements(skeleton: str, class_name: str) -> Statements:
    """The docstrings a solver reads, from the skeleton. An unparseable skeleton, or one without the class,
    states nothing (the caller then treats every detail as open)."""
    try:
        tree = ast.parse(skeleton)
    except SyntaxError:
        return Statements(text=skeleton)
    class_doc, methods, returns = "", {}, {}
    for node in tree.body:  # a class defined twice: its later docstrings win
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            class_doc = ast.get_docstring(node) or ""
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods[item.name] = ast.get_docstring(item) or ""
                    if item.returns is not None:
                        returns[item.name] = ast.unparse(item.returns)
    return Statements(class_doc, MappingProxyType(methods), skeleton, MappingProxyType(returns))


def interface_statements(interface: Interface) -> Statements:
    """The statements of a skeleton already read as an `Interface` (the judges' reading of it)."""
    return Statements(interface.class_doc, MappingProxyType({n: m.docstring for n, m in interface.methods.items()}),
                      interface.text, MappingProxyType({n: m.returns for n, m in interface.methods.items()
                                                        if m.returns is not None}))


# --- orders -----------------------------------------------------------------------------------------------

# An order stated in words: a sort key or direction, a named order, which item comes first, a layout read in
# a fixed direction, or a sequence turned into another (split, encoded) or built step by step. Bare "row",
# "column", "left" or "top" are not among them: "Check one row against the schema" states no order.
ORDER_WORDS = re.compile(
    r"\b(order(ed|ing)?|sort(ed|s)?|alphabetical(ly)?|lexicographic(al|ally)?|ascending|descending|"
    r"increasing|decreasing|chronological(ly)?|first|last|oldest|newest|earliest|latest|position(s)?|index|"
    r"sequence|insertion|reverse(d)?|rank(ed|ing)?|before|after|then|ties|repeatedly|in turn|turn\b.{0,40}?\binto|"
    r"top to bottom|bottom to top|left to right|right to left|row by row|line by line|"
    r"per (row|line|second|minute|hour|day|week|month|year)|"
    r"(comma|space|newline|tab)-separated|split|fifo|lifo)\b", re.IGNORECASE)
# Words that give a stored item a place: an item with an index, position or number has an order.
_INDEX_WORDS = r"(index|indices|indexes|position|positions|number|numbers)"
# A documented item format that carries a number ("<attempt>:<outcome>", "line N: reason").
_NUMBERED_FORMAT = re.compile(r"<[^<>]*\b(n|i|no|num|number|index|seq|step|round|attempt)\b[^<>]*>|"
                              r"\b(line|item|step|round) [NnKk]\b")


def sentences(text: str) -> list[str]:
    """Sentences and docstring fields (``:return: ...``, ``Returns:`` blocks), as units of meaning."""
    return [u for u in re.split(r"(?<=[.;!?])\s+|\n\s*\n|\n(?=\s*:)", text) if u.strip()]


def order_stated(statements: Statements, method: str) -> bool:
    """Whether the skeleton states the order of what `method` returns.

    Stated by its type: a fixed-size tuple (``tuple[int, int]``), whose positions are its meaning. Stated in
    words: the method's docstring says it (`ORDER_WORDS`), or a sentence of the class docstring that names the
    method does, or the docstring refers to a method whose order is stated ("rows as described in
    :meth:`schedule`"). Implied by documented indices: the items a method named for what it lists returns
    (``equations`` -> "equation") are given an index or a number elsewhere in the skeleton ("return: the
    index of the new equation", "Attempt numbers are supplied by the caller"), or carry one in their
    documented format (``"<attempt>:<outcome>"``, ``"line N: reason"``): numbered items listed in another
    order than their numbers would be perverse, and no reader expects it.
    """
    returns = statements.returns.get(method, "")
    if returns.startswith(("tuple[", "Tuple[")) and "..." not in returns:
        return True
    return _order_stated(statements, method, set())


def _order_stated(statements: Statements, method: str, seen: set[str]) -> bool:
    seen.add(method)
    doc = statements.of(method)
    if ORDER_WORDS.search(doc):
        return True
    if any(_order_stated(statements, other, seen) for other in statements.words(method) - seen
           if other in statements.methods and re.search(rf"(``|`){re.escape(other)}(\(\))?`", doc)):
        return True
    named = re.compile(rf"(``{re.escape(method)}(\(\))?``|:meth:`~?(\w+\.)?{re.escape(method)}`)")
    if any(named.search(s) and ORDER_WORDS.search(s) for s in sentences(statements.class_doc)):
        return True
    if _NUMBERED_FORMAT.search(doc):
        return True
    plural = method.split("_")[-1]  # a method named for what it lists: `equations`, `entries`
    if not plural.endswith("s") or plural.endswith("ss") or len(plural) < 4:
        return False
    noun = plural[:-3] + "y" if plural.endswith("ies") else plural[:-1]
    indexed = re.compile(rf"\b{re.escape(noun)}s? {_INDEX_WORDS}\b|\b{_INDEX_WORDS} of (the |an? |each |every )?"
                         rf"(new |added |stored )?{re.escape(noun)}\b", re.IGNORECASE)
    return any(indexed.search(d) for d in [statements.class_doc, *statements.methods.values()])


# --- precedence between checks ----------------------------------------------------------------------------

# The words with which a method's docstring states a precedence between its checks; and a class docstring's
# sentence that states one for every method ("checked before its other arguments").
PRECEDENCE = re.compile(r"\bbefore\b|\bprecedence\b|\bpriority\b|\bchecked first\b|\bfirst checks?\b", re.I)
# Words may be separated by a line break: a class docstring is wrapped wherever its sentence happens to fall.
CLASS_PRECEDENCE = re.compile(r"before\s+(?:(?:its|their|the|any)\s+)?(?:other\s+)?(?:argument|input|validation)", re.I)
EXCEPTION_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Warning))\b")


def pinned_exceptions(method_doc: str, class_doc: str) -> set[str] | None:
    """Exceptions whose precedence the docstrings state ("FrozenStateError ... checked before the arguments"):
    the checks raising them keep their places. None when a precedence is stated without naming an exception
    (then no check of the method may move: which one is meant cannot be told)."""
    pinned: set[str] = set()
    parts = [p for p in re.split(r"(?<=\.)\s+|\n\s*\n|\n(?=\s*:raises)", method_doc) if PRECEDENCE.search(p)]
    parts += [p for p in re.split(r"(?<=\.)\s+|\n\s*\n", class_doc) if CLASS_PRECEDENCE.search(p)]
    for part in parts:
        named = set(EXCEPTION_NAME.findall(part))
        if not named:
            return None
        pinned |= named
    return pinned


# --- messages and texts -----------------------------------------------------------------------------------

_REGEX_META = re.compile(r"[.*+?^$()\[\]{}|]+")


def message_stated(message: str, docs: str) -> bool:
    """Whether a reference's exception message is quoted by the docstrings `docs`: a fixed run of its text
    (eight characters or more, or the whole message if shorter) appears in them. Lenient on purpose: a
    message the skeleton quotes in part is one a solver may copy, so it must not be reworded."""
    chunks = [c.strip() for c in re.split(r"[{}]", message) if len(c.strip()) >= min(8, len(message.strip()))]
    return any(chunk and chunk in docs for chunk in chunks)


def expected_text_stated(pattern: str, skeleton: str) -> bool:
    """Whether a test's expected message or text (a regular expression, as `match=` takes it) is written in
    the skeleton: every literal run of three characters or more (regex metacharacters split it) appears in
    the skeleton's text, case aside. Strict on purpose: a test that asks for one unstated word fails a
    solver who words it otherwise."""
    plain = re.sub(r"\\(.)", r"\1", pattern)
    chunks = [c.strip() for c in _REGEX_META.split(plain) if len(c.strip()) >= 3]
    text = skeleton.lower()
    return all(c.lower() in text for c in chunks)


_TEXT_WORD = re.compile(r"[A-Za-z]+")
_QUOTED = re.compile(r"``(.+?)``|`([^`\n]+)`|\"([^\"\n]+)\"|'([^'\n]+)'")


@dataclass(frozen=True)
class StatedTexts:
    """What the docstrings state about texts: their whole wording (whitespace collapsed), and the words that
    appear quoted or in an example (a template such as "line N: reason" states the word "line")."""

    prose: str
    quoted_words: frozenset[str]

    @classmethod
    def of(cls, statements: Statements) -> StatedTexts:
        docs = [statements.class_doc, *statements.methods.values()]
        fragments: list[str] = []
        for doc in docs:
            fragments += ["".join(g for g in m.groups() if g) for m in _QUOTED.finditer(doc)]
            example = False
            for line in doc.splitlines():  # an example's calls and the output lines after them
                example = line.strip().startswith(">>>") or (example and bool(line.strip()))
                if example:
                    fragments.append(line)
        return cls(" ".join(" ".join(docs).split()),
                   frozenset(w for f in fragments for w in _TEXT_WORD.findall(f)))

    def chunk_stated(self, chunk: str) -> bool:
        """A fixed part of a format written out in a docstring: more than one bare word ("expected 0" is not
        stated by prose that uses "expected"), found verbatim (whitespace collapsed)."""
        text = " ".join(chunk.split())
        bare_word = _TEXT_WORD.fullmatch(text) is not None
        return bool(text) and not bare_word and bool(_TEXT_WORD.search(text)) and text in self.prose


# --- what a failed call leaves ----------------------------------------------------------------------------

_LEAVES_STATED = re.compile(
    r"unchanged|untouched|intact|as it was|as before|no effect|all[- ]or[- ]nothing|atomic\w*|"
    r"roll(?:s|ed)? back|rolled|partial\w*|\bstays?\b|\bremains?\b|\bkept\b|\bleav(?:e|es|ing)\b|"
    r"without (?:any )?(?:effect|chang\w*|record\w*|add\w*|count\w*|stor\w*|modif\w*|touch\w*)|"
    # "a call that changes nothing" names a no-op call (the undo feature's "a call that raises, or that changes
    # nothing, is not recorded"); it says nothing of what a failed call leaves
    r"(?<!that )(?:changes|records|adds|counts|stores|keeps|modifies|does|applies|writes) nothing|"
    r"(?:changing|recording|counting|adding|storing|applying|doing|modifying|writing) nothing|"
    r"nothing (?:is |was |gets |has been )?(?:recorded|changed|added|counted|stored|kept|modified|applied|written|done)|"
    r"before (?:changing|recording|touching|modifying|storing|adding|any change)", re.I)


def leaves_stated(doc: str) -> bool:
    """Whether a docstring says what a failed call leaves behind ("unchanged", "nothing is recorded", "the
    values before it stay added", "checks its arguments before changing anything")."""
    return _LEAVES_STATED.search(doc) is not None


# --- what a call changes ----------------------------------------------------------------------------------

# A summary that describes a computation or a question: what the call works out, not what it does to the object.
# "Query the system for ..." is left out: it reads as loading what later calls use (a weather system's query).
_QUERY_SUMMARY = re.compile(
    r"^\s*(?:calculates?|computes?|returns?|gets?|checks?|determines?|finds?|evaluates?|measures?|estimates?|"
    r"tells?|looks? up|gives?|whether|true (?:if|when|iff)|is\b|are\b|how many|the\b|a\b|an\b)",
    re.I)
# Words that state a change: what the call writes, consumes, counts or moves on. "Next" and "advance" name a
# cursor moving; "count(s|ed)" a tally kept (the plain verb "count" asks a question, as in "Count the items").
_CHANGE_WORDS = re.compile(
    r"\b(?:updat\w*|chang\w*|modif\w*|sets?|setting|add(?:s|ed|ing)?|append\w*|insert\w*|remov\w*|delet\w*|"
    r"pop\w*|push\w*|increment\w*|decrement\w*|increas\w*|decreas\w*|record\w*|stor(?:e|es|ed|ing)|sav(?:e|es|ed|ing)|"
    r"reset\w*|clear\w*|register\w*|mark\w*|consum\w*|advanc\w*|mov(?:e|es|ed|ing)|accumulat\w*|track\w*|"
    r"log(?:s|ged|ging)?|cach\w*|next|counts|counted|counting|tall\w*|keeps?|remembers?|side[- ]effects?|"
    r"mutat\w*|writ(?:e|es|ing|ten)|assign\w*|replac\w*|swap\w*|adjust\w*|also|afresh|anew|empt(?:ies|ied|ying)|"
    # a draw of random values is new state: the cards dealt, the dice rolled
    r"random\w*|generat\w*|draw(?:s|n|ing)?|deal(?:s|t|ing)?|roll(?:s|ed|ing)?|shuffl\w*)\b", re.I)
_EVERY_CALL = re.compile(r"\b(?:every|each|all)\b[^.]{0,60}\bcalls?\b|\bcalls?\b[^.]{0,40}\b(?:counted|recorded|logged|"
                         r"tracked|kept)\b", re.I)


def change_stated(statements: Statements, method: str) -> bool:
    """Whether the skeleton states that a call of `method` may change what the object holds: its docstring
    uses a word of change ("updates", "records", "moves", "next"), or a sentence of the class docstring
    does, naming the method (its name or the name's first word: "counts the texts checked" for `check`),
    or the class docstring states that every call is counted or recorded (call statistics)."""
    if _CHANGE_WORDS.search(statements.of(method)) or _EVERY_CALL.search(statements.class_doc):
        return True
    stem = method.strip("_").split("_")[0].lower()
    return bool(stem) and any(_CHANGE_WORDS.search(s) and re.search(rf"\b{re.escape(stem)}", s, re.I)
                              for s in sentences(statements.class_doc))


def stated_as_query(statements: Statements, method: str) -> bool:
    """Whether the skeleton presents `method` as a computation or a question that leaves the object as it
    was: its docstring's summary says what it works out ("Calculate precision", "Return the total",
    "Whether ...", "The share of ..."), and nothing in the docstrings states a change (`change_stated`).
    A reference whose call of such a method changes what later calls return has an effect the skeleton
    does not state; a test observing it checks what a correct implementation need not do."""
    doc = statements.of(method).strip()
    return bool(doc) and _QUERY_SUMMARY.match(doc) is not None and not change_stated(statements, method)


# A method that adds what it is given: its summary's verb, or (a docstring derived from observed behaviour, or
# none, says nothing of it) its name's first word.
_ADDING_VERB = (r"(?:adds?|appends?|push(?:es)?|puts?|inserts?|enqueues?|feeds?|records?|stores?|collects?|buffers?|"
                r"accumulates?|submits?)")
_ADDING_SUMMARY = re.compile(rf"^\s*{_ADDING_VERB}\b", re.I)
_ADDING_NAME = re.compile(rf"^_*{_ADDING_VERB}(?:_|$)", re.I)
# Words that state a rule by which what was added leaves again, or is never kept: a flush, a limit, a filter.
_REMOVAL_RULE = re.compile(
    r"\b(?:flush\w*|clear\w*|empt\w*|evict\w*|drop\w*|discard\w*|remov\w*|delet\w*|capacity|limit\w*|at most|"
    r"maxim\w*|max|full|overflow\w*|oldest|trim\w*|truncat\w*|rotat\w*|ignor\w*|skip\w*|duplicat\w*|already|"
    r"unique|once|threshold|exceed\w*|emit\w*|sends?|sent|releas\w*|pass(?:es|ed)? on|hand(?:s|ed)? on|batch\w*|"
    # a budget spent by the additions: what is read empty is what they used up, not what they added
    r"spend\w*|spent|consum\w*|deduct\w*|debit\w*|subtract\w*|reduc\w*|decrement\w*)\b",
    re.I)


def stated_as_adding(statements: Statements, method: str) -> bool:
    """Whether the skeleton presents `method` as adding what it is given ("Add the text to the buffer", or
    an `add` whose docstring was derived from observed behaviour) and no docstring, its own or the class's,
    states a rule by which what it adds leaves again or is not kept (a flush, a capacity, duplicates
    ignored). A reference whose such call keeps nothing of a non-empty argument follows a rule the skeleton
    does not state; a test reading the emptied object checks it."""
    doc = statements.of(method)
    summary = sentences(doc)[0] if doc.strip() else ""
    says_nothing = not summary or summary.lstrip().startswith(DERIVED_MARKER)
    adding = (_ADDING_SUMMARY.match(summary) is not None
              or (says_nothing and _ADDING_NAME.match(method) is not None))
    return adding and not _REMOVAL_RULE.search(doc) and not _REMOVAL_RULE.search(statements.class_doc)


# --- exceptions -------------------------------------------------------------------------------------------

# `:raises X: when ...`, the clause running on over continuation lines (not into the next field, a blank line
# or an example).
_RAISES_CLAUSE = re.compile(r":raises\s+([A-Za-z_][\w.]*)\s*:\s*((?:.|\n(?!\s*:|\s*\n|\s*>>>))*)")


def raises_clauses(doc: str) -> dict[str, str]:
    """Exception name (without its module) -> the words of its `:raises X: when` clause in `doc`."""
    return {m.group(1).rsplit(".", 1)[-1]: m.group(2) for m in _RAISES_CLAUSE.finditer(doc)}


def exception_named(exception: str, doc: str) -> bool:
    """Whether `doc` names the exception as a word (``ValueError`` in "raises ValueError if ...")."""
    return re.search(rf"\b{re.escape(exception)}\b", doc) is not None


# A qualified name (``sqlite3.Error``, ``json.JSONDecodeError``) names its last part; a Google ``Raises:``
# section lists one exception per indented ``Name: when`` line.
_QUALIFIED_EXCEPTION = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.((?:[A-Z]\w*)?(?:Error|Exception|Warning))\b")
_GOOGLE_RAISES = re.compile(r"^[ \t]*Raises:[ \t]*\n((?:[ \t]+\S.*(?:\n|$))+)", re.MULTILINE)
_GOOGLE_ENTRY = re.compile(r"^[ \t]+([A-Za-z_][\w.]*)[ \t]*:", re.MULTILINE)


def documents_a_raise(doc: str) -> bool:
    """Whether `doc` lists an exception its method raises, as a `:raises X:` field or a Google ``Raises:``
    section (a method woven to call it must then say what its error does)."""
    return bool(raises_clauses(doc)) or _GOOGLE_RAISES.search(doc) is not None


def exceptions_documented(doc: str, interface: Interface) -> set[str]:
    """The exceptions `doc` documents, each by its name without a module: a `:raises X:` field or a Google
    ``Raises:`` entry (whatever X is), a qualified name of an exception (``sqlite3.Error``), or a word that
    is an exception class (built in, defined by the skeleton's module, or named as one, ``JSONDecodeError``).
    A standard-library or third-party module's exception is documented as well as a built-in one; only the
    bare word "Error", which prose uses, counts when qualified or in a raises field."""
    named = set(raises_clauses(doc))
    for section in _GOOGLE_RAISES.finditer(doc):
        named |= {m.group(1).rsplit(".", 1)[-1] for m in _GOOGLE_ENTRY.finditer(section.group(1))}
    named |= set(_QUALIFIED_EXCEPTION.findall(doc))
    words = set(_WORD_IDENTIFIER.findall(doc))
    named |= {w for w in words if w in interface.exception_bases or EXCEPTION_NAME.fullmatch(w)
              or (isinstance(getattr(builtins, w, None), type) and issubclass(getattr(builtins, w), BaseException))}
    return named


def documented_exceptions(interface: Interface, method: str) -> set[str]:
    """Exceptions the docs promise for `method`: documented by its docstring or the class docstring, or by a
    method its docstring names (transitively). "Returns what ``best_category`` returns" carries
    `best_category`'s documented ValueError with it: a solver who delegates raises the same."""
    seen: set[str] = set()
    todo = [method]
    found: set[str] = set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        doc = interface.class_doc + "\n" + (interface.methods[current].docstring if current in interface.methods else "")
        found |= exceptions_documented(doc, interface)
        todo.extend(w for w in interface.words(current) if w in interface.methods and w not in seen)
    return found


# --- omissions --------------------------------------------------------------------------------------------

_RETURN_WORDS = re.compile(r"\b(returns?|returned|whether)\b", re.IGNORECASE)


def _raised_names(solution: str, class_name: str) -> dict[str, set[str]]:
    """Method name -> exception class names raised by `raise Name(...)` / `raise Name` in its body."""
    tree = ast.parse(solution)
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    out: dict[str, set[str]] = {}
    for item in node.body if node else []:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        names = set()
        for sub in ast.walk(item):
            if isinstance(sub, ast.Raise) and sub.exc is not None:
                target = sub.exc.func if isinstance(sub.exc, ast.Call) else sub.exc
                name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
                if name and name[0].isupper():  # `raise error` re-raises a variable: not a new exception
                    names.add(name)
        out[item.name] = names
    return out


def _returns_value(solution: str, class_name: str) -> set[str]:
    """Methods of the reference with a `return <value>` (other than `return None`) in their own body."""
    tree = ast.parse(solution)
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    out = set()
    for item in node.body if node else []:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            returns = [s for s in ast.walk(item) if isinstance(s, ast.Return) and s.value is not None
                       and not (isinstance(s.value, ast.Constant) and s.value.value is None)]
            yields = any(isinstance(s, (ast.Yield, ast.YieldFrom)) for s in ast.walk(item))
            if returns or yields:
                out.add(item.name)
    return out


@dataclass(frozen=True)
class Omission:
    """What one public method's docstring leaves unstated."""

    method: str
    no_docstring: bool = False
    params: tuple[str, ...] = ()  # parameters the docstring (and the class docstring) never mentions
    returns: bool = False  # the reference returns a value and the docstring never says what
    exceptions: tuple[str, ...] = ()  # raised by the reference, named by no docstring (nor a base class)

    def lines(self) -> list[str]:
        if self.no_docstring:
            return [f"{self.method}: no docstring"]
        out = [f"{self.method}: parameter(s) {', '.join(self.params)} not described"] if self.params else []
        out += [f"{self.method}: return value not described"] if self.returns else []
        out += [f"{self.method}: raises {', '.join(self.exceptions)} without documenting it"] if self.exceptions else []
        return out


def omissions(interface: Interface, solution: str) -> list[Omission]:
    """The public methods whose docstrings leave something unstated, in declaration order. "Mentions" is
    lenient (a `:param x:` field or the word `x` in prose both count): a solver needs the fact, not a style.
    The specification judge rejects on these, and mining completes an author's docstrings from observed
    behaviour where they leave one out."""
    raised = _raised_names(solution, interface.class_name)
    returning = _returns_value(solution, interface.class_name)
    out = []
    for method in interface.methods.values():
        if not method.public or (method.name.startswith("__") and method.name != "__init__"):
            continue
        if not method.docstring.strip() and not (method.name == "__init__" and interface.class_doc.strip()):
            out.append(Omission(method.name, no_docstring=True))  # a constructor may be described by its class
            continue
        words = interface.words(method.name)
        missing = tuple(p for p in method.params if p not in words)
        returns = (method.name in returning and method.name != "__init__" and not method.is_property
                   and method.returns != "None" and not _RETURN_WORDS.search(method.docstring))
        documented = exceptions_documented(interface.class_doc + "\n" + method.docstring, interface)
        undocumented = tuple(sorted(e for e in raised.get(method.name, ())
                                    if not any(interface.is_subclass(e, d) for d in documented)))
        if missing or returns or undocumented:
            out.append(Omission(method.name, params=missing, returns=returns, exceptions=undocumented))
    return out
