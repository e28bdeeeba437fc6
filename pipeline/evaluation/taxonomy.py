"""Why a completion failed, automatically, from static checks and the sandbox's per-test exceptions.

The paper's hand-annotated taxonomy has logic errors and cross-method dependency errors as the two large
classes; the rest are the ways code fails before its logic is even tried. One failing test gets one class;
a completion's class is the most fundamental of its tests' classes (`PRIORITY`): a completion that does
not parse has no logic error worth counting.

Dependency errors, as measured here: the exception was raised inside the class's own code while two or more
of its methods were on the stack (a call chain between methods), or a method read an instance attribute
that the reference sets (so some other method was meant to set it first) and found it missing.

Environment differences are failures no implementation could avoid in this sandbox: a module the sandbox
does not have (numpy without `--sandbox-python`), a suite that expects its author's clock, host name or an
ordinary user's privileges. A missing module is read from the error; the rest are shown by rerunning the
failing tests where those differ (pipeline/evaluation/environment.py). They come last in `PRIORITY`: a
completion is an environment failure only when nothing else failed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from validation.sandbox import RunResult, TestResult


class FailureClass(str, Enum):
    """One class of failure. `bad_answer`: the model's answer held no code to run."""

    BAD_ANSWER = "bad_answer"
    TAMPERING = "tampering"
    SYNTAX = "syntax"
    IMPORT = "import"
    MISSING = "missing"  # a method or attribute of the class is missing
    TIMEOUT = "timeout"
    RESOURCE = "resource"
    DEPENDENCY = "dependency"
    RUNTIME = "runtime"  # an exception raised inside one method (not an assertion, not a chain)
    LOGIC = "logic"  # the code ran and returned the wrong thing: an assertion failed
    ENVIRONMENT = "environment"  # failed because of where it ran (a missing module, the clock, host, user)


PRIORITY = tuple(FailureClass)
# "'Ledger' object has no attribute 'x'" / "type object 'Ledger' has no attribute 'x'"
_NO_ATTRIBUTE = re.compile(r"(?:'(\w+)' object|type object '(\w+)') has no attribute '(\w+)'")
_IMPORT_TYPES = ("ImportError", "ModuleNotFoundError")
_NO_MODULE = re.compile(r"No module named '([\w.]+)'")
_RESOURCE_MARKERS = ("MemoryError", "RecursionError", "File too large", "Too many open files",
                     "Cannot allocate memory", "Resource temporarily unavailable")


def _is_stub(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A body that implements nothing: a docstring, `pass`, `...` or `raise NotImplementedError`."""
    for statement in function.body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # the docstring, or `...`
        if isinstance(statement, ast.Raise) and statement.exc is not None \
                and "NotImplementedError" in ast.unparse(statement.exc):
            continue
        return False
    return True


def _class_node(code: str, class_name: str) -> ast.ClassDef | None:
    return next((n for n in ast.parse(code).body if isinstance(n, ast.ClassDef) and n.name == class_name), None)


def static_failure(completion: str, class_name: str, methods: Iterable[str],
                   reference: str | None = None) -> tuple[FailureClass, str] | None:
    """A failure visible without running: the completion does not parse, lacks the class or a method, or
    leaves a method a stub that the `reference` implements (the skeleton baseline, a model that gave up on
    a method: its failing tests are a missing method, not wrong logic)."""
    try:
        cls = _class_node(completion, class_name)
    except (SyntaxError, ValueError) as exc:
        return FailureClass.SYNTAX, f"line {getattr(exc, 'lineno', '?')}: {getattr(exc, 'msg', exc)}"
    if cls is None:
        return FailureClass.MISSING, f"no class {class_name}"
    functions = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    defined = set(functions) | {t.id for n in cls.body if isinstance(n, ast.Assign) for t in n.targets
                                if isinstance(t, ast.Name)}
    absent = [m for m in methods if m not in defined]
    if absent:
        return FailureClass.MISSING, f"methods missing: {', '.join(absent)}"
    try:
        implemented = _class_node(reference, class_name) if reference else None
    except (SyntaxError, ValueError):
        implemented = None
    if implemented is not None:
        real = {n.name for n in implemented.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and not _is_stub(n)}
        stubs = [m for m in methods if m in functions and m in real and _is_stub(functions[m])]
        if stubs:
            return FailureClass.MISSING, f"methods not implemented: {', '.join(stubs)}"
    return None


@dataclass(frozen=True)
class ClassShape:
    """What the taxonomy knows of the task's class: its name, the completion's file in the run folder, and
    the reference's methods and instance fields (from the gate's static analysis)."""

    class_name: str
    module_file: str
    methods: frozenset[str]
    fields: frozenset[str]


def missing_module(reason: str, shape: ClassShape) -> str | None:
    """The module the sandbox lacks, from a ModuleNotFoundError's message; None when the message names none
    or names the completion's own module (its file is there: the error is the code's, not the machine's)."""
    found = _NO_MODULE.search(reason)
    if found is None:
        return None
    top = found.group(1).split(".")[0]
    return None if top == shape.module_file.removesuffix(".py") else top


