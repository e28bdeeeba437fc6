"""Names of generated tests that read as a sentence about behaviour.

`test_numbering_after_adding_headings`, not `test_numbering_returns_1_1_1_1_2_after_add_heading`: a name says
which method's behaviour the test checks, in what situation (the state-changing calls before it, as
gerunds), and for a refused call what was wrong with the argument (`test_withdraw_rejects_a_negative_amount`).
Values never appear in a name: they are in the assertions, and a name built from them changes whenever the
data does. Names are unique within a module; when two tests would share one, the name grows with what tells
them apart (every earlier change, the other method the test checks, a fresh instance) before a number is
the last resort.

A fixture (the setup several tests share) is named for the object it makes, the way a person names one:
`graph`, `graph_with_four_tasks_and_two_dependencies` when it only adds things, `account_after_depositing`
otherwise (`fixture_names`).

English inflection is done by a few rules (`gerund`, `plural`) rather than a library: method names are
short verbs and nouns of code, the rules cover them, and a wrong form costs only a slightly odd name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

MAX_LENGTH = 72
"""Longest name body (after `test_`), cut at a word boundary."""

_VOWELS = "aeiou"
_DOUBLING = frozenset({
    "admit", "begin", "commit", "compel", "control", "defer", "emit", "equip", "expel", "forget", "incur", "infer",
    "occur", "offset", "omit", "patrol", "permit", "prefer", "propel", "recur", "refer", "regret", "remap", "rerun",
    "reset", "submit", "transfer", "transmit", "unmap", "unpin", "unwrap", "unzip", "upset",
    # compounds ending in a one-syllable verb double like it: snapshot -> snapshotting, rebin -> rebinning
    "input", "output", "rebin", "snapshot", "outfit", "kidnap", "handicap", "overlap", "unplug", "unclip",
})
"""Verbs of more than one syllable, stressed last, that double their final consonant (reset -> resetting)."""

_PHRASAL = {
    "backup": "backing_up", "checkin": "checking_in", "checkout": "checking_out", "cleanup": "cleaning_up",
    "login": "logging_in", "logout": "logging_out", "lookup": "looking_up", "markup": "marking_up",
    "payout": "paying_out", "pickup": "picking_up", "rollback": "rolling_back", "rollup": "rolling_up",
    "setup": "setting_up", "shutdown": "shutting_down", "signin": "signing_in", "signout": "signing_out",
    "signup": "signing_up", "startup": "starting_up", "teardown": "tearing_down", "warmup": "warming_up",
    "writeoff": "writing_off",
}
"""Phrasal verbs written as one word in code: rollback -> rolling_back, not rollbacking."""

_NOT_VERBS = frozenset({
    "all", "any", "best", "can", "count_of", "does", "first", "has", "how", "is", "last", "least", "max", "min",
    "most", "next", "none", "overview", "should", "stats", "summary", "total", "what", "when", "where", "which",
    "who", "why",
})
"""First words of method names that are not verbs: a call of such a method is `calling_<name>`."""
_NOUN_ENDINGS = ("ity", "ion", "ness", "ics", "ship", "ism", "hood", "sis")


def is_verb(word: str) -> bool:
    """Whether a method name's first word can be read as a verb: not a plural or a past participle
    (`tokens`, `changed`), a question or quantity word (`where`, `most`), or a noun by its ending
    (`similarity`, `correction`). A method named by a noun that changes state (a cache, a statistic) is
    still named as a query: `calling_similarity`, not `similaritying`."""
    word = word.lower()
    if word in _PHRASAL:
        return True
    if word in _NOT_VERBS or word.endswith(_NOUN_ENDINGS):
        return False
    if word.endswith("ed") and len(word) > 4:
        return False
    return not (word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3)


def gerund(verb: str) -> str:
    """The -ing form of an English verb: add -> adding, parse -> parsing, set -> setting, tie -> tying,
    rollback -> rolling_back."""
    word = verb.lower()
    if word in _PHRASAL:
        return _PHRASAL[word]
    if not word or word.endswith("ing"):
        return word
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith("e") and not word.endswith(("ee", "ye", "oe")) and len(word) > 2:
        return word[:-1] + "ing"
    if word.endswith("ic"):
        return word + "king"  # panic -> panicking; but sync -> syncing
    vowel_groups = re.findall(f"[{_VOWELS}]+", word)
    cvc = (len(word) >= 3 and word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS and word[-3] not in _VOWELS)
    if cvc and (len(vowel_groups) == 1 or word in _DOUBLING):
        return word + word[-1] + "ing"
    return word + "ing"


def plural(noun: str) -> str:
    """The plural of an English noun: heading -> headings, entry -> entries, box -> boxes; a word already
    ending in s is left alone (statistics, status)."""
    word = noun.lower()
    if word.endswith("s"):
        return word
    if word.endswith(("x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def doing(method: str, times: int, verb: bool = True) -> str:
    """A call as a gerund phrase: add_heading x3 -> adding_headings, deposit x2 -> depositing_twice; a
    method not named by a verb (a query) is called: render -> calling_render."""
    words = [w for w in method.strip("_").split("_") if w]
    if not words:
        return method
    verb = verb and is_verb(words[0])
    phrase = [gerund(words[0])] + words[1:] if verb else ["calling"] + words
    if times >= 2:
        if len(words) > 1 and verb:
            phrase[-1] = plural(phrase[-1])
        else:
            phrase.append("twice" if times == 2 else "repeatedly")
    return "_".join(phrase)


def argument_kind(literal: str) -> str | None:
    """What is special about an argument, in words (`a_blank`, `a_negative`, `an_empty`, `no`), or None.

    The literal is the oracle's canonical source text of a value; it is parsed, never run."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if isinstance(value, bool):
        return None
    if value is None:
        return "no"
    if isinstance(value, str):
        return "an_empty" if value == "" else "a_blank" if value.isspace() else None
    if isinstance(value, (int, float)):
        return "a_negative" if value < 0 else "a_zero" if value == 0 else None
    if isinstance(value, (list, tuple, dict, set, frozenset)) and not value:
        return "an_empty"
    return None


