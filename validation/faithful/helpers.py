"""What a variant's source carries besides the class: the helpers its rewritten returns call, and the rule
for which floats are computed values (shared with the test synthesis, which compares those approximately).

The helpers are text appended to the variant's module, not functions of this package: the variant runs in the
sandbox, where this package is not importable.
"""

from __future__ import annotations

SHORT_FLOAT_DIGITS = 12
"""A float whose shortest repr has more significant digits than this is a computed value whose last digit
depends on how it was computed (0.025400000000000002, 8.711754349385727); one with at most this many is a
short decimal that any sensible computation lands on exactly (2.5, 0.1, 33.25). Tests compare the former
with `pytest.approx` (pipeline/synthesis/testgen.py) and the float_ulp variant moves only those."""


def significant_digits(value: float) -> int:
    """Significant digits of the shortest repr of a finite float (3.0 -> 1, 0.0254 -> 3)."""
    mantissa = repr(abs(value)).split("e")[0].replace(".", "").strip("0")
    return len(mantissa)


def is_computed_float(value: object) -> bool:
    """A finite float with more digits than a short decimal (see SHORT_FLOAT_DIGITS)."""
    return (type(value) is float and value == value and value not in (float("inf"), float("-inf"))
            and significant_digits(value) > SHORT_FLOAT_DIGITS)


HELPERS = '''

def _faithful_ulp(value, _stated=frozenset()):
    """A faithful variant's helper: move computed floats (nested in lists, tuples, dicts) by one ulp."""
    import math
    if type(value) is float:
        if math.isfinite(value) and value not in _stated and len(repr(abs(value)).split("e")[0].replace(".", "").strip("0")) > %(digits)d:
            return math.nextafter(value, math.inf)
        return value
    if type(value) is list:
        return [_faithful_ulp(v, _stated) for v in value]
    if type(value) is tuple:
        return tuple(_faithful_ulp(v, _stated) for v in value)
    if type(value) is dict:
        return {k: _faithful_ulp(v, _stated) for k, v in value.items()}
    return value


def _faithful_reorder(value, reverse_sequences=False):
    """A faithful variant's helper: a returned dict in reversed key order, a set-derived sequence reversed."""
    if type(value) is dict:
        return dict(reversed(list(value.items())))
    if reverse_sequences and type(value) in (list, tuple):
        return type(value)(reversed(value))
    return value
''' % {"digits": SHORT_FLOAT_DIGITS}


def with_helpers(code: str) -> str:
    """The variant's source with the helpers appended: both kinds that wrap returns append the same text, so
    a variant's module never depends on which kinds ran before it."""
    return code.rstrip("\n") + "\n" + HELPERS
