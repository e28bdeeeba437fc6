"""Third-party code committed into a repository: a virtual environment, an installed `site-packages`, a
`vendor/` or `third_party/` copy.

It is not the repository's own code, so neither its licence file nor its history speaks for it: a library
written years ago and committed with a virtual environment in 2026 has a first commit after the cut-off
and would pass the freshness check. Its files are left out of a mine, with one rejection per vendored
folder rather than one per file (a committed virtual environment holds thousands).
"""

from __future__ import annotations

import re

_VENDORED_DIRS = frozenset({"site-packages", "dist-packages", "node_modules", "__pypackages__", "_vendor", "vendor",
                            "vendored", "third_party", "third-party", "thirdparty", "venv", ".venv", "virtualenv",
                            ".tox", ".nox", ".eggs"})
_INTERPRETER_LIB = re.compile(r"^(?:lib|Lib)$")
_PYTHON_DIR = re.compile(r"^python\d(?:\.\d+)?$")


def vendored_root(path: str) -> str | None:
    """The folder under which `path` is third-party code (`env/lib/python3.12/site-packages`, `vendor`,
    `.venv`), or None for the repository's own code. A virtual environment under any name is recognised by
    its `lib/pythonX.Y/` layout."""
    parts = path.split("/")[:-1]
    for index, part in enumerate(parts):
        if part in _VENDORED_DIRS:
            return "/".join(parts[:index + 1])
        if _INTERPRETER_LIB.match(part) and index + 1 < len(parts) and _PYTHON_DIR.match(parts[index + 1]):
            return "/".join(parts[:index]) or part
    return None


def split_vendored(paths: list[str]) -> tuple[list[str], dict[str, int]]:
    """(the repository's own paths, in order; vendored folder -> how many of `paths` lie under it)."""
    own: list[str] = []
    vendored: dict[str, int] = {}
    for path in paths:
        root = vendored_root(path)
        if root is None:
            own.append(path)
        else:
            vendored[root] = vendored.get(root, 0) + 1
    return own, vendored
