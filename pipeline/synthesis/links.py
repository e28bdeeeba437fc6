"""Links of a composition: where one part's produced value is consumed by the other, on meaning, not type.

A seed declares in its seed.toml what it produces (`Produces`: a method's return value, with its meaning,
unit and the words for it) and what it exists to consume (`Accepts`: a method's parameter, with the same),
and a link joins a producer of one seed to a consumer of the other when the meanings join
(`core.meanings.joins`) and the types can carry the value. A seed that declares nothing (a corpus written
elsewhere: ClassEval's, a mined class) gets ends derived from its names (`derived_ends`), which are
deliberately narrow: a text only reaches a consumer of any text, an amount of money one that takes money in
any unit, so that a derived link never gives a value a role it does not have.

A consumer of any number (statistics, a histogram) is linked only to a producer that says why a program
keeps a series of its values (`Produces.purpose`: "avalanche sizes are what a sandpile simulation is run to
measure"). Without it the only reason a link could give is the consumer's own ("so that its distribution
can be read back"), which is how the flips of a board game's move came to be binned: such pairs are not
composed, and a derived end, which states no purpose, never reaches statistics.

A link is *woven* when the producer is an operation (it changes its part's state and returns the value
on every path) and the consumer needs nothing but the value: the operation itself then hands its result
on, which is how a person writes it ("each drop's avalanche is counted in the histogram"). Otherwise it is
a *link method* of the hybrid, whose docstring says in one sentence what it is for. Which pairs are tried
at all is decided on the seeds alone (`may_link`): renaming in the fusion changes names, not what links.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.analysis.class_model import ClassModel, MethodModel, analyse, with_callers
from core.meanings import ANY_NUMBER, EVENT, clock_factor, factor, joins
from core.records import Accepts, Produces, SeedClass, content_hash
from pipeline.corpus.classeval import imported


@dataclass(frozen=True)
class SeedLink:
    """A producer of one seed joined to a consumer of the other, by the seeds' own method names."""

    produced: Produces
    accepted: Accepts
    forward: bool  # True: the first seed of the pair produces, the second consumes
    conversion: str = "{}"  # how the value is put in the consumer's unit: "{} * 1000", "round({} * 100)"
    supplied: tuple[tuple[str, str], ...] = ()  # (consumer parameter, producer's expression) given beside the value

    @property
    def given(self) -> set[str]:
        """The consumer's parameters the producer fills: not asked of a link method's caller."""
        return {name for name, _ in self.supplied}


