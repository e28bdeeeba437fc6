"""What a quantity means: the vocabulary composition joins classes on.

Two classes are composed because one produces what the other exists to consume: a basket's total paid into
a wallet, a retry's delay recorded as a latency, an avalanche's size counted in a histogram. A matching type
says nothing of that (a password's strength and a lap time are both numbers), so each end of a link names
its meaning and its unit, and a link joins only equal meanings in equal units. Two consumer wildcards exist
for classes that take any measured value (statistics, histograms, anomaly detectors): meaning `number`
accepts every numeric meaning, unit `any` every unit of the meaning.

The vocabulary is closed so that a typo in a seed.toml is an error, not a link that silently never forms.
"""

from __future__ import annotations

from fractions import Fraction

from core.records import Accepts, Produces

MEANINGS: dict[str, str] = {
    "money": "an amount of money",
    "duration": "a length of time",
    "timestamp": "a point in time",
    "count": "a number of things",
    "score": "points earned or a rating",
    "ratio": "a fraction between 0 and 1",
    "size": "a size or length (bytes, characters, cells)",
    "reading": "a measured value such as a price or a level",
    "text": "a piece of text",
    "texts": "several pieces of text",
    "word": "a single word or token",
    "url": "a URL or a path of one",
}
"""Meaning -> what it is; `ANY_NUMBER` is a consumer's wildcard, not a meaning a value can have."""

NUMERIC = frozenset({"money", "duration", "timestamp", "count", "score", "ratio", "size", "reading"})
"""Meanings whose values are numbers: those a consumer of `ANY_NUMBER` takes. A timestamp is numeric but
is no measurement of anything: it is left out of `MEASURED`."""

MEASURED = NUMERIC - {"timestamp"}

ANY_NUMBER = "number"
ANY_UNIT = "any"

SCALES: dict[str, dict[str, int]] = {
    "duration": {"milliseconds": 1, "seconds": 1_000, "minutes": 60_000, "hours": 3_600_000, "days": 86_400_000},
    "money": {"cents": 1, "currency_units": 100},
    "timestamp": {"milliseconds": 1, "seconds": 1_000, "minutes": 60_000, "hours": 3_600_000, "days": 86_400_000},
}
"""Units of one meaning that convert by a fixed factor (in the smallest unit): a retry's delay in seconds is
a latency in milliseconds once multiplied by 1000, a wage in currency units is cents once multiplied by 100.
Days are calendar days here; a unit absent from its meaning's scale (ticks, working days) converts to
nothing."""


EVENT = "event"
"""The unit of a text that reports something that happened ("deal Acme moved to stage qualified"): what a log
or a message bus takes, whatever operation it comes from."""

CONTEXT_ROLES: dict[str, str] = {
    "who": "who acted: an audit entry's actor, the approver of a request, a booking's organiser",
    "topic": "what an event is about, for the subscribers of a message bus: 'deals.moved'",
    "when": "when it happened, read from the producer's own clock (an audit entry's timestamp): given only "
            "where both ends state the clock's unit and the units convert",
}
"""What a consumer may need beside the value, which the producing operation can give (`Accepts.context`,
`Produces.context`): with every other parameter given, the link lives inside the operation."""


def known_meaning(meaning: str, *, consumer: bool) -> bool:
    """Whether `meaning` is in the vocabulary (a consumer may also say `number`)."""
    return meaning in MEANINGS or (consumer and meaning == ANY_NUMBER)


def joins(produced: Produces, accepted: Accepts) -> bool:
    """Whether the produced value means what the consumer takes: the same meaning (any measured one for a
    `number` consumer) in the same unit (any unit for an `any` consumer), or in a unit it converts to; and,
    for a consumer that names the kinds it takes, of one of those kinds."""
    if accepted.kinds and produced.kind not in accepted.kinds:
        return False
    if accepted.meaning == ANY_NUMBER:
        return produced.meaning in MEASURED
    return produced.meaning == accepted.meaning and (accepted.unit == ANY_UNIT or factor(produced, accepted) is not None)


def factor(produced: Produces, accepted: Accepts) -> Fraction | None:
    """What the produced value is multiplied by to be in the consumer's unit: 1 for the same unit (or a
    consumer of any), the ratio of the scale for convertible units, None when the units do not convert."""
    if accepted.unit in (ANY_UNIT, produced.unit) or accepted.meaning == ANY_NUMBER:
        return Fraction(1)
    scale = SCALES.get(produced.meaning, {})
    if produced.meaning != accepted.meaning or produced.unit not in scale or accepted.unit not in scale:
        return None
    ratio = Fraction(scale[produced.unit], scale[accepted.unit])
    # a value converted across more than three orders of magnitude (seconds to days) is not the same sort of
    # quantity any more: a retry's wait is no length of a project task
    return ratio if Fraction(1, MAX_FACTOR) <= ratio <= MAX_FACTOR else None


MAX_FACTOR = 1000


def clock_factor(given: str, taken: str) -> Fraction | None:
    """What a time read from a producer's clock in unit `given` is multiplied by to be a timestamp in unit
    `taken` (a queue's minute 3 is second 180), None when either unit is not a unit of time. Unlike a value,
    a time converts across any number of orders of magnitude: minute 3 and second 180 are the same moment."""
    scale = SCALES["timestamp"]
    if given not in scale or taken not in scale:
        return None
    return Fraction(scale[given], scale[taken])
