"""Scripted model answers for the model path, written by hand the way a strong model answers, and the ways
a weak one fails.

The strong answers make a real task for the seed `Math_Stats/histogram` (an enhanced `Histogram`) and for
its composition with `Utils_Tools/unit_converter` (a class that records measurements in any unit and bins
them): a skeleton, tests written from that skeleton, and a reference that pass the validation gate. The
first test module leaves two methods untested (so the gate's coverage shortfall goes back to the test
writer once), and the first reference breaks a documented tie rule (so failing tests go back to the
reference writer once). The enhancer's answer for `UnitConverter` is a weak model's: a skeleton with too few
methods, twice, so that attempt ends as a `too_small` rejection while the build goes on.

`StrongModel` answers per role (from the X-Classeval-Role header) and per class (named in the prompt).
"""

from __future__ import annotations

import re
import threading

from pipeline.synthesis.testgen import snake
from tests.emulators.chat import ChatCall, Reply

HISTOGRAM_MODULE = '''"""An equal-width histogram that remembers its additions, so they can be undone."""


class HistogramError(ValueError):
    """Raised for values, bins or operations a histogram cannot take."""


class Histogram:
    """Counts values into equal-width bins over [low, high], with an undo history of additions.

    Bin i covers [low + i*width, low + (i+1)*width); the value `high` itself belongs to the last bin.
    """

    def __init__(self, low: float, high: float, bins: int) -> None:
        """An empty histogram with `bins` bins over [low, high].

        Raises HistogramError if high <= low or bins < 1.
        """
        if high <= low:
            raise HistogramError("high must exceed low")
        if bins < 1:
            raise HistogramError("need at least one bin")
        self.low = float(low)
        self.high = float(high)
        self.bins = bins
        self.counts = [0] * bins
        self.history = []

    def bin_of(self, value: float) -> int:
        """The index of the bin `value` falls in (`high` falls in the last bin).

        Raises HistogramError if value is below low or above high.
        """
        if value < self.low or value > self.high:
            raise HistogramError(f"{value} is outside [{self.low}, {self.high}]")
        if value == self.high:
            return self.bins - 1
        width = (self.high - self.low) / self.bins
        return int((value - self.low) // width)

    def add(self, value: float) -> int:
        """Count `value` in its bin and remember the addition for undo; returns the bin index.

        Raises HistogramError (counting nothing) if value is outside [low, high].
        """
        index = self.bin_of(value)
        self.counts[index] += 1
        self.history.append(index)
        return index

    def add_all(self, values: list) -> int:
        """Add each value in order; returns how many were added.

        Raises HistogramError at the first value outside [low, high]; the values before it stay added.
        """
        added = 0
        for value in values:
            self.add(value)
            added += 1
        return added

    def undo(self) -> int:
        """Remove the most recent addition not yet undone; returns the bin index it had been counted in.

        Raises HistogramError if there is nothing to undo.
        """
        if not self.history:
            raise HistogramError("nothing to undo")
        index = self.history.pop()
        self.counts[index] -= 1
        return index

    def total(self) -> int:
        """How many values are counted."""
        return sum(self.counts)

    def count(self, index: int) -> int:
        """How many values bin `index` holds. Raises HistogramError if index is not a bin index."""
        if not 0 <= index < self.bins:
            raise HistogramError(f"no bin {index}")
        return self.counts[index]

    def mode_bin(self) -> tuple:
        """(lower edge, upper edge) of the fullest bin; on a tie, the bin with the lowest index.

        Raises HistogramError if the histogram is empty.
        """
        if self.total() == 0:
            raise HistogramError("the histogram is empty")
        index = self.counts.index(max(self.counts))
        width = (self.high - self.low) / self.bins
        return (self.low + index * width, self.low + (index + 1) * width)

    def fraction(self, index: int) -> float:
        """Share of the counted values that bin `index` holds; 0.0 when the histogram is empty.

        Raises HistogramError if index is not a bin index.
        """
        total = self.total()
        return self.count(index) / total if total else 0.0

    def reset(self) -> None:
        """Forget every count and the undo history."""
        self.counts = [0] * self.bins
        self.history = []
'''

# The weak first reference: ties go to the highest index, against the docstring.
HISTOGRAM_BUGGY = HISTOGRAM_MODULE.replace(
    "index = self.counts.index(max(self.counts))",
    "index = self.bins - 1 - self.counts[::-1].index(max(self.counts))")