@dataclass(frozen=True)
class Link:
    """A link in the hybrid (names as in the hybrid): `call` is what a test calls to make the value cross
    (the woven producer itself, or the link method)."""

    call: str
    producer: str
    consumer: str
    parameter: str
    source_part: str
    target_part: str
    observers: tuple[str, ...]  # queries of the consumer's part that read what the consumer writes
    woven: bool
    produced: Produces
    accepted: Accepts
    conversion: str = "{}"
    supplied: tuple[tuple[str, str], ...] = ()  # the consumer's other parameters the producer fills
    condition: str = ""  # the producer's condition in the hybrid's names (`Produces.condition`)
    value: str = ""  # what is handed on, in the hybrid's names, where it is not the return (`Produces.value`)
    returns_nothing: bool = False  # the producer returns no value: it reports an event of what it did at its end
    given = SeedLink.given

    @property
    def checked_before(self) -> bool:
        """The condition is read on the state the operation finds (it does not name the result)."""
        return bool(self.condition) and "{result}" not in self.condition

    @property
    def group(self) -> str:
        """What the link shares with others of its hybrid: a log or a bus hears every operation its purpose
        names (a payroll audit logs approvals, cancellations and rejections alike), and one series
        (`Produces.name`) takes what several operations add to it (a retry's attempts, from the runs that
        succeed and the runs that give up); any other link stands alone. Such a group counts once towards
        `max_links` and is told in one sentence of the class docstring."""
        if self.accepted.unit == EVENT:
            return f"events->{self.consumer}"
        return f"series->{self.consumer}->{self.produced.name}" if self.woven else f"one->{self.call}"

    def guard(self, value: str, before: str, positive: bool = True) -> str:
        """The test a value must pass to be handed on ("" for none): above zero where zero is no event (unless
        not `positive`: a link method leaves a refused zero to the consumer's error), and the producer's
        condition, `value` naming what the producer returned and `before` the condition's value read before
        the operation."""
        tests = [f"{self.handed(value)} > 0"] if self.positive and positive else []
        if self.condition:
            tests.append(before if self.checked_before else self.condition.replace("{result}", value))
        return " and ".join(tests)

    @property
    def unit_note(self) -> str:
        """How the value is converted to the consumer's unit, in words ("" when it is not)."""
        if self.conversion == "{}":
            return ""
        how = self.conversion.replace("round(", "").replace(")", "").replace("{} ", "")
        how = how.replace("* ", "multiplied by ").replace("/ ", "divided by ")
        rounded = ", rounded to a whole number" if self.conversion.startswith("round(") else ""
        return f" ({how} to be in {self.accepted.unit.replace('_', ' ')}{rounded})"

    def handed(self, value: str) -> str:
        """The value handed on, `value` naming what the producer returned: that value, or the producer's
        `value` expression over it (the attempts a retry spent, where it returns the wait it prescribes)."""
        if not self.value:
            return value
        expression = self.value.replace("{result}", value)
        return expression if re.fullmatch(r"[\w.]+", expression) else f"({expression})"

    def passed(self, value: str) -> str:
        """The expression handed to the consumer, `value` naming what the producer returned: that value (or
        its `handed` expression) in the consumer's unit, or for an event its text as an f-string over the
        producer's parameters."""
        if not self.produced.event:
            return self.conversion.format(self.handed(value))
        return "f" + repr(self.produced.event.replace("{result}", "{" + value + "}"))

    @property
    def positive(self) -> bool:
        """Only values above zero cross: the consumer refuses the rest, or the producer's zero is no event."""
        return self.accepted.positive or self.produced.positive

    @property
    def reason(self) -> str:
        """Why the value crosses, as the tail of a sentence: what the consumer makes of it (", so that ..."),
        then why a program keeps these values at all (": " and the producer's purpose). A sink says only
        what it does with anything it is given ("its distribution can be read back", "kept in the log"), so
        there the producer's purpose is the whole reason."""
        why = f", {self.accepted.why}" if self.accepted.why and not is_sink(self.accepted) else ""
        purpose = purpose_for(self.produced, self.accepted)
        return why + (f": {purpose}" if purpose else "")

    @property
    def sentence(self) -> str:
        """The link in one plain sentence: what crosses, what becomes of it and why."""
        only = f" It is passed on only {self.produced.condition_words}." if self.produced.condition_words else ""
        return f"{capitalised(self.produced.what)} is {self.accepted.role}{self.unit_note}{self.reason}.{only}"


def links_summary(links: Sequence[Link]) -> str:
    """What crosses between the parts and why, for the hybrid's class docstring: a sentence per link, except
    that the operations reporting to one log or bus share one sentence, which names each with its reason
    ("A note of each ``approve`` and ``reject`` is appended to the audit chain, because ... (``approve``)
    and ... (``reject``).") instead of repeating what the log does once per operation."""
    groups: dict[str, list[Link]] = {}
    for link in links:  # a link method is told on its own: its sentence names the method, not an operation
        groups.setdefault(link.group if link.woven else f"one->{link.call}", []).append(link)
    out = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0].sentence)
            continue
        if group[0].accepted.unit != EVENT:
            out.append(_series_sentence(group))
            continue
        names = [f"``{link.producer}``" for link in group]
        shared, rests = _shared_start([purpose_for(link.produced, link.accepted) for link in group])
        reasons = [f"{rest} ({name})" for rest, name in zip(rests, names)]
        conditions = [f" {name} reports only {link.produced.condition_words}." for link, name in zip(group, names)
                      if link.produced.condition_words]
        out.append(f"A note of each {_listed(names)} is {group[0].accepted.role}, because "
                   f"{shared}{_listed(reasons, '; ')}." + "".join(conditions))
    return " ".join(out)


