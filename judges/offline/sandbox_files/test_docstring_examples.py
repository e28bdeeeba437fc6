"""Runs the docstring examples of the skeleton against the reference, inside the sandbox only.

`docstrings.json` beside this file holds the module name and, per docstring ("Class" or "Class.method"),
its text. Each docstring is one test: its examples run with doctest on the reference module's namespace;
the failure message is doctest's own report (the example, what was expected, what the reference gave).
Hand-written docstrings spell some examples otherwise, and those are read for what they state: an output
that is the same Python literal agrees, and an effect stated as an assignment to the object's state is
checked on the object the call was made on.
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


def _effect_check(example):
    """For an example whose expected "output" is an assignment to the object's state, as hand-written
    docstrings state an effect (``>>> cc.add_rate('KRW', 1308.84)`` then ``self.rates['KRW'] = 1308.84``):
    the comparison that statement means, on the object the call was made on (``cc.rates['KRW'] ==
    1308.84``); None for any other example."""
    try:
        (statement,) = ast.parse(example.want.strip()).body
        call = ast.parse(example.source.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)):
        return None
    target = root = statement.targets[0]
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    if root is target or not (isinstance(root, ast.Name) and root.id == "self"):
        return None
    return f"{call.func.value.id}{ast.unparse(target)[len('self'):]} == {ast.unparse(statement.value)}"


def _with_effects_checked(examples):
    """The examples, each stated effect run as its call (output ignored) and then its comparison."""
    out = []
    for example in examples:
        check = _effect_check(example)
        if check is None:
            out.append(example)
        else:
            out += [doctest.Example(f"_ = {example.source.strip()}\n", "", lineno=example.lineno),
                    doctest.Example(check + "\n", "True\n", lineno=example.lineno)]
    return out


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
    test.examples = _with_effects_checked(test.examples)
    runner = _FirstFailure(checker=_SameLiteral(), optionflags=FLAGS, verbose=False)
    runner.run(test, out=lambda text: None, clear_globs=True)
    assert runner.failures == 0, " ".join(str(runner.first).split())