HISTOGRAM_TESTS = '''import pytest

from histogram import Histogram, HistogramError


def test_add_returns_bins_and_counts():
    h = Histogram(0, 10, 5)
    assert h.add(0.5) == 0
    assert h.add(9.9) == 4
    assert h.add(10) == 4
    assert h.count(0) == 1 and h.count(4) == 2
    assert h.total() == 3


def test_bin_of_edges_and_outside_values():
    h = Histogram(0, 10, 5)
    assert h.bin_of(0) == 0
    assert h.bin_of(2) == 1
    assert h.bin_of(10) == 4
    with pytest.raises(HistogramError):
        h.bin_of(-0.1)
    with pytest.raises(HistogramError):
        h.add(10.5)
    assert h.total() == 0


def test_add_all_keeps_values_before_a_bad_one():
    h = Histogram(0, 10, 5)
    with pytest.raises(HistogramError):
        h.add_all([1, 3, 11, 5])
    assert h.total() == 2
    assert h.add_all([5, 7]) == 2
    assert [h.count(i) for i in range(5)] == [1, 1, 1, 1, 0]


def test_undo_removes_latest_additions_in_reverse_order():
    h = Histogram(0, 10, 5)
    h.add_all([1, 9])
    assert h.undo() == 4
    assert h.count(4) == 0 and h.total() == 1
    assert h.undo() == 0
    assert h.total() == 0
    with pytest.raises(HistogramError):
        h.undo()


def test_mode_bin_breaks_ties_towards_the_lowest_index():
    h = Histogram(0, 10, 5)
    h.add_all([9, 1])
    assert h.mode_bin() == (0.0, 2.0)
    h.add(9.5)
    assert h.mode_bin() == (8.0, 10.0)
    h.undo()
    assert h.mode_bin() == (0.0, 2.0)


def test_mode_bin_of_an_empty_histogram():
    h = Histogram(0, 1, 2)
    with pytest.raises(HistogramError):
        h.mode_bin()
    h.add(0.75)
    assert h.mode_bin() == (0.5, 1.0)


def test_count_checks_the_index():
    h = Histogram(0, 10, 5)
    h.add(3)
    with pytest.raises(HistogramError):
        h.count(5)
    with pytest.raises(HistogramError):
        h.count(-1)
    assert h.count(1) == 1


def test_undo_then_add_on_one_instance():
    h = Histogram(-5, 5, 2)
    h.add(-1)
    h.undo()
    assert h.add(4) == 1
    assert h.count(1) == 1 and h.total() == 1
    assert h.mode_bin() == (0.0, 5.0)
'''

# Feedback round 1: what the first module left untested (fraction and reset).
HISTOGRAM_MORE_TESTS = '''from histogram import Histogram


def test_fraction_follows_additions_and_undo():
    h = Histogram(0, 10, 5)
    assert h.fraction(0) == 0.0
    h.add_all([1, 1.5, 9])
    assert h.fraction(0) == pytest.approx(2 / 3)
    h.undo()
    assert h.fraction(0) == 1.0
    assert h.fraction(4) == 0.0


def test_reset_forgets_counts_and_history():
    h = Histogram(0, 10, 5)
    h.add_all([1, 2, 3])
    h.reset()
    assert h.total() == 0 and h.count(0) == 0
    with pytest.raises(HistogramError):
        h.undo()
    with pytest.raises(HistogramError):
        h.mode_bin()
    h.add(7)
    assert h.fraction(3) == 1.0
    assert h.mode_bin() == (6.0, 8.0)
    h.reset()
    assert h.add(2) == 1
    assert h.count(1) == 1


def test_one_instance_through_every_method():
    h = Histogram(0, 4, 4)
    h.add_all([0.5, 1.5, 1.7])
    h.undo()
    h.add(3.5)
    assert h.total() == 3
    assert h.count(1) == 1
    assert h.mode_bin() == (0.0, 1.0)
    assert h.fraction(3) == pytest.approx(1 / 3)
    h.reset()
    h.add(2.5)
    assert h.undo() == 2
    h.add(2.5)
    assert h.count(2) == 1
    assert h.bin_of(4) == 3
'''