def _shared_start(reasons: Sequence[str]) -> tuple[str, list[str]]:
    """The words every reason starts with (at least two, ending with a space), said once, and what is left of
    each: "services that cache permissions must hear when a user gains a role; drop a role the moment it is
    taken away" instead of naming the services again for every operation ("" and the reasons when they
    share fewer words, or when a reason would be left empty)."""
    split = [reason.split() for reason in reasons]
    count = 0
    while all(len(words) > count + 1 for words in split) and len({words[count] for words in split}) == 1:
        count += 1
    if count < 2:
        return "", list(reasons)
    return " ".join(split[0][:count]) + " ", [" ".join(words[count:]) for words in split]


def _series_sentence(group: Sequence[Link]) -> str:
    """One sentence for the values several operations add to one series (the attempts of the runs that
    succeed and of those given up), each named with its operation, its condition and its reason."""
    group = sorted(group, key=lambda link: bool(link.produced.condition))  # every call's series first
    count = {2: "Two", 3: "Three", 4: "Four"}.get(len(group), str(len(group)))
    parts = [f"{link.produced.what}, from ``{link.producer}``"
             + (f" {link.produced.condition_words}" if link.produced.condition_words else "")
             + f", because {purpose_for(link.produced, link.accepted)}" for link in group]
    return f"{count} values are {group[0].accepted.role}{group[0].unit_note}: {_listed(parts, '; ')}."


def _listed(items: Sequence[str], separator: str = ", ") -> str:
    """'a, b and c' (with `separator` '; ': 'a; b; and c', for items that hold commas of their own)."""
    if len(items) == 1:
        return items[0]
    return separator.join(items[:-1]) + (" and " if separator == ", " else f"{separator}and ") + items[-1]


def is_sink(accepted: Accepts) -> bool:
    """A consumer that keeps whatever it is given and does the same with each: statistics of any number, a
    log or a message bus of events. Its own `why` is no reason to feed it, so it is linked only to a
    producer that states a purpose, and it may take the events of several operations of one part."""
    return accepted.meaning == ANY_NUMBER or accepted.unit == EVENT


def purpose_for(produced: Produces, accepted: Accepts) -> str:
    """Why a program hands this value to this consumer: the producer's purpose for the consumer's verb (a
    log keeps a trace of an approval, a bus tells payroll of it), else its general one ("" for none)."""
    return produced.purposes.get(accepted.verb, produced.purpose)


def supplied(produced: Produces, accepted: Accepts) -> tuple[tuple[str, str], ...]:
    """The consumer's other parameters the producing operation fills, role by role (`CONTEXT_ROLES`): the
    approver of a leave request as an audit entry's actor, a fixed topic for a message bus, the minute of a
    queue's clock as an audit entry's timestamp in seconds. A value with a unit (`units`: a clock's) is
    given only when both ends state one and it converts; otherwise the consumer's own default, or its
    caller, gives it."""
    out: list[tuple[str, str]] = []
    for role in sorted(accepted.context):
        if role not in produced.context:
            continue
        expression = produced.context[role]
        if role in produced.units or role in accepted.units:
            scale = clock_factor(produced.units.get(role, ""), accepted.units.get(role, ""))
            if scale is None:
                continue
            expression = scaled(expression, scale)
        out.append((accepted.context[role], expression))
    return tuple(out)


def scaled(expression: str, scale: Fraction) -> str:
    """`expression` multiplied by `scale`, whole numbers kept whole (a time in a coarser unit is floored)."""
    if scale == 1:
        return expression
    operand = expression if re.fullmatch(r"[\w.]+", expression) else f"({expression})"
    if scale.denominator == 1:
        return f"{operand} * {scale.numerator}"
    return f"{operand} * {scale.numerator} // {scale.denominator}" if scale.numerator != 1 else \
        f"{operand} // {scale.denominator}"


