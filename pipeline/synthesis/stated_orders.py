"""Tests that compare a returned list in an order only when the skeleton states that order, for mined classes.

The oracle writes what the reference returned as the expected value, `assert ledger.entries() == ["b", "a"]`;
when the method's docstring never says in what order it lists its items (insertion, sorted, newest first),
an implementation that returns the same items in another order is correct by the skeleton, and fails. The
consistency judge rejects such a test (by `core.analysis.statements.order_stated`, the rule used here and by
the gate's faithful variants too); in a corpus build it was the most common reason it rejected a mined
class. For a method whose order is unstated the test compares the sorted lists instead. Bundled seeds have
docstrings written with their tests and are left as they are; a task imported from a ClassEval-style corpus
was not (ClassEval's `get_supported_currencies` lists currencies in an order no docstring states), so the
enhanced and composed candidates of imported seeds compare the same way as mined ones.
"""

from __future__ import annotations

import ast

from core.analysis.interface import read_interface
from core.analysis.statements import interface_statements, order_stated


def unordered_methods(source: str, class_name: str) -> frozenset[str]:
    """Methods of `class_name` whose docstrings (and the class docstring) state no order of what they return;
    empty when the class cannot be read."""
    try:
        interface = read_interface(source, class_name)
    except (SyntaxError, LookupError, ValueError):
        return frozenset()
    statements = interface_statements(interface)
    return frozenset(name for name in interface.methods if not order_stated(statements, name))


def order_free_assertion(expr: str, literal: str) -> str | None:
    """`assert sorted(expr) == [...]` for a list literal of at least two distinct items (sorted by their
    repr when the items do not compare with each other), or None when `literal` is no such list."""
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(value, list) or len({repr(v) for v in value}) < 2:
        return None
    try:
        ordered, key = sorted(value), ""
    except TypeError:
        ordered, key = sorted(value, key=repr), ", key=repr"
    return f"assert sorted({expr}{key}) == {ordered!r}"