@dataclass(frozen=True)
class NamedStep:
    """A step of a rendered test as naming sees it."""

    method: str
    on_instance: bool  # called on the instance under test (not the class, not another object)
    asserted: bool
    raised: str | None = None  # the exception's class name when the test expects one
    empty_result: bool = False  # the asserted value is an empty container or string
    changes_state: bool = False
    verb: bool = True  # its name starts with a verb (a method that changes state), not a noun (a query)
    arguments: tuple[tuple[str, str], ...] = ()  # (parameter name, literal text) where both are known


class TestNamer:
    """Gives each test of one module its name; `taken` holds names already used in the module."""

    __test__ = False  # not a test class, for pytest

    def __init__(self, taken: set[str] | None = None) -> None:
        self.taken = taken if taken is not None else set()

    def name(self, steps: Sequence[NamedStep], title: str | None = None) -> str:
        for candidate in self.candidates(steps, title):
            name = "test_" + _clip(candidate)
            if name not in self.taken:
                self.taken.add(name)
                return name
        base, counter = "test_" + _clip(next(iter(self.candidates(steps, title)))), 2
        while f"{base}_{counter}" in self.taken:
            counter += 1
        self.taken.add(f"{base}_{counter}")
        return f"{base}_{counter}"

    def candidates(self, steps: Sequence[NamedStep], title: str | None) -> list[str]:
        """Names from the plainest to the most specific (the first free one is taken)."""
        focus_index = max((i for i, s in enumerate(steps) if s.asserted), default=None)
        if focus_index is None:
            return [title or "sequence_of_calls"]
        focus = steps[focus_index]
        method = focus.method.strip("_")
        changes = _changes(steps[:focus_index], _words(title) if title else set())
        subject = title or _behaviour(focus)
        context = _after(changes[-2:])
        out = [subject, _join(subject, context)] if title else [_join(subject, context)]
        if len(changes) > 2:
            out.append(_join(subject, _after(changes[-4:])))
        mentioned = _words(subject)
        others = [s.method.strip("_") for s in steps if s.asserted and s.method.strip("_") != method
                  and not set(s.method.strip("_").split("_")) <= mentioned]
        if others and not title:  # the other method the test checks: `balance_and_statement_after_depositing`
            out.append(_join(f"{method}_and_{others[-1]}{subject[len(method):]}", context))
        if not changes and not title:
            out.append(_join(subject, "on_a_fresh_instance"))
        used = others[-1:] if others and not title else []
        named = used if title else [method, *used]  # a title does not name the checked method
        involved = [s.method.strip("_") for s in steps if s.method.strip("_") not in named
                    and not set(s.method.strip("_").split("_")) <= mentioned]
        if involved:  # a method the test calls on the way: `apply_batch_after_a_rolled_back_batch_involving_deposit`
            out.append(_join(subject, f"involving_{involved[0]}"))
            out.append(_join(subject, context, f"involving_{involved[0]}"))
        return [re.sub(r"_+", "_", c).strip("_") for c in out]


