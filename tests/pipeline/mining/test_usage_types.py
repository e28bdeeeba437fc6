"""An unannotated parameter's values follow from how its method uses it, or else from its name."""

from __future__ import annotations

import ast

import pytest

from pipeline.mining.pools import module_literals, static_pools
from pipeline.mining.usage_types import usage_kind

CODE = '''
class Model:
    """A model."""

    def fit(self, X, y):
        for row, target in zip(X, y):
            for value in row:
                self.total += value * target

    def predict(self, features):
        return sum(features) / len(features)

    def tag(self, text, n, config):
        words = text.lower().split()
        for key, value in config.items():
            words.append(key)
        return words[: n + 1]

    def lookup(self, table, thing):
        return table["default"], thing

    def describe(self, names, priority, learning_rate, whatever):
        return names, priority, learning_rate, whatever
'''


def _function(name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(ast.parse(CODE)) if isinstance(n, ast.FunctionDef) and n.name == name)


@pytest.mark.parametrize(("method", "param", "kind"), [
    ("fit", "X", "matrix"),        # iterated, and each row iterated again
    ("fit", "y", "list"),
    ("predict", "features", "list"),
    ("tag", "text", "str"),
    ("tag", "n", "int"),
    ("tag", "config", "dict"),
    ("lookup", "table", "dict"),    # indexed by a string key
    ("describe", "names", "list"),  # by name alone: a plural
    ("describe", "priority", "int"),
    ("describe", "learning_rate", "float"),
    ("describe", "whatever", None),
])
def test_a_parameter_kind_comes_from_its_uses_or_its_name(method, param, kind):
    assert usage_kind(_function(method), param) == kind


def test_pools_call_an_unannotated_fit_with_rows_and_a_list():
    calls = static_pools(CODE, "Model").calls
    assert ("[[0, 1], [1, 0], [1, 1]]", "[1, 2, 3]") in {call.args for call in calls["fit"]}
    assert calls["predict"][0].args == ("[1, 2, 3]",)


def test_docstrings_are_not_module_literals():
    assert "'A model.'" not in module_literals(ast.parse(CODE))["str"]
