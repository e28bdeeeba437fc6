"""Tamper-evident grading: the code under test must not be able to make a failing test look like a pass.

A run's tests and the code they test share one process with the harness that reports outcomes, so the code
under test can reach the grading machinery: rebind `unittest.TestCase.assertEqual`, replace pytest's runner
or report functions, rebind `AssertionError` or `pytest.raises`, edit the test file, or set a function's
`__code__`. This module notices those routes and names them (`tampering`); the run then grades as a
failure whatever its tests reported. Three layers, all set up before the first line of the code under test
runs (collection imports it):

1. A snapshot of the grading machinery, taken once by the warm worker before it forks any run: every
   function, class and descriptor in the modules that decide an outcome (builtins, unittest, pytest and its
   internals, pluggy, os/sys exit and write, json, this sandbox's own modules) and in the classes they
   define, plus `sys.modules` entries for those modules. `Guard.check` compares identities after
   collection, after every test and at the end of the session: a rebinding that is still in place is named.
2. Canaries after every test: `unittest` assertions that must fail, and `pytest.raises` around nothing,
   must still raise the original `AssertionError` / pytest's failure; a disarmed assertion is named even
   when it was disarmed by a route the snapshot does not list.
3. An audit hook (PEP 578; once added it cannot be removed from Python code) that refuses and names: writes,
   renames or removals of the harness's own files (the tests, `pytest.ini`, the run's output), `gc`
   introspection (the way to find and edit the harness's objects), `__code__` assignment (the way to hollow
   out a test function), adding another audit hook, `ctypes` (raw memory access) and `exec` of another
   program (which would run on without the harness's checks).

Each finding is sent at once on the result channel; the worker (outside the tested process) also checks the
test files' hashes after the run and refuses messages without the run's nonce (see `worker.py`).

What this does not claim: code that walks the interpreter's frames to the harness's own locals could still
forge messages; frame access is not refusable without breaking ordinary code (`logging`, `namedtuple` use
it). The layers above make the known disarming routes fail loudly instead of silently.

Standard library only: it is imported by the sandbox worker.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

# Modules whose functions and classes decide or report a test's outcome (a prefix ending in "." covers a
# package's submodules). The harness's own uses of os, json and os.path are bound before the code under test
# runs (see `child.make_sender`, `_make_hook`), so those modules need no watching and tests may patch them.
PROTECTED_PREFIXES = ("builtins", "unittest", "unittest.", "pytest", "_pytest.runner", "_pytest.python",
                      "_pytest.python_api", "_pytest.raises", "_pytest.unittest", "_pytest.reports",
                      "_pytest.outcomes", "_pytest.main", "_pytest.nodes", "_pytest.fixtures", "_pytest.skipping",
                      "_pytest.recwarn", "_pytest.warnings", "_pytest.assertion", "_pytest.assertion.", "_pytest._code.", "pluggy",
                      "pluggy.", "validation.sandbox.")
# Entries that pytest itself rebinds while it runs (state, not machinery): (module or class, name).
VOLATILE = {
    # Tests patch these for a whole class or module (input to feed prompts, print and open to capture);
    # none of them decides an outcome.
    ("builtins", "input"),
    ("builtins", "print"),
    ("builtins", "open"),
    ("_pytest.assertion.util", "_reprcompare"),
    ("_pytest.assertion.util", "_assertion_pass"),
    ("_pytest.assertion.util", "_config"),
}
_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: built-in types, whose attributes cannot be set
# Audit events that only tampering needs; each is refused.
REFUSED_EVENTS = {
    "gc.get_objects": "inspected the interpreter's objects (gc.get_objects)",
    "gc.get_referrers": "inspected the interpreter's objects (gc.get_referrers)",
    "gc.get_referents": "inspected the interpreter's objects (gc.get_referents)",
    "sys.addaudithook": "added an audit hook",
    "os.exec": "replaced the test process with another program (os.exec*)",
    "ctypes.dlopen": "loaded a native library through ctypes",
    "ctypes.dlsym": "looked up a native symbol through ctypes",
    "ctypes.cdata": "read raw memory through ctypes",
    "ctypes.string_at": "read raw memory through ctypes",
}
# Class attributes that are data but change what an assertion does.
CLASS_SETTINGS = ("failureException", "longMessage", "maxDiff")
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_MACHINERY = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type, staticmethod, classmethod,
              property, types.MethodDescriptorType, types.WrapperDescriptorType, types.ModuleType)


class TamperingDetected(PermissionError):
    """Raised (by the audit hook) into the code that tried to tamper. A PermissionError so that code which
    handles refused file writes sees the refusal it expects; the finding is reported either way."""


def _protected(name: str) -> bool:
    return any(name == p or (p.endswith(".") and name.startswith(p)) for p in PROTECTED_PREFIXES)


def _is_machinery(value: Any) -> bool:
    return isinstance(value, _MACHINERY)


class Snapshot:
    """Identities of the grading machinery at one moment (taken before any untrusted code is imported)."""

    def __init__(self, modules: dict[str, types.ModuleType], entries: list[tuple[str, Any, str, Any]],
                 closed: tuple[tuple[str, Any, frozenset[str]], ...] = ()) -> None:
        self.modules = modules
        self.entries = entries  # (label, the owner's live namespace, attribute, object)
        self.closed = closed  # (label, live namespace, its names): classes that must gain no method

    @classmethod
    def take(cls, extra: Iterable[Any] = ()) -> "Snapshot":
        """Record every machinery entry of the protected modules and of the classes they define; `extra`
        adds more classes (e.g. the test module's TestCase subclasses, after collection)."""
        modules = {name: mod for name, mod in list(sys.modules.items())
                   if isinstance(mod, types.ModuleType) and _protected(name)}
        entries: list[tuple[str, Any, str, Any]] = []
        seen: set[int] = set()
        classes: list[type] = []
        for name, mod in modules.items():
            for attr, value in list(vars(mod).items()):
                if (name, attr) in VOLATILE or not _is_machinery(value):
                    continue
                entries.append((name, vars(mod), attr, value))
                if isinstance(value, type) and getattr(value, "__module__", None) == name and id(value) not in seen:
                    seen.add(id(value))
                    classes.append(value)
        for extra_class in extra:
            if isinstance(extra_class, type) and id(extra_class) not in seen:
                seen.add(id(extra_class))
                classes.append(extra_class)
        entries.extend(_class_entries(classes))
        return cls(modules, entries)

    def changes(self) -> list[str]:
        """What differs now from the snapshot: rebound, removed or replaced entries and modules."""
        found: list[str] = []
        missing = object()
        for name, mod in self.modules.items():
            if sys.modules.get(name, mod) is not mod:
                found.append(f"sys.modules[{name!r}] replaced")
        for label, namespace, attr, value in self.entries:
            current = namespace.get(attr, missing)
            if current is not value:
                found.append(f"{label}.{attr} {'removed' if current is missing else 'rebound'}")
        for label, namespace, names in self.closed:
            found.extend(f"{label}.{attr} added" for attr in sorted(namespace.keys() - names)
                         if _is_machinery(namespace[attr]) or attr in CLASS_SETTINGS)
        return found

    def extended(self, classes: Iterable[Any]) -> "Snapshot":
        """This snapshot plus the given classes' own entries (as they are now), and the classes closed: a name
        added to a test class (an `assertEqual` of its own) would shadow the inherited one unnoticed."""
        mutable = [c for c in classes if isinstance(c, type) and not c.__flags__ & _IMMUTABLE_TYPE
                   and c.__module__ != "builtins"]
        closed = tuple((f"{c.__module__}.{c.__qualname__}", vars(c), frozenset(vars(c))) for c in mutable)
        return Snapshot(self.modules, self.entries + _class_entries(mutable), self.closed + closed)


def _class_entries(classes: Iterable[type]) -> list[tuple[str, Any, str, Any]]:
    entries = []
    for klass in classes:
        if klass.__flags__ & _IMMUTABLE_TYPE:
            continue
        label = f"{klass.__module__}.{klass.__qualname__}"
        namespace = vars(klass)
        for attr, value in list(namespace.items()):
            if (label, attr) not in VOLATILE and (_is_machinery(value) or attr in CLASS_SETTINGS):
                entries.append((label, namespace, attr, value))
    return entries


def _canaries(assertion_error: type, test_case: type, raises: Callable[..., Any],
              fail_exception: type) -> list[str]:
    """Assertions that must fail; each one that does not is a disarmed assertion."""
    found: list[str] = []
    probe = test_case()
    checks: tuple[tuple[str, Callable[[], Any]], ...] = (
        ("assertEqual", lambda: probe.assertEqual(1, 2)),
        ("assertTrue", lambda: probe.assertTrue(False)),
        ("assertIn", lambda: probe.assertIn(1, ())),
        ("assertRaises", lambda: _enter(probe.assertRaises(ValueError))),
        ("fail", lambda: probe.fail("canary")),
    )
    for name, call in checks:
        try:
            call()
        except assertion_error:
            continue
        except BaseException as exc:  # noqa: BLE001 - anything else means the machinery was changed
            found.append(f"unittest {name} raised {type(exc).__name__} instead of AssertionError")
            continue
        found.append(f"unittest {name} no longer fails")
    try:
        _enter(raises(ValueError))
    except fail_exception:
        pass
    except BaseException as exc:  # noqa: BLE001
        found.append(f"pytest.raises raised {type(exc).__name__} instead of failing the test")
    else:
        found.append("pytest.raises no longer fails when nothing is raised")
    return found


def _enter(context: Any) -> None:
    with context:
        pass


class Guard:
    """The tampering checks of one run. `report(what)` sends a finding on the result channel at once.

    Everything a check calls is bound when the guard is made, before the code under test exists: rebinding
    `Guard.check`, `Snapshot.changes` or this module's functions afterwards changes nothing here (and is
    itself a snapshot difference)."""

    def __init__(self, snapshot: Snapshot, report: Callable[[str], None], protected_paths: Iterable[str],
                 native_code_dirs: Iterable[str] = ()) -> None:
        import pytest
        import unittest

        self.snapshot = snapshot
        self.report = report
        import _pytest
        import pluggy

        self.realpath = os.path.realpath
        self.protected = frozenset(self.realpath(p) for p in protected_paths)
        # Code of these folders (and of the protected files) must keep its code objects: `types.coroutine`
        # legitimately swaps the `__code__` of asyncio's own functions, a hollowed-out test or assertion
        # is tampering.
        self.code_folders = tuple(self.realpath(os.path.dirname(m.__file__)) + os.sep
                                  for m in (unittest, _pytest, pluggy, sys.modules[__name__]))
        self.findings: list[str] = []
        self._reported: set[str] = set()
        # Where ctypes may be used from (installed packages such as numpy), both as given and resolved; and
        # the folders a ctypes call passes through on its way (ctypes itself, this module).
        self.native_code_dirs = tuple({d.rstrip(os.sep) + os.sep for p in native_code_dirs
                                       for d in (p, self.realpath(p))})
        import ctypes

        self.passing_through = tuple(self.realpath(os.path.dirname(m.__file__)) + os.sep
                                     for m in (ctypes,)) + (self.realpath(__file__),)
        self._changes = Snapshot.changes
        self._extended = Snapshot.extended
        self._canaries = _canaries
        self._canary_args = (AssertionError, unittest.TestCase, pytest.raises, pytest.fail.Exception)

    def flag(self, what: str) -> None:
        if what not in self._reported:
            self._reported.add(what)
            self.findings.append(what)
            self.report(what)

    def watch_classes(self, classes: Iterable[Any]) -> None:
        """Add the test module's own classes and their bases (assert methods and tests) once collected."""
        every = {k for c in classes if isinstance(c, type) for k in c.__mro__ if not _protected(k.__module__)}
        self.snapshot = self._extended(self.snapshot, every)

    def check(self, when: str) -> list[str]:
        found = self._changes(self.snapshot) + self._canaries(*self._canary_args)
        for what in found:
            self.flag(f"{what} ({when})")
        return found

    def install_audit_hook(self) -> None:
        sys.addaudithook(_make_hook(self))

    def native_caller(self) -> bool:
        """Whether the code that called into ctypes lies in an installed package allowed to (see
        `native_code_dirs`): the first frame outside ctypes and this module decides."""
        if not self.native_code_dirs:
            return False
        frame = sys._getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            if not name.startswith(self.passing_through) and name != self.passing_through[-1]:
                return name.startswith(self.native_code_dirs)
            frame = frame.f_back
        return False

    def protected_path(self, path: Any) -> bool:
        if isinstance(path, int) or not isinstance(path, (str, bytes, os.PathLike)):
            return False
        try:
            real = self.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return False
        return real in self.protected or (real.startswith("/proc/") and real.endswith("/mem"))

    def protected_code(self, function: Any) -> bool:
        """Whether `function` belongs to the tests or the grading machinery (its code must not be swapped)."""
        filename = getattr(getattr(function, "__code__", None), "co_filename", "")
        if not isinstance(filename, str) or not filename:
            return False
        real = self.realpath(filename)
        return real in self.protected or real.startswith(self.code_folders)


_WARM: list[Snapshot] = []


def prepare() -> None:
    """Take the snapshot once in the warm worker, before it forks any run (a run then pays nothing)."""
    _WARM[:] = [Snapshot.take()]


def warm_snapshot() -> Snapshot:
    """The worker's snapshot, handed out once per run process (the module keeps no reference afterwards, so
    the code under test cannot reach it through this module), or a fresh one outside a warm worker."""
    return _WARM.pop() if _WARM else Snapshot.take()


def _make_hook(guard: Guard) -> Callable[[str, tuple[Any, ...]], None]:
    flag, protected, protected_code = guard.flag, guard.protected_path, guard.protected_code
    refused = dict(REFUSED_EVENTS)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        what = None
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS)
            if writes and protected(path):
                what = f"opened the harness's file {os.fsdecode(path)} for writing"
        elif event in ("os.remove", "os.rmdir", "os.truncate", "os.chmod", "os.chown", "os.utime"):
            if args and protected(args[0]):
                what = f"{event} on the harness's file {os.fsdecode(args[0])}"
        elif event in ("os.rename", "os.link", "os.symlink"):
            if any(protected(a) for a in args[:2] if isinstance(a, (str, bytes, os.PathLike))):
                what = f"{event} over the harness's files"
        elif event == "object.__setattr__" and len(args) >= 2 and args[1] == "__code__" and protected_code(args[0]):
            what = f"replaced the code of {getattr(args[0], '__qualname__', args[0])!s:.80}"
        elif event in refused and not (event.startswith("ctypes.") and guard.native_caller()):
            what = refused[event]
        if what is not None:
            flag(what)
            raise TamperingDetected(f"refused by the grading sandbox: {what}")

    return hook
