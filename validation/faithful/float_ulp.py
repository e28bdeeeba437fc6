"""``float_ulp``: float results of public methods moved by one ulp when they carry more digits than a short
decimal (a computed value, not 2.5 or 0.1), unless the skeleton writes that value.

The last digit of a computed float depends on the order of the operations that made it, which no skeleton
states; a test comparing it exactly fails a solver who adds in another order."""

from __future__ import annotations

import re

from validation.faithful.helpers import with_helpers
from validation.faithful.rewriter import WrapReturns, rewrite
from validation.faithful.variant import Rewrite, Subject

_FLOAT_LITERAL = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?")


def variant(subject: Subject) -> Rewrite | None:
    source, class_name = subject.source, subject.class_name
    stated = sorted({float(x) for x in _FLOAT_LITERAL.findall(subject.statements.text)})
    extra = [f"frozenset({stated!r})"] if stated else []
    code, sites = rewrite(source, WrapReturns(class_name, "_faithful_ulp", lambda method, node: extra))
    if not sites:
        return None
    return Rewrite(with_helpers(code), tuple(sites),
                   f"computed float results of {len(sites)} return(s) moved by one ulp")
