"""Other Pythons for the tests of the sandbox's interpreter setting: a virtual environment made on the spot
(always possible), and a newer or older CPython when the machine has one (on PATH as python3.X, or under
pyenv's versions folder); tests that need the latter skip without it."""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def make_venv(path: Path, python: str = sys.executable) -> Path:
    """A virtual environment of `python` without pip (nothing is installed); returns its python."""
    subprocess.run([python, "-m", "venv", "--without-pip", str(path)], check=True, capture_output=True)
    return path / "bin" / "python"


def stand_in(path: Path, version: tuple[int, int, int]) -> Path:
    """A script that answers the interpreter probe as a CPython of `version` installed under /opt/py would
    (and runs nothing): for checking that the version used is the one the interpreter gives."""
    minor = f"{version[0]}.{version[1]}"
    path.write_text("#!/bin/sh\necho '" + json.dumps({
        "version": list(version), "implementation": "cpython", "executable": f"/opt/py/bin/python{minor}",
        "prefix": "/opt/py", "base_prefix": "/opt/py",
        "path": [f"/opt/py/lib/python{minor}", f"/opt/py/lib/python{minor}/site-packages"], "site_packages": None,
    }) + "'\n")
    path.chmod(0o755)
    return path


def _version(python: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True,
                             text=True, timeout=20, check=True).stdout.split()
        return int(out[0]), int(out[1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def find_python(minor: tuple[int, int]) -> str | None:
    """A CPython of exactly that minor version on this machine, or None."""
    roots = [os.environ.get("PYENV_ROOT", ""), os.path.expanduser("~/.pyenv")]
    found = [shutil.which(f"python{minor[0]}.{minor[1]}") or ""]
    for root in roots:
        if root:
            found += sorted(glob.glob(os.path.join(root, "versions", f"{minor[0]}.{minor[1]}.*", "bin", "python3")))
    return next((p for p in found if p and _version(p) == minor), None)


def python_or_skip(minor: tuple[int, int]) -> str:
    python = find_python(minor)
    if python is None:
        pytest.skip(f"no Python {minor[0]}.{minor[1]} on this machine")
    return python