def in_hybrid(expression: str, renames: dict[str, str]) -> str:
    """An expression over a part's state (`self.now`) with that part's members named as in the hybrid."""
    return re.sub(r"\bself\.(\w+)", lambda m: "self." + renames.get(m.group(1), m.group(1)), expression)


def _conversion(scale: Fraction | None, returns: str | None, parameter: str | None) -> str | None:
    """The expression (with "{}" for the value) that puts a value in the consumer's unit: unchanged, times
    or divided by the scale, rounded when the consumer takes only whole numbers and the value may not be
    one; None when the units do not convert or only a float would carry a fraction of a whole number."""
    if scale is None:
        return None
    if scale == 1:
        return "{}"
    expression = f"{{}} * {scale.numerator}" if scale.denominator == 1 else f"{{}} / {scale.denominator}"
    given, taken = _types(returns) or set(), _types(parameter) or set()
    whole = given <= {"int"} and scale.denominator == 1
    if taken and "float" not in taken and "int" in taken and not whole:
        return f"round({expression})"
    return expression


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- types -------------------------------------------------------------------------------------------------

def _types(annotation: str | None) -> set[str] | None:
    if annotation is None:
        return None
    text = annotation.replace(" ", "").replace("List[", "list[").replace("Optional[", "").strip("'\"")
    return set(text.split("|"))


def carries(returns: str | None, parameter: str | None) -> bool:
    """Whether a value the producer returns can be given to the parameter: every type it may return is one
    the parameter takes (an int widens to a float; a value that may be None reaches only a parameter that
    takes None). An unannotated end carries anything: the oracle's runs decide."""
    given, taken = _types(returns), _types(parameter)
    if given is None or taken is None or "Any" in taken or "object" in taken:
        return True
    widened = taken | ({"int"} if "float" in taken else set()) | ({"list[int]"} if "list[float]" in taken else set())
    return given <= widened


# -- ends of a seed ----------------------------------------------------------------------------------------

_MEASURE_WORDS = {"score": "score", "points": "score", "total": "count", "count": "count", "size": "size",
                  "length": "size", "rate": "ratio", "ratio": "ratio", "similarity": "ratio", "average": "reading",
                  "mean": "reading", "balance": "money", "price": "money", "cost": "money"}
_RETURNS_A = re.compile(r"\breturns?\s+(?:its|the|their)\s+(" + "|".join(_MEASURE_WORDS) + r")\b", re.IGNORECASE)
_TEXT_METHODS = re.compile(r"^(render|format|to_string|to_text|text|generate|get_text|summary|report)(_|$)")
_TEXT_PARAMS = {"text", "sentence", "document", "content", "paragraph", "passage"}
_NUMBER_PARAMS = {"value", "sample", "observation", "measurement", "reading", "number"}
_MONEY_PARAMS = {"amount", "payment"}
_PAYING = re.compile(r"^(deposit|pay|credit|top_up|add_funds|receive|insert)")
_MONEY_WORDS = re.compile(r"\b(money|balance|account|wallet|payment|price|cost|cash|fund|funds)\b", re.IGNORECASE)
_DOC_TYPE = re.compile(r"^\s*(int|float|str|bool|list|dict)\b")


def _doc_type(docstring: str | None, field: str) -> str | None:
    """The type a ClassEval-style docstring gives a parameter (`:param amount: int, ...`) or the return
    value (`:return: float, the mean`), when it names a plain one first; None otherwise."""
    match = re.search(rf":{re.escape(field)}\s*:(.*)", docstring or "")
    found = _DOC_TYPE.match(match.group(1)) if match else None
    return found.group(1) if found else None


