"""The kind, size and documentation filters on the kinds of class a maintainer would keep or leave out of a
benchmark: small classes whose methods work together, data classes that compute, components living in test
folders, constructors documented by their class, properties documented by their getter."""

from __future__ import annotations

import textwrap

from core.records import RejectReason
from pipeline.mining.examine import undocumented_methods
from pipeline.mining.extract import parse_module
from pipeline.mining.filters import first_drop
from pipeline.mining.shape import ShapeLimits, class_kind, shape_chain, size_filter


def _unit(source: str, name: str, path: str = "pkg/mod.py"):
    module = parse_module(textwrap.dedent(source), path)
    return next(c for c in module.classes if c.name == name)


EDIT_TABLE = '''
    class EditTable:
        """Edit distances between prefixes of two words, filled on demand."""

        def __init__(self, source, target):
            """Keep both words; nothing is computed yet."""
            self.source = source
            self.target = target
            self.table = {}

        def cost(self, i, j):
            """The edit distance between source[:i] and target[:j], memoised in the table.

            Each cell is computed once: the three neighbours it depends on are asked through this method,
            so a cell filled by an earlier question is read back instead of computed again.

            >>> EditTable("kitten", "sitting").cost(1, 1)
            1
            """
            if (i, j) in self.table:
                return self.table[(i, j)]
            if i == 0 or j == 0:
                value = i + j
            elif self.source[i - 1] == self.target[j - 1]:
                value = self.cost(i - 1, j - 1)
            else:
                value = 1 + min(
                    self.cost(i - 1, j),
                    self.cost(i, j - 1),
                    self.cost(i - 1, j - 1),
                )
            self.table[(i, j)] = value
            return value

        def distance(self):
            """The edit distance between the whole words."""
            return self.cost(len(self.source), len(self.target))

        def filled(self):
            """How many prefix pairs the table holds so far.

            >>> t = EditTable("ab", "b")
            >>> t.filled()
            0
            """
            return len(self.table)
    '''

UNION_FIND = '''
    class UnionFind:
        def __init__(self, n):
            self.parent = list(range(n))
            self.size = [1] * n
        def find(self, x):
            while self.parent[x] != x:
                x = self.parent[x]
            return x
        def union(self, a, b):
            a, b = self.find(a), self.find(b)
            if a == b:
                return False
            self.parent[b] = a
            self.size[a] += self.size[b]
            return True
        def connected(self, a, b):
            return self.find(a) == self.find(b)
        def component_size(self, x):
            return self.size[self.find(x)]
        def groups(self):
            return len({self.find(x) for x in range(len(self.parent))})
    '''

SMALL_TRIE = '''
    class Trie:
        def __init__(self):
            self.children = {}
            self.end = False
        def insert(self, word):
            node = self
            for ch in word:
                node = node.children.setdefault(ch, Trie())
            node.end = True
        def find(self, word):
            node = self
            for ch in word:
                node = node.children.get(ch)
                if node is None:
                    return False
            return node.end
        def starts(self, prefix):
            node = self
            for ch in prefix:
                node = node.children.get(ch)
                if node is None:
                    return False
            return True
    '''


def test_a_four_method_class_of_forty_lines_whose_methods_interact_is_big_enough():
    unit = _unit(EDIT_TABLE, "EditTable")
    assert (len(unit.method_names), unit.line_count >= 40) == (4, True)
    assert first_drop(unit, shape_chain("pkg/mod.py", ShapeLimits())) is None


def test_six_short_methods_are_big_enough_under_forty_lines():
    unit = _unit(UNION_FIND, "UnionFind")
    assert len(unit.method_names) == 6 and 20 <= unit.line_count < 40
    assert size_filter(ShapeLimits())(unit) is None


def test_few_methods_in_few_lines_are_too_small_and_the_detail_says_both():
    unit = _unit(SMALL_TRIE, "Trie")
    drop = size_filter(ShapeLimits())(unit)
    assert drop.reason is RejectReason.TOO_SMALL
    assert drop.detail == f"4 methods in {unit.line_count} lines: fewer than 5 methods and fewer than 40 lines"


def test_the_floors_hold_whatever_else_the_class_has():
    two_long_methods = "class Two:\n" + "".join(
        f"    def m{i}(self):\n" + "".join(f"        x{k} = {k}\n" for k in range(25)) + "        return x0\n"
        for i in range(2))
    unit = _unit(two_long_methods, "Two")
    assert unit.line_count > 40
    assert size_filter(ShapeLimits())(unit).detail == "2 method(s), fewer than 3"
    tiny_many = "class Many:\n" + "".join(f"    def m{i}(self): return {i}\n" for i in range(8))
    assert size_filter(ShapeLimits())(_unit(tiny_many, "Many")).detail.endswith("fewer than 20")


def test_floors_at_the_enough_values_ask_for_both_as_before():
    both = ShapeLimits(min_methods=5, min_lines=40)
    assert size_filter(both)(_unit(EDIT_TABLE, "EditTable")).detail == "4 method(s), fewer than 5"
    assert size_filter(both)(_unit(UNION_FIND, "UnionFind")).reason is RejectReason.TOO_SMALL


