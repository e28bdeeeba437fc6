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


OBJECTS = '''
from dataclasses import dataclass
from enum import Enum


class Size(Enum):
    SMALL = "small"
    LARGE = "large"


@dataclass
class Car:
    plate: str
    size: Size = Size.SMALL


class Spot:
    def __init__(self, number: int, label):
        self.number = number
        self.label = label.upper()


class Garage:
    """Parks cars."""

    def __init__(self):
        self.cars = {}
        self.spots = []

    def park(self, car: Car, size: Size) -> bool:
        """Park `car` in a spot of `size`."""
        if car.plate in self.cars:
            return False
        self.cars[car.plate] = size
        return True

    def add_spots(self, spots: list[Spot]) -> int:
        """Add `spots`; returns how many there are."""
        self.spots.extend(spots)
        return len(self.spots)

    def count(self) -> int:
        """How many cars are parked."""
        return len(self.cars)
'''


def test_parameters_of_a_slice_class_get_its_instances_and_enum_members():
    from pipeline.mining.pools import object_values

    objects = object_values(ast.parse(OBJECTS), "Garage", module_literals(ast.parse(OBJECTS)))
    assert objects["Size"] == ("Size.SMALL", "Size.LARGE")
    assert objects["Car"][0].startswith("Car(") and objects["Spot"][0].startswith("Spot(")
    calls = static_pools(OBJECTS, "Garage").calls
    assert any(call.args[0].startswith("Car(") and call.args[1].startswith("Size.") for call in calls["park"])
    assert any(call.args[0].startswith("[Spot(") for call in calls["add_spots"])


def test_the_oracle_builds_them_and_the_tests_import_their_names():
    import random

    from core.analysis.class_model import analyse
    from pipeline.stages.config import BuildConfig
    from pipeline.synthesis.testgen import synthesize_tests

    with BuildConfig().sandbox_pool(1) as pool:
        result = synthesize_tests(pool, source=OBJECTS, module="garage", model=analyse(OBJECTS, "Garage"),
                                  pools=static_pools(OBJECTS, "Garage"), extra=[], rng=random.Random(1))
    assert "from garage import " in result.test_code and "Car" in result.test_code.split("\n", 3)[2]
    assert "garage.park(Car(" in result.test_code and "is True" in result.test_code


def test_a_dataclass_without_init_is_constructed_from_its_fields():
    code = OBJECTS.replace("class Garage:", "@dataclass\nclass Lot:\n    kind: Size\n    spots: int = 3\n\n    "
                           "def take(self) -> int:\n        self.spots -= 1\n        return self.spots\n\n\nclass Garage:")
    ctors = static_pools(code, "Lot").ctors
    assert ctors and all(call.args and call.args[0].startswith("Size.") for call in ctors)