def derived_ends(model: ClassModel) -> tuple[tuple[Produces, ...], tuple[Accepts, ...]]:
    """Ends read from names, for a class whose seed declares none: a method named for a measure (score, total,
    size, rate, ...) returning a number, or an operation whose docstring says it returns one ("close the
    ledger and return its total"), produces that measure in no stated unit; one named for rendered text
    returning a str produces text; a method that changes state and takes a value named as a sample
    (``value``, ``observation``, ...) of a numeric type accepts any number, one named as a text (``text``,
    ``sentence``, ...) accepts any text. The words come from the names, since nothing else is known."""
    subject = _words(model.name)
    produces: list[Produces] = []
    accepts: list[Accepts] = []
    for method in model.public_methods():
        if method.kind != "instance" or method.name == "__init__":
            continue
        label = _words(re.sub(r"^(get|calculate|compute|view)_", "", method.name))
        returned = _types(method.returns or _doc_type(method.docstring, "return")) or set()
        meaning = next((m for word, m in _MEASURE_WORDS.items() if word in method.name.split("_")), None)
        said = _RETURNS_A.search(method.docstring or "") if method.name in model.mutators else None
        if meaning is None and said:  # an operation whose docstring says what it returns ("... and return its total")
            meaning, label = _MEASURE_WORDS[said.group(1).lower()], said.group(1).lower()
        if meaning in ("count", "money") and _MONEY_WORDS.search(" ".join(filter(None, (model.docstring, method.docstring)))):
            meaning = "money"  # a total of a class that speaks of prices or balances is an amount of money
        elif meaning == "money":
            meaning = None  # a "balance" that is no money (a scale's, a tree's) is nothing derived can name
        if meaning and returned and returned <= {"int", "float"}:
            produces.append(Produces(method=method.name, meaning=meaning, unit="unstated",
                                     what=f"the {label} of the {subject}", name=label.replace(" ", "_")))
        elif _TEXT_METHODS.match(method.name) and returned == {"str"}:
            produces.append(Produces(method=method.name, meaning="text", unit="plain",
                                     what=f"the {subject}'s {label} text", name=label.replace(" ", "_") + "_text"))
        if method.name not in model.mutators:
            continue
        for param in method.params:
            kinds = _types(param.annotation or _doc_type(method.docstring, f"param {param.name}")) or set()
            if param.name in _NUMBER_PARAMS and kinds and kinds <= {"int", "float"}:
                accepts.append(_derived_accepts(method, param.name, "number", subject))
            elif param.name in _MONEY_PARAMS and kinds and kinds <= {"int", "float"} and _PAYING.match(method.name) \
                    and _MONEY_WORDS.search(
                    " ".join(filter(None, (model.docstring, method.docstring)))):
                accepts.append(_derived_accepts(method, param.name, "money", subject))
            elif param.name in _TEXT_PARAMS and kinds == {"str"}:
                accepts.append(_derived_accepts(method, param.name, "text", subject))
    return tuple(produces), tuple(accepts)


def _derived_accepts(method: MethodModel, parameter: str, meaning: str, subject: str) -> Accepts:
    verb = method.name.split("_")[0]
    return Accepts(method=method.name, parameter=parameter, meaning=meaning, unit="unstated" if meaning == "money" else "any",
                   role=f"given to the {subject} through ``{method.name}``",
                   action=f"give {{what}} to the {subject} through ``{method.name}``", verb=verb)


def _words(name: str) -> str:
    return " ".join(w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)) or name


def seed_ends(seed: SeedClass, model: ClassModel | None = None) -> tuple[tuple[Produces, ...], tuple[Accepts, ...]]:
    """The seed's declared ends, or ends derived from its names when it declares none."""
    if seed.produces or seed.accepts:
        return seed.produces, seed.accepts
    return derived_ends(model or analyse(seed.source, seed.class_name))


def _handed_type(produced: Produces, method: MethodModel) -> str | None:
    """The type of what a producer hands on: its return annotation, or where it hands on a `value` of its
    own, that parameter's annotation (None, which carries anything, for an expression: the oracle decides)."""
    if not produced.value:
        return method.returns
    return next((p.annotation for p in method.params if p.name == produced.value), None)