def classify_test(test: TestResult, shape: ClassShape) -> FailureClass:
    """The class of one test that did not pass."""
    module_file, methods, fields = shape.module_file, shape.methods, shape.fields
    reason = test.reason or ""
    raised = test.raised or {}
    kind = str(raised.get("type") or reason.split(":", 1)[0].strip())
    if test.outcome == "timeout":
        return FailureClass.TIMEOUT
    if test.outcome == "killed":
        return FailureClass.RESOURCE
    if kind == "SystemExit" or reason.startswith("SystemExit"):
        return FailureClass.TAMPERING  # the class ended the test process's session itself
    if kind in _IMPORT_TYPES:
        return FailureClass.ENVIRONMENT if missing_module(reason, shape) else FailureClass.IMPORT
    if any(marker in reason or marker == kind for marker in _RESOURCE_MARKERS):
        return FailureClass.RESOURCE
    if kind == "NotImplementedError":
        return FailureClass.MISSING
    own = [function for file, function in raised.get("frames") or [] if file == module_file]
    chain = [f for f in own if f in methods]
    raised_inside = bool(raised.get("frames")) and raised["frames"][-1][0] == module_file
    found = _NO_ATTRIBUTE.search(reason) if kind == "AttributeError" else None
    # Only an attribute missing on the class itself says something about the class (not `None.x`).
    missing = found.group(3) if found and shape.class_name in (found.group(1), found.group(2)) else None
    if missing in fields - methods and raised_inside:
        return FailureClass.DEPENDENCY  # read state that another method was meant to set first
    if missing in methods:
        return FailureClass.MISSING
    if raised_inside and len(set(chain)) >= 2:
        return FailureClass.DEPENDENCY
    if kind == "AssertionError" or reason.startswith(("assert", "AssertionError")):
        return FailureClass.LOGIC
    if missing:
        return FailureClass.MISSING
    return FailureClass.RUNTIME if raised_inside else FailureClass.LOGIC


def run_failure(run: RunResult, shape: ClassShape,
                environment: dict[str, str] | None = None) -> tuple[FailureClass, str] | None:
    """The most fundamental failure of a run, with one line of evidence; None when every test passed.
    `environment`: test id -> the environment difference it failed by (see environment.py)."""
    environment = environment or {}
    if run.tampering:
        return FailureClass.TAMPERING, run.tampering[0]
    if run.status == "killed" and run.signal is None and run.exit_code is not None:
        return FailureClass.TAMPERING, "; ".join(run.notes)[:300]
    if run.status == "timeout":
        return FailureClass.TIMEOUT, "; ".join(run.notes)[:300]
    if run.status in ("killed", "worker_died"):
        return FailureClass.RESOURCE, "; ".join(run.notes)[:300]
    if run.status == "error":
        return FailureClass.RESOURCE, "the sandbox could not run the completion: " + "; ".join(run.notes)[:250]
    found: list[tuple[FailureClass, str]] = []
    for error in run.collection_errors:
        kind = error.reason.split(":", 1)[0].strip()
        if kind in ("SyntaxError", "IndentationError", "TabError"):
            found.append((FailureClass.SYNTAX, error.reason))
        elif (module := missing_module(error.reason, shape)) is not None:
            found.append((FailureClass.ENVIRONMENT, f"missing module {module}: {error.reason}"))
        elif kind in _IMPORT_TYPES or "ImportError" in error.reason:
            found.append((FailureClass.IMPORT, error.reason))
        else:
            found.append((FailureClass.IMPORT, f"the tests could not import the completion: {error.reason}"))
    for test in run.tests:
        if test.test_id in environment:
            found.append((FailureClass.ENVIRONMENT, f"{test.test_id}: {environment[test.test_id]}: {test.reason}"))
        elif test.outcome != "passed":
            found.append((classify_test(test, shape),
                          f"{test.test_id}: {test.reason}"))
    if not found and not run.collected:
        return FailureClass.IMPORT, "no test was collected"
    if not found and any(t not in {r.test_id for r in run.tests} for t in run.collected):
        return FailureClass.RESOURCE, "the run ended before every test reported"
    if not found:
        return None
    return min(found, key=lambda item: PRIORITY.index(item[0]))


def test_classes(run: RunResult, shape: ClassShape, environment: dict[str, str] | None = None) -> dict[str, str]:
    """Failure class of every test that did not pass (for the per-completion record)."""
    environment = environment or {}
    return {t.test_id: FailureClass.ENVIRONMENT.value if t.test_id in environment else classify_test(t, shape).value
            for t in run.tests if t.outcome != "passed"}
