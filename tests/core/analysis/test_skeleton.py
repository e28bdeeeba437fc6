"""make_skeleton and strip_imports on small inline modules."""

import ast

import libcst as cst
import pytest

from core.analysis.class_facts import ClassNotFound
from core.analysis.skeleton import make_skeleton, strip_imports

SOURCE = '''"""Module doc."""
from __future__ import annotations

import math
try:
    import numpy
except ImportError:
    numpy = None

RATE = 0.5


class LedgerError(ValueError):
    """Raised on a bad entry."""


def _helper(x: int) -> int:
    """Double x."""
    return 2 * x


class Ledger:
    """A ledger."""

    LIMIT: int = 10

    def __init__(self, owner: str = "me") -> None:
        """Make one."""
        self.owner = owner
        self._reset()

    def _reset(self) -> None:
        self.entries = []

    @property
    def size(self) -> int:
        """How many."""
        return len(self.entries)

    @staticmethod
    def root(x: float) -> float: return math.sqrt(x)

    def add(self, amount: float, *, note: str = "") -> int:
        """Add an entry.

        >>> Ledger().add(1)
        1
        """
        self.entries.append((amount, note))
        return self.size


if __name__ == "__main__":
    print(Ledger().add(1))
'''


def _functions(code: str, class_name: str = "Ledger") -> dict[str, ast.FunctionDef]:
    tree = ast.parse(code)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}


def test_pass_skeleton_keeps_interface_and_drops_bodies() -> None:
    out = make_skeleton(SOURCE, "Ledger")
    assert out.startswith('"""Module doc."""\nfrom __future__ import annotations\n\nimport math\ntry:')
    assert "RATE = 0.5" in out and "LIMIT: int = 10" in out
    assert "class LedgerError(ValueError):" in out and "Raised on a bad entry." in out
    assert "__main__" not in out and "sqrt" not in out and "append" not in out and "2 * x" not in out
    assert "def add(self, amount: float, *, note: str = \"\") -> int:" in out
    assert ">>> Ledger().add(1)" in out  # docstrings (doctests included) stay: they are the specification
    funcs = _functions(out)
    assert list(funcs) == ["__init__", "_reset", "size", "root", "add"]
    for name, fn in funcs.items():
        assert isinstance(fn.body[-1], ast.Pass), name
    assert [ast.unparse(d) for d in funcs["size"].decorator_list] == ["property"]
    # a one-line body (`def root(...): return ...`) becomes an indented block
    assert "def root(x: float) -> float:\n        pass" in out


def test_raise_skeleton_keeps_init_and_what_it_calls() -> None:
    out = make_skeleton(SOURCE, "Ledger", body="raise", keep_init=True)
    funcs = _functions(out)
    assert "self._reset()" in ast.unparse(funcs["__init__"])
    assert "self.entries = []" in ast.unparse(funcs["_reset"])
    for name in ("size", "root", "add"):
        assert isinstance(funcs[name].body[-1], ast.Raise), name
    helper = next(n for n in ast.parse(out).body if isinstance(n, ast.FunctionDef))
    assert isinstance(helper.body[-1], ast.Raise)
    compile(out, "<skeleton>", "exec")


def test_raise_skeleton_without_keep_init_stubs_init_too() -> None:
    funcs = _functions(make_skeleton(SOURCE, "Ledger", body="raise"))
    assert isinstance(funcs["__init__"].body[-1], ast.Raise)


def test_errors_name_the_problem() -> None:
    with pytest.raises(ClassNotFound, match="Nope.*found: LedgerError, Ledger"):
        make_skeleton(SOURCE, "Nope")
    with pytest.raises(cst.ParserSyntaxError):
        make_skeleton("class A(:\n", "A")
    with pytest.raises(ValueError, match="body"):
        make_skeleton(SOURCE, "Ledger", body="empty")  # type: ignore[arg-type]


def test_strip_imports_splits_like_classeval() -> None:
    imports, rest = strip_imports("import os, sys\nfrom a.b import (c,\n    d)\n\n\nclass A:\n    x = os.sep\n")
    assert imports == ["import os, sys", "from a.b import (c,\n    d)"]
    assert rest == "class A:\n    x = os.sep\n"
    imports, rest = strip_imports(SOURCE)
    assert imports == ["from __future__ import annotations", "import math"]
    assert rest.startswith('"""Module doc."""') and "import numpy" in rest and "import math" not in rest