def seed_links(a: SeedClass, b: SeedClass, model_a: ClassModel | None = None,
               model_b: ClassModel | None = None) -> list[SeedLink]:
    """Every producer of one seed joined to a consumer of the other whose meaning it has and whose
    parameter can take its value."""
    model_a = model_a or analyse(a.source, a.class_name)
    model_b = model_b or analyse(b.source, b.class_name)
    ends = {True: (seed_ends(a, model_a)[0], seed_ends(b, model_b)[1], model_a, model_b),
            False: (seed_ends(b, model_b)[0], seed_ends(a, model_a)[1], model_b, model_a)}
    out: list[SeedLink] = []
    for forward, (produced, accepted, giver, taker) in ends.items():
        for p in produced:
            for c in accepted:
                source, target = giver.methods.get(p.method), taker.methods.get(c.method)
                if source is None or target is None or not joins(p, c):
                    continue
                param = next((x for x in target.params if x.name == c.parameter), None)
                handed = _handed_type(p, source)
                conversion = _conversion(factor(p, c), handed, param.annotation if param else None)
                returns = "str" if p.event else handed if conversion in ("{}", "round({})") else "float"
                if param is None or conversion is None or not (
                        carries(returns, param.annotation) or conversion.startswith("round(")):
                    continue
                if is_sink(c) and not purpose_for(p, c):
                    continue  # values kept for their own sake: the only reason would restate the consumer
                if c.meaning == ANY_NUMBER and not _woven_at_seed(p, c, giver, taker, forward, (a, b)):
                    continue  # statistics of a snapshot fed by hand: counted twice or never (see below)
                out.append(SeedLink(p, c, forward, conversion, supplied(p, c)))
    return out


def _woven_at_seed(produced: Produces, accepted: Accepts, giver: ClassModel, taker: ClassModel, forward: bool,
                   seeds: tuple[SeedClass, SeedClass]) -> bool:
    """Whether the link would be woven into its producer. A consumer of any number (statistics, a
    histogram) records one value per event; a link method that feeds it a query's current value (a
    folder's size, the latest price) leaves the caller to call it once per event, so it counts a value
    twice or never: such a consumer is linked only inside an operation that produces the value."""
    seed = seeds[0] if forward else seeds[1]
    cls = next(n for n in ast.parse(seed.source).body if isinstance(n, ast.ClassDef) and n.name == seed.class_name)
    node = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == produced.method), None)
    part = tuple(m for m in giver.methods if m != "__init__")
    given = SeedLink(produced, accepted, forward, supplied=supplied(produced, accepted)).given
    return node is not None and weavable(node, giver, part, taker.methods[accepted.method], accepted.parameter, given,
                                         reports=accepted.unit == EVENT, names=bool(produced.event),
                                         held=held_writers(seed.source, seed.class_name, giver))


_LINKS_CACHE: dict[str, bool] = {}
_SEED_MODELS: dict[str, ClassModel] = {}  # read only: may_link asks of every pair, so each seed is read once


def may_link(a: SeedClass, b: SeedClass) -> bool:
    """Whether the pair has a link either way, judged on the two seeds alone (cached by content), or may
    have one once its types are observed (`_unhinted`). A seed that cannot be read has none: its fusion
    would fail anyway."""
    key = content_hash(*(part for seed in (a, b) for part in (
        seed.source, seed.class_name, seed.model_dump(include={"produces", "accepts"}, mode="json"), imported(seed))))
    if key not in _LINKS_CACHE:
        try:
            model_a, model_b = _seed_model(a), _seed_model(b)
            _LINKS_CACHE[key] = bool(seed_links(a, b, model_a, model_b)) or _unhinted(a, model_a) or _unhinted(b, model_b)
        except (SyntaxError, LookupError):
            _LINKS_CACHE[key] = False
    return _LINKS_CACHE[key]


def _seed_model(seed: SeedClass) -> ClassModel:
    """The seed's class model, read once per process (pairing asks `may_link` of every pair: reading each
    seed again for each of its pairs cost most of the compose stage's planning)."""
    key = content_hash(seed.source, seed.class_name)
    if key not in _SEED_MODELS:
        _SEED_MODELS[key] = analyse(seed.source, seed.class_name)
    return _SEED_MODELS[key]


