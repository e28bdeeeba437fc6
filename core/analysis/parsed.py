"""One parse of a class module, shared by every analysis that reads the same source in one process.

The gate reads a candidate's solution four times (static interaction edges, the vacuous-test skeleton and
the constructor-only skeleton, mutant generation), release reads it again for ClassEval's per-method
columns, and synthesis reads each intermediate class for its class model. Each used to parse the source
itself. `parsed(source)` returns the same `ParsedSource` for the same text while it is recently used, and
that object parses lazily, once per parser:

- ``tree``: the standard library's `ast` (about 7x faster than libcst on the seeds), for facts that need
  no source positions or rewriting (reads, writes, calls, method kinds);
- ``module``: the libcst module, for what needs the text as written or rewrites it (skeletons, mutants,
  signatures and method source in release rows).

Both trees are shared between callers and must not be modified: libcst nodes are immutable; an `ast`
tree is not, so callers only read it. The cache is keyed by the full text, so a changed source is a new
entry, never a stale tree.
"""

from __future__ import annotations

import ast
import threading
from collections import OrderedDict
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # libcst is imported on first use of `module`: fact-only callers never load it
    import libcst as cst

RECENT_SOURCES = 16
"""How many sources stay parsed: enough for the gate's concurrent candidates (each read by up to five
consumers in a row), few enough that the trees do not pile up (each tree of an 11,000-character seed
holds about 0.3 MB)."""


class ClassNotFound(ValueError, LookupError):
    """The module has no top-level class of the requested name."""


def class_not_found(class_name: str, found: list[str]) -> ClassNotFound:
    """The error for a missing class, naming the top-level classes there are (same words for both trees)."""
    return ClassNotFound(f"no top-level class {class_name!r} (found: {', '.join(found) or 'none'})")


def find_class_node(tree: ast.Module, class_name: str) -> ast.ClassDef:
    """The top-level class `class_name` of `tree`; ClassNotFound names the classes there are instead."""
    names = []
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            if stmt.name == class_name:
                return stmt
            names.append(stmt.name)
    raise class_not_found(class_name, names)


class ParsedSource:
    """A module's source and, on first use, its `ast` tree and its libcst module (each parsed once)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._lock = threading.Lock()

    @cached_property
    def tree(self) -> ast.Module:
        """The `ast` tree (raises SyntaxError). Read it; never modify it (it is shared)."""
        with self._lock:
            return ast.parse(self.source)

    @cached_property
    def module(self) -> cst.Module:
        """The libcst module (raises libcst.ParserSyntaxError). Fresh from the parser, so it has no
        duplicate nodes: `MetadataWrapper(module, unsafe_skip_copy=True)` is safe on it."""
        import libcst

        with self._lock:
            return libcst.parse_module(self.source)


_RECENT: OrderedDict[str, ParsedSource] = OrderedDict()
_RECENT_LOCK = threading.Lock()


def parsed(source: str) -> ParsedSource:
    """The shared `ParsedSource` of `source` (a new one when the text was not seen recently)."""
    with _RECENT_LOCK:
        found = _RECENT.get(source)
        if found is not None:
            _RECENT.move_to_end(source)
            return found
        found = ParsedSource(source)
        _RECENT[source] = found
        while len(_RECENT) > RECENT_SOURCES:
            _RECENT.popitem(last=False)
        return found
