"""The Python that runs sandboxed code: the project's own, or one a maintainer configures by path.

Why a setting: mined code needs newer Pythons every year (3.12's type parameter lists, 3.13's
`warnings.deprecated`), while the pipeline may run on an older one. A task is only as good as the
interpreter that checked it, so the interpreter is asked, never assumed: its version, prefixes and import
path come from running it (`probe`), and the warm worker it starts says its version again when ready
(the pool refuses a worker that disagrees).

What the worker needs from it: the standard library (its `sys.path` entries below `sys.base_prefix`),
and pytest and coverage. A configured interpreter that has both (a virtual environment with them
installed) uses its own; one that has not uses the project's (pure Python; coverage then traces without
its compiled tracer when the minor versions differ).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PROBE = r"""
import importlib.util, json, os, sys
def site_of(name):
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return None
    return os.path.dirname(os.path.dirname(os.path.realpath(spec.origin)))
sites = {site_of("pytest"), site_of("coverage")}
print(json.dumps({
    "version": list(sys.version_info[:3]), "implementation": sys.implementation.name,
    "executable": sys.executable, "prefix": sys.prefix, "base_prefix": sys.base_prefix,
    "path": [p for p in sys.path if p],
    "site_packages": sites.pop() if len(sites) == 1 and None not in sites else None,
    "installed": [p for p in sys.path if os.path.basename(p) in ("site-packages", "dist-packages")],
}))
"""
PROBE_SECONDS = 30.0


class InterpreterError(RuntimeError):
    """The configured interpreter could not be asked what it is (missing, not Python, failing)."""


@dataclass(frozen=True)
class Interpreter:
    """A Python as the sandbox starts it, with what it said about itself."""

    executable: str  # the path the worker is started as (a venv's python stays a venv's python)
    version: tuple[int, int, int]
    implementation: str
    prefix: str
    base_prefix: str
    stdlib_path: tuple[str, ...]  # its import path below base_prefix, site-packages left out
    site_packages: str | None  # where its own pytest and coverage live; None: it has not both
    configured: bool  # False: the project's own interpreter (the default)
    installed: tuple[str, ...] = ()  # its site-packages folders: what a pool with `packages=True` may import

    @property
    def minor(self) -> tuple[int, int]:
        return self.version[0], self.version[1]

    @property
    def label(self) -> str:
        """'CPython 3.11.7': what reports and the card say."""
        name = {"cpython": "CPython", "pypy": "PyPy"}.get(self.implementation, self.implementation)
        return f"{name} {'.'.join(map(str, self.version))}"

    def record(self) -> dict[str, str]:
        """The report's account of it (a gate report's `interpreter`)."""
        return {"executable": self.executable, "version": ".".join(map(str, self.version)),
                "implementation": self.implementation, "label": self.label,
                "configured": "yes" if self.configured else "no"}


def _stdlib(path: list[str], base_prefix: str) -> tuple[str, ...]:
    return tuple(p for p in path if p.startswith(base_prefix) and "site-packages" not in p)


def _installed(path: list[str]) -> tuple[str, ...]:
    return tuple(p for p in path if os.path.basename(p.rstrip("/")) in ("site-packages", "dist-packages"))


def own_interpreter() -> Interpreter:
    """The interpreter of this process (started resolved: a venv's symlink would need the venv bound)."""
    return Interpreter(executable=os.path.realpath(sys.executable), version=tuple(sys.version_info[:3]),
                       implementation=sys.implementation.name, prefix=sys.base_prefix, base_prefix=sys.base_prefix,
                       stdlib_path=_stdlib(sys.path[1:], sys.base_prefix), site_packages=None, configured=False,
                       installed=_installed(sys.path))


def probe(path: str | Path) -> Interpreter:
    """Ask the interpreter at `path` what it is; InterpreterError names the path and what went wrong."""
    executable = str(Path(path).expanduser())
    if not os.path.isfile(executable) or not os.access(executable, os.X_OK):
        raise InterpreterError(f"sandbox interpreter {executable}: not an executable file")
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    try:
        done = subprocess.run([executable, "-I", "-c", PROBE], capture_output=True, text=True, env=env,
                              timeout=PROBE_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InterpreterError(f"sandbox interpreter {executable}: could not be run: {exc}") from None
    try:
        facts = json.loads(done.stdout.strip().splitlines()[-1])
        version = tuple(int(v) for v in facts["version"])
    except (IndexError, ValueError, KeyError, TypeError):
        said = (done.stderr or done.stdout).strip()[-300:]
        raise InterpreterError(f"sandbox interpreter {executable}: not a Python that answers the probe "
                               f"(exit {done.returncode}: {said})") from None
    if version < (3, 10):
        raise InterpreterError(f"sandbox interpreter {executable} is Python {'.'.join(map(str, version))}: "
                               "the sandbox's pytest needs 3.10 or later")
    return Interpreter(executable=facts["executable"] or executable, version=version,  # type: ignore[arg-type]
                       implementation=facts["implementation"], prefix=facts["prefix"],
                       base_prefix=facts["base_prefix"], stdlib_path=_stdlib(facts["path"], facts["base_prefix"]),
                       site_packages=facts["site_packages"], configured=True,
                       installed=_installed(facts.get("installed") or []))


def interpreter_for(path: str | Path | None) -> Interpreter:
    """The configured interpreter, or the project's own when `path` is None."""
    return own_interpreter() if path is None else probe(path)