def test_a_component_in_a_test_folder_is_not_a_test_but_a_test_class_there_is():
    fake = '''
        class FakeClock:
            def __init__(self):
                self.now = 0.0
            def advance(self, seconds):
                self.now += seconds
        '''
    assert class_kind(_unit(fake, "FakeClock", "tests/helpers.py"), "tests/helpers.py") is None
    pytest_class = '''
        class Clocks:
            def test_advance(self):
                assert True
        '''
    assert class_kind(_unit(pytest_class, "Clocks", "tests/test_clock.py"), "tests/test_clock.py") == "test"
    with_setup = '''
        class Scenario:
            def setup_method(self):
                self.x = 1
        '''
    assert class_kind(_unit(with_setup, "Scenario", "tests/conftest.py"), "tests/conftest.py") == "test"
    assert class_kind(_unit(fake.replace("FakeClock", "TestClock"), "TestClock"), "pkg/mod.py") == "test"


def test_a_data_class_that_computes_with_its_own_methods_is_not_a_data_holder():
    interval = '''
        @dataclass(frozen=True)
        class Interval:
            low: int
            high: int
            def overlaps(self, other):
                return self.low <= other.high and other.low <= self.high
            def union(self, other):
                if not self.overlaps(other):
                    raise ValueError("disjoint")
                return Interval(min(self.low, other.low), max(self.high, other.high))
        '''
    assert class_kind(_unit(interval, "Interval")) is None
    record = '''
        @dataclass
        class Row:
            name: str
            size: int
            def to_dict(self):
                return {"name": self.name, "size": self.size}
        '''
    assert class_kind(_unit(record, "Row")) == "data holder"
    integrator = '''
        @dataclass
        class Integrator:
            step_size: float
            def euler(self, f, y):
                slope = f(y)
                return y + self.step_size * slope
            def midpoint(self, f, y):
                half = y + self.step_size / 2 * f(y)
                return y + self.step_size * f(half)
        '''
    assert class_kind(_unit(integrator, "Integrator")) is None
    one_computing = integrator.replace("def midpoint", "def _unused").replace(
        "half = y + self.step_size / 2 * f(y)\n                return", "return")
    assert class_kind(_unit(one_computing, "Integrator")) == "data holder"
    validated = '''
        class Params(BaseModel):
            path: str
            @field_validator("path")
            def not_blank(cls, value):
                value = value.strip()
                return value
            @field_validator("path")
            def no_nul(cls, value):
                if "\\0" in value:
                    raise ValueError("NUL")
                return value
        '''
    assert class_kind(_unit(validated, "Params")) == "data holder"


def test_a_class_docstring_naming_every_constructor_parameter_documents_init():
    documented_by_class = '''
        class Window:
            """Counts events over the last `span` seconds, at most `limit` of them."""
            def __init__(self, span, limit=100, *args, **kwargs):
                self.span, self.limit = span, limit
            def add(self, t):
                """Record an event at time t."""
        '''
    assert undocumented_methods(_unit(documented_by_class, "Window")) == []
    half = documented_by_class.replace("at most `limit` of them", "a bounded number of them")
    assert undocumented_methods(_unit(half, "Window")) == ["__init__"]
    no_class_doc = '''
        class Bare:
            def __init__(self):
                self.n = 0
            def add(self):
                """Count one."""
        '''
    assert undocumented_methods(_unit(no_class_doc, "Bare")) == ["__init__"]
    class_doc = no_class_doc.replace("def __init__", '"""A counter."""\n            def __init__')
    assert undocumented_methods(_unit(class_doc, "Bare")) == []


def test_a_getter_documents_its_setter_and_an_implementation_its_overloads():
    accessors = '''
        class Box:
            """A box."""
            @property
            def size(self):
                """The side length."""
                return self._size
            @size.setter
            def size(self, value):
                self._size = value
            @overload
            def scale(self, by: int) -> int: ...
            @overload
            def scale(self, by: float) -> float: ...
            def scale(self, by):
                """The side length times `by`."""
                return self._size * by
            def volume(self):
                return self._size ** 3
        '''
    assert undocumented_methods(_unit(accessors, "Box")) == ["volume"]


def test_private_helpers_need_no_docstring_but_public_methods_and_init_do():
    helpers = '''
        class Queue:
            """A queue."""
            def push(self, item):
                """Add item at the back."""
                self._grow()
            def _grow(self):
                pass
            def __spill(self):
                pass
            def __len__(self):
                return 0
            def peek(self):
                return None
        '''
    assert undocumented_methods(_unit(helpers, "Queue")) == ["peek"]
    with_init = helpers.replace("def __len__",
                                "def __init__(self, size):\n                pass\n            def __len__")
    assert undocumented_methods(_unit(with_init, "Queue")) == ["__init__", "peek"]
