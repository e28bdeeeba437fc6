"""Runs the docstring examples of the skeleton against the reference, inside the sandbox only.

`docstrings.json` beside this file holds the module name and, per docstring ("Class" or "Class.method"),
its text. Each docstring is one test: its examples run with doctest on the reference module's namespace;
the failure message is doctest's own report (the example, what was expected, what the reference gave).
"""

import ast
import doctest
import importlib
import json
from pathlib import Path

import pytest

_CONFIG = json.loads(Path(__file__).with_name("docstrings.json").read_text(encoding="utf-8"))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


class _SameLiteral(doctest.OutputChecker):
    """doctest's own comparison, and beside it: an expected output that is the same Python literal as the
    one printed (``['USD','EUR']`` for ``['USD', 'EUR']``, as hand-written docstrings often spell a value)
    agrees. doctest's flags normalise whitespace between words only, not inside a literal."""

    def check_output(self, want, got, optionflags):
        if super().check_output(want, got, optionflags):
            return True
        try:
            return ast.literal_eval(want.strip()) == ast.literal_eval(got.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return False


class _FirstFailure(doctest.DocTestRunner):
    """Keeps the first failing example as one line: the sandbox reports only a failure's first line."""

    first = None

    def report_failure(self, out, test, example, got):
        if self.first is None:
            self.first = (f"{example.source.strip()!r}: the docstring says {example.want.strip()!r}, "
                          f"the reference gives {got.strip()!r}")

    def report_unexpected_exception(self, out, test, example, exc_info):
        if self.first is None:
            self.first = f"{example.source.strip()!r} raised {exc_info[0].__name__}: {exc_info[1]}"


@pytest.mark.parametrize("name", sorted(_CONFIG["docstrings"]))
def test_docstring_examples(name):
    module = importlib.import_module(_CONFIG["module"])
    namespace = {k: v for k, v in vars(module).items() if not k.startswith("__")}
    test = doctest.DocTestParser().get_doctest(_CONFIG["docstrings"][name], namespace, name,
                                               _CONFIG["module"] + ".py", 0)
    runner = _FirstFailure(checker=_SameLiteral(), optionflags=FLAGS, verbose=False)
    runner.run(test, out=lambda text: None, clear_globs=True)
    assert runner.failures == 0, " ".join(str(runner.first).split())