HYBRID_MODULE = '''"""Measurements recorded in any defined unit, converted to a base unit and binned."""


class ConversionError(ValueError):
    """Raised for unknown or duplicate units, bad factors and values outside the binned range."""


class NAME:
    """Records measurements given in any defined unit: each is converted to the base unit and counted in one
    of `bins` equal-width bins over [low, high] (in base units; `high` belongs to the last bin).
    """

    def __init__(self, base_unit: str, low: float, high: float, bins: int) -> None:
        """An empty record whose only unit is `base_unit` (factor 1.0).

        Raises ConversionError if high <= low or bins < 1.
        """
        if high <= low or bins < 1:
            raise ConversionError("need high > low and at least one bin")
        self.base_unit = base_unit
        self.factors = {base_unit: 1.0}
        self.low = float(low)
        self.high = float(high)
        self.bins = bins
        self.counts = [0] * bins
        self.values = []

    def define_unit(self, name: str, factor: float) -> None:
        """Define unit `name` as `factor` base units.

        Raises ConversionError if the unit exists already or factor <= 0.
        """
        if name in self.factors:
            raise ConversionError(f"unit {name} exists")
        if factor <= 0:
            raise ConversionError("factor must be positive")
        self.factors[name] = float(factor)

    def units(self) -> list:
        """The defined unit names, sorted."""
        return sorted(self.factors)

    def convert(self, value: float, from_unit: str, to_unit: str) -> float:
        """`value` in `from_unit` expressed in `to_unit`. Raises ConversionError for an unknown unit."""
        for unit in (from_unit, to_unit):
            if unit not in self.factors:
                raise ConversionError(f"unknown unit {unit}")
        return value * self.factors[from_unit] / self.factors[to_unit]

    def record(self, value: float, unit: str) -> int:
        """Record `value` given in `unit`; returns the index of the bin its base-unit value falls in.

        Raises ConversionError (recording nothing) for an unknown unit or a base value outside [low, high].
        """
        base = self.convert(value, unit, self.base_unit)
        if base < self.low or base > self.high:
            raise ConversionError(f"{base} {self.base_unit} is outside the binned range")
        width = (self.high - self.low) / self.bins
        index = self.bins - 1 if base == self.high else int((base - self.low) // width)
        self.counts[index] += 1
        self.values.append(base)
        return index

    def count(self, index: int) -> int:
        """How many measurements bin `index` holds. Raises ConversionError if index is not a bin index."""
        if not 0 <= index < self.bins:
            raise ConversionError(f"no bin {index}")
        return self.counts[index]

    def total(self) -> int:
        """How many measurements are recorded."""
        return len(self.values)

    def mean(self, unit: str) -> float:
        """The mean of the recorded measurements, expressed in `unit`.

        Raises ConversionError if nothing is recorded or the unit is unknown.
        """
        if self.total() == 0:
            raise ConversionError("nothing recorded")
        return self.convert(sum(self.values) / len(self.values), self.base_unit, unit)

    def clear(self) -> None:
        """Forget every measurement; the defined units stay."""
        self.counts = [0] * self.bins
        self.values = []
'''

HYBRID_TESTS = '''import pytest

from MODULE import ConversionError, NAME


def test_units_start_with_the_base_unit_and_grow():
    r = NAME("m", 0, 10, 5)
    assert r.units() == ["m"]
    r.define_unit("km", 1000)
    r.define_unit("cm", 0.01)
    assert r.units() == ["cm", "km", "m"]


def test_define_unit_refuses_duplicates_and_bad_factors():
    r = NAME("m", 0, 10, 5)
    r.define_unit("cm", 0.01)
    with pytest.raises(ConversionError):
        r.define_unit("cm", 0.02)
    with pytest.raises(ConversionError):
        r.define_unit("mm", 0)
    assert r.units() == ["cm", "m"]


def test_convert_between_defined_units():
    r = NAME("m", 0, 10, 5)
    r.define_unit("km", 1000)
    r.define_unit("cm", 0.01)
    assert r.convert(2, "km", "m") == 2000
    assert r.convert(250, "cm", "m") == pytest.approx(2.5)
    assert r.convert(1, "km", "cm") == pytest.approx(100000)
    with pytest.raises(ConversionError):
        r.convert(1, "mile", "m")
    with pytest.raises(ConversionError):
        r.convert(1, "m", "mile")


def test_record_converts_then_bins():
    r = NAME("m", 0, 10, 5)
    r.define_unit("cm", 0.01)
    assert r.record(150, "cm") == 0
    assert r.record(3, "m") == 1
    assert r.record(10, "m") == 4
    assert [r.count(i) for i in range(5)] == [1, 1, 0, 0, 1]
    assert r.total() == 3


def test_record_refuses_out_of_range_and_unknown_units():
    r = NAME("m", 0, 10, 5)
    r.define_unit("km", 1000)
    with pytest.raises(ConversionError):
        r.record(1, "km")
    with pytest.raises(ConversionError):
        r.record(1, "ft")
    assert r.total() == 0
    r.record(1, "m")
    with pytest.raises(ConversionError):
        r.record(-1, "m")
    assert r.total() == 1


def test_mean_in_any_unit():
    r = NAME("m", 0, 10, 5)
    with pytest.raises(ConversionError):
        r.mean("m")
    r.define_unit("cm", 0.01)
    r.record(200, "cm")
    r.record(4, "m")
    assert r.mean("m") == pytest.approx(3.0)
    assert r.mean("cm") == pytest.approx(300.0)
    with pytest.raises(ConversionError):
        r.mean("ft")


def test_count_checks_the_index():
    r = NAME("m", 0, 10, 2)
    r.record(7, "m")
    assert r.count(1) == 1
    with pytest.raises(ConversionError):
        r.count(2)


def test_clear_keeps_units_and_forgets_measurements():
    r = NAME("m", 0, 10, 5)
    r.define_unit("cm", 0.01)
    r.record(500, "cm")
    r.clear()
    assert r.total() == 0 and r.count(2) == 0
    assert r.units() == ["cm", "m"]
    with pytest.raises(ConversionError):
        r.mean("m")
    assert r.record(900, "cm") == 4
    assert r.mean("cm") == pytest.approx(900)


def test_one_instance_through_every_method():
    r = NAME("g", 0, 1000, 4)
    r.define_unit("kg", 1000)
    assert r.units() == ["g", "kg"]
    assert r.record(0.3, "kg") == 1
    assert r.record(900, "g") == 3
    assert r.convert(0.5, "kg", "g") == 500
    assert r.total() == 2 and r.count(3) == 1
    assert r.mean("kg") == pytest.approx(0.6)
    r.clear()
    r.define_unit("mg", 0.001)
    assert r.record(100000, "mg") == 0
    assert r.mean("g") == pytest.approx(100)
'''

