"""One thread at a time in the Python parser, and a record that hits an interpreter fault is retried once.

CPython 3.11 keeps the AST constructor's recursion-depth bookkeeping in interpreter-wide state, so two
threads calling `ast.parse` at the same moment can corrupt it and one of them fails with
`SystemError: AST constructor recursion depth mismatch (before=24, after=19)` (python/cpython issue 106905,
fixed in later releases). The gate, the synthesis jobs and the judges parse candidates in thread pools, and
a build once died of it.

`install()` replaces `ast.parse` (which `ast.literal_eval`, the standard library's traceback formatting
and the rest of the standard library call) and libcst's parse functions with versions that hold one
process-wide lock. Parsing is CPU-bound under the GIL in any case, so serialising it costs no real
parallelism; the threads' time goes to sandbox runs. The console entry point and the build flow install it
before anything parses: installing it only when a stage's threads start left the first stage's parses on
the flow's thread unguarded, and a build on CI died of that.

Code that compiles with `PyCF_ONLY_AST` directly (griffe, which Prefect uses for docstrings) cannot be
covered, and a parse of ours that overlaps with one of those can still see the fault. The fault is
transient (the interpreter resets its bookkeeping at the start of every parse), so the wrapped `ast.parse`
retries it once; `is_interpreter_fault` lets the caller retry a whole record once when one gets through
elsewhere.
"""

from __future__ import annotations

import ast
import functools
import threading
from collections.abc import Callable
from typing import Any

_LOCK = threading.RLock()
_INSTALLED = False
_LIBCST_PARSERS = ("parse_module", "parse_expression", "parse_statement")


def _locked(parse: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(parse)
    def parse_one_at_a_time(*args: Any, **kwargs: Any) -> Any:
        with _LOCK:
            try:
                return parse(*args, **kwargs)
            except SystemError as exc:  # an unguarded parse in another thread overlapped with this one
                if not is_interpreter_fault(exc):
                    raise
                return parse(*args, **kwargs)

    parse_one_at_a_time.__wrapped_by_parse_lock__ = True  # type: ignore[attr-defined]
    return parse_one_at_a_time


def install() -> None:
    """Serialise `ast.parse` and libcst's parse functions for the whole process (idempotent)."""
    global _INSTALLED
    with _LOCK:
        if _INSTALLED:
            return
        ast.parse = _locked(ast.parse)
        import libcst

        for name in _LIBCST_PARSERS:
            setattr(libcst, name, _locked(getattr(libcst, name)))
        _INSTALLED = True


def is_interpreter_fault(exc: BaseException) -> bool:
    """The parser's shared-state failure: worth one retry of the same record, not a verdict on it."""
    return isinstance(exc, SystemError) and "AST constructor recursion depth" in str(exc)