def _behaviour(focus: NamedStep) -> str:
    method = focus.method.strip("_")
    if focus.raised is not None:
        kind = next(((k, p) for p, lit in focus.arguments if (k := argument_kind(lit))), None)
        if kind is not None:
            return f"{method}_rejects_{kind[0]}_{kind[1]}"
        return f"{method}_raises_{snake(focus.raised)}"
    if focus.empty_result:
        return f"{method}_is_empty"
    return method


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text))


def _changes(steps: Sequence[NamedStep], mentioned: set[str]) -> list[str]:
    """The state-changing calls on the instance, as gerund phrases, each method once (in order of its
    last call), with how often it was called; methods a title already names are left out."""
    counts: dict[str, int] = {}
    order: list[str] = []
    verbs: dict[str, bool] = {}
    for step in steps:
        if step.on_instance and step.changes_state and not set(step.method.strip("_").split("_")) <= mentioned:
            counts[step.method] = counts.get(step.method, 0) + 1
            verbs[step.method] = step.verb
            if step.method in order:
                order.remove(step.method)
            order.append(step.method)
    return [doing(m, counts[m], verbs[m]) for m in order]


def _after(phrases: Sequence[str]) -> str:
    if not phrases:
        return ""
    if len(phrases) == 1:
        return "after_" + phrases[0]
    return "after_" + "_".join(phrases[:-1]) + "_and_" + phrases[-1]


def _join(*parts: str) -> str:
    return "_".join(p for p in parts if p)


def _clip(base: str) -> str:
    base = re.sub(r"_+", "_", base).strip("_")
    while len(base) > MAX_LENGTH and "_" in base:
        base = base.rsplit("_", 1)[0]  # cut at a word boundary, never mid-word
    for dangling in ("_and", "_after", "_for", "_a", "_an", "_on", "_involving"):
        base = base.removesuffix(dangling)
    return base.rstrip("_")


_ADDING = frozenset({
    "add", "append", "attach", "create", "enqueue", "enroll", "include", "insert", "open", "place", "plant",
    "push", "put", "record", "register", "schedule", "store", "track",
})
"""Verbs of methods that add one named thing (`add_task`, `register_user`): a fixture made of such calls is
named for what it holds, `graph_with_two_tasks`."""
_COUNTS = ("", "", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _holding(method: str, times: int) -> str | None:
    """`add_task` x2 -> `two_tasks`, `open_account` x1 -> `an_account`; None for a method that does not add a
    named thing."""
    words = [w for w in method.strip("_").lower().split("_") if w]
    if len(words) < 2 or words[0] not in _ADDING:
        return None
    noun = words[1:]
    if noun[-1].endswith("s") and not noun[-1].endswith(("ss", "us", "is")):
        return None  # `add_items` adds several at once: counting its calls would say the wrong number
    if times == 1:
        return "_".join(["an" if noun[0][0] in "aeio" else "a", *noun])  # a user, a unit: "u" takes "a"
    count = _COUNTS[times] if times < len(_COUNTS) else "many"
    return "_".join([count, *noun[:-1], plural(noun[-1])])


def fixture_names(variable: str, steps: Sequence[NamedStep]) -> list[str]:
    """Names for a fixture that builds `variable` and then makes the calls `steps`, from the plainest to the
    most specific (the first one free in the module is taken).

    No call: the variable itself (`graph`). Calls that each add a named thing: what the object then holds
    (`graph_with_four_tasks_and_four_dependencies`). Otherwise the state-changing calls as in a test's name
    (`account_after_depositing_twice`; the last two methods, then all of them). Values never appear."""
    if not steps:
        return [variable]
    changing = [s for s in steps if s.changes_state] or list(steps)
    counts: dict[str, int] = {}
    verbs: dict[str, bool] = {}
    for step in changing:
        counts[step.method] = counts.get(step.method, 0) + 1
        verbs[step.method] = step.verb
    out = []
    held = [_holding(m, n) for m, n in counts.items()]
    if all(held):
        out.append(f"{variable}_with_" + "_and_".join(h for h in held if h))
    phrases = [doing(m, n, verbs[m]) for m, n in counts.items()]
    out.append(f"{variable}_{_after(phrases[-2:])}")
    out.append(f"{variable}_{_after(phrases)}")
    names = []
    for name in out:
        name = re.sub(r"_+", "_", name).strip("_")
        if len(name) <= MAX_LENGTH and name.isidentifier() and name not in names:
            names.append(name)
    return names