def _unhinted(seed: SeedClass, model: ClassModel) -> bool:
    """A seed that declares no ends and carries no type hints: its ends are derived from the types the
    oracle observes, known at composition time, so the pair stays in. Not a task `import-classeval
    --as-seeds` wrote: the import read its ends from its docstrings (`pipeline/corpus/classeval_ends.py`),
    and observed types add only a type match (they composed none of ClassEval's pairs, and took the quota
    from the pairs that link)."""
    if seed.produces or seed.accepts or imported(seed):
        return False
    return not any(m.returns or any(p.annotation for p in m.params) for m in model.public_methods())


# -- weaving -----------------------------------------------------------------------------------------------

_SQL_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


def held_writers(source: str, class_name: str, model: ClassModel) -> frozenset[str]:
    """Methods that change what the instance holds through an object it keeps: a database connection's
    `execute` of an INSERT, UPDATE, DELETE or REPLACE, directly or through the methods they call. The class
    model counts only writes to fields, so an inventory's `ship`, which books its movement in the
    database, would read as a query and never report it."""
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == class_name)
    direct = {node.name for node in cls.body if isinstance(node, ast.FunctionDef) and any(
        isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
        and call.func.attr in ("execute", "executemany") and call.args and isinstance(call.args[0], ast.Constant)
        and isinstance(call.args[0].value, str) and _SQL_WRITE.match(call.args[0].value)
        for call in ast.walk(node))}
    return with_callers(model.methods, direct)


def returns_nothing(function: ast.FunctionDef) -> bool:
    """The function never returns a value (no `return` with one): an operation that can only report an event."""
    return not any(isinstance(node, ast.Return) and node.value is not None for node in _own_nodes(function))


def weavable(producer: ast.FunctionDef, model: ClassModel, part_methods: tuple[str, ...], consumer: MethodModel,
             parameter: str, given: Collection[str] = (), *, reports: bool = False,
             held: Collection[str] = (), names: bool = False) -> bool:
    """Whether the link can live inside the producer: it is an operation (it changes state), it returns a
    value on every path (each `return` has one and the body ends in a `return` or `raise`), or, for an
    operation that `reports` an event of what it did, returns nothing and has no early `return`; every `return`
    stands on a line of its own, and the consumer needs nothing but the value and the parameters the
    producer gives (`given`). No other method of its part may call it (those would pass values on that
    their docstrings never mention), except where it `reports` to a log or a bus: there an even expense,
    which `add_expense` adds through `add_weighted_expense`, is logged once, by the operation it calls,
    and the calling methods' docstrings say so. An operation may change its state through an object it
    holds (`held`: `held_writers`). An operation that `names` what it acted on (its event text is made of
    its parameters: a registered room's name handed to a completion trie) and returns nothing hands it on at
    its end too, like a report."""
    if producer.name not in model.mutators and producer.name not in held:
        return False
    at_end = (reports or names) and returns_nothing(producer)
    if not reports and any(producer.name in model.methods[m].calls for m in part_methods
                           if m in model.methods and m != producer.name):
        return False
    if not producer.body or (not at_end and not isinstance(producer.body[-1], (ast.Return, ast.Raise))):
        return False
    for node in _own_nodes(producer):
        # an operation that reports what it did reports it at its end: an early `return` did nothing
        if isinstance(node, ast.Return) and (at_end or node.value is None):
            return False
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return False
    if not _returns_stand_alone(producer):
        return False
    return all(p.has_default or p.name == parameter or p.name in given for p in consumer.params)


def _own_nodes(function: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of the function's body, without those of nested functions, lambdas and classes."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        out.append(node)
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)
    return out


def _returns_stand_alone(function: ast.FunctionDef) -> bool:
    """Every `return` of the function is the only statement on its line (so it can be replaced by lines)."""
    lines: dict[int, int] = {}
    for node in _own_nodes(function):
        if isinstance(node, ast.stmt):
            lines[node.lineno] = lines.get(node.lineno, 0) + 1
    return all(lines[node.lineno] == 1 for node in _own_nodes(function) if isinstance(node, ast.Return))