WEAK_SKELETON = '''Here is a harder version:

```python
class UnitConverter:
    """Converts units."""

    def __init__(self) -> None:
        ...

    def add_unit(self, name: str, factor: float) -> None:
        """Adds a unit."""
        ...

    def convert(self, value: float, source: str, target: str) -> float:
        """Converts."""
        ...
```
'''


def fence(code: str) -> str:
    return f"Here you go.\n\n```python\n{code.rstrip()}\n```\n"


def _class_named(call: ChatCall) -> str:
    """The class the conversation is about, named in its first user message (a repair prompt follows it)."""
    text = next((str(m.get("content", "")) for m in call.messages if m.get("role") == "user"), "")
    for pattern in (r"named `(\w+)`", r"Keep the class name `(\w+)`", r"implementation of `(\w+)`",
                    r"from \w+ import (\w+)", r"import (\w+)`"):
        found = re.search(pattern, text)
        if found:
            return found.group(1)
    raise AssertionError(f"no class name in the {call.role} prompt")


def _module_named(call: ChatCall) -> str:
    first = next((str(m.get("content", "")) for m in call.messages if m.get("role") == "user"), "")
    found = re.search(r"module under test is `(\w+)`", first)
    return found.group(1) if found else ""


class StrongModel:
    """A scripted server: the strong answers above per role and class, and the weak enhancer for UnitConverter."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: list[tuple[str, str, str]] = []

    def hybrid(self, name: str, text: str) -> str:
        return text.replace("NAME", name)

    def __call__(self, call: ChatCall) -> str | Reply:
        name = _class_named(call)
        with self.lock:
            self.seen.append((call.role or "", call.prompt or "", name))
        prompt = (call.prompt or "").split("@")[0]
        if name == "UnitConverter":
            return WEAK_SKELETON
        histogram = name == "Histogram"
        module = HISTOGRAM_MODULE if histogram else self.hybrid(name, HYBRID_MODULE)
        if prompt in ("enhance_skeleton", "compose_skeleton"):
            return fence(module)  # with bodies: the pipeline empties them itself
        if prompt == "tests_from_skeleton":
            return fence(HISTOGRAM_TESTS if histogram else
                         self.hybrid(name, HYBRID_TESTS).replace("MODULE", _module_named(call) or snake(name)))
        if prompt == "reference_from_skeleton":
            return fence(HISTOGRAM_BUGGY if histogram else module)
        if prompt == "reference_feedback":
            return fence(module)
        if prompt == "tests_feedback":
            return fence("import pytest\n\nfrom histogram import HistogramError\n" + HISTOGRAM_MORE_TESTS)
        return Reply(f"unscripted prompt {call.prompt}", status=400)

