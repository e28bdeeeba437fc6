"""One thread at a time in the Python parser, and a record that hits an interpreter fault is retried once.

CPython 3.11 keeps the AST constructor's recursion-depth bookkeeping in interpreter-wide state, so two
threads calling `ast.parse` at the same moment can corrupt it and one of them fails with
`SystemError: AST constructor recursion depth mismatch (before=24, after=19)` (python/cpython issue 106905,
fixed in later releases). The gate, the synthesis jobs and the judges parse candidates in thread pools, and
a build once died of it.

`install()` replaces `ast.parse` (which `ast.literal_eval` and the rest of the standard library call) and
libcst's parse functions with versions that hold one process-wide lock. Parsing is CPU-bound under the GIL
in any case, so serialising it costs no real parallelism; the threads' time goes to sandbox runs.
Code that compiles with `PyCF_ONLY_AST` directly is not covered; `is_interpreter_fault` lets the caller
retry a record once when such an error still gets through.
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
