"""What a skeleton states (`core.analysis.statements`): the one rule the consistency judge, the faithful
variants, the mined tests and the docstring completion ask. The order rule is held to 30 hand-labelled real
cases (order_cases.toml); each other rule to cases that show both sides of its line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from core.analysis.interface import read_interface
from core.analysis.skeleton import make_skeleton
from core.analysis.statements import (
    StatedTexts,
    exception_named,
    expected_text_stated,
    interface_statements,
    leaves_stated,
    message_stated,
    omissions,
    order_stated,
    pinned_exceptions,
    raises_clauses,
    skeleton_statements,
)

HERE = Path(__file__).parent
SEEDS = HERE.parents[2] / "seeds"
DATA = tomllib.loads((HERE / "order_cases.toml").read_text(encoding="utf-8"))
CASES = DATA["case"]


def _skeleton(case: dict) -> str:
    if "seed" in case:
        name = case["seed"].split("/")[1]
        return make_skeleton((SEEDS / case["seed"] / f"{name}.py").read_text(encoding="utf-8"), case["class_name"])
    return DATA["skeleton"][case["class_name"]]["text"]


def test_the_order_cases_are_thirty_distinct_labelled_pairs():
    assert len(CASES) == 30 and len({c["id"] for c in CASES}) == 30
    assert all(c["expected"] in ("order", "none") and c["why"].strip() for c in CASES)
    assert {c["expected"] for c in CASES} == {"order", "none"}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_an_order_is_stated_exactly_where_the_labels_say(case):
    skeleton = _skeleton(case)
    statements = skeleton_statements(skeleton, case["class_name"])
    assert case["method"] in statements.methods
    stated = order_stated(statements, case["method"])
    assert stated == (case["expected"] == "none"), case["why"]
    # the judges' reading of the skeleton (an Interface) states the same
    assert order_stated(interface_statements(read_interface(skeleton, case["class_name"])), case["method"]) == stated


def _class(methods: str, class_doc: str = "A store.") -> str:
    return f'class Store:\n    """{class_doc}"""\n\n{methods}'


def _method(name: str, doc: str, returns: str = "list[str]") -> str:
    return f'    def {name}(self) -> {returns}:\n        """{doc}"""\n        pass\n\n'


@pytest.mark.parametrize(("doc", "returns", "stated"), [
    ("Return the names, then the aliases.", "list[str]", True),  # a sequence built step by step
    ("Return the names.", "list[str]", False),
    ("Return the open orders of the book.", "list[str]", False),  # "orders" names things, not an order
    ("Return the low and high bounds.", "tuple[int, int]", True),  # a fixed-size tuple: positions are meaning
    ("Return the names.", "tuple[str, ...]", False),
])
def test_an_order_is_stated_in_words_or_by_a_fixed_size_type(doc, returns, stated):
    statements = skeleton_statements(_class(_method("names", doc, returns)), "Store")
    assert order_stated(statements, "names") is stated


def test_an_order_is_stated_by_reference_or_by_a_class_sentence_naming_the_method():
    by_reference = _class(_method("rows", "Rows as described in ``schedule``.")
                          + _method("schedule", "Return the jobs, oldest first."))
    assert order_stated(skeleton_statements(by_reference, "Store"), "rows")
    by_class = _class(_method("tags", "Return the tags."), "A store. ``tags`` lists them alphabetically.")
    assert order_stated(skeleton_statements(by_class, "Store"), "tags")
    unnamed = _class(_method("tags", "Return the tags.") + _method("keys", "Return the keys."),
                     "A store. ``keys`` lists them alphabetically.")
    assert not order_stated(skeleton_statements(unnamed, "Store"), "tags")


def test_an_unreadable_skeleton_states_nothing_but_its_text():
    broken = skeleton_statements("class Store(:\n", "Store")
    assert (broken.class_doc, dict(broken.methods), broken.text) == ("", {}, "class Store(:\n")
    assert dict(skeleton_statements(_class(_method("a", "A.")), "Other").methods) == {}


@pytest.mark.parametrize(("method_doc", "class_doc", "pinned"), [
    ("Store a value.\n\n:raises FrozenError: if frozen, checked before the arguments.", "", {"FrozenError"}),
    ("Store a value. The lock is checked before anything else.", "", None),  # which check: not said
    ("Store a value.\n\n:raises ValueError: if negative.", "", set()),
    ("Store a value.", "A store. FrozenError comes before any other argument check.", {"FrozenError"}),
    # a wrapped class docstring breaks the sentence wherever it falls
    ("Store a value.", "A store. A frozen store raises ``FrozenError`` before the\n    argument checks.", {"FrozenError"}),
])
def test_a_precedence_pins_the_exceptions_it_names(method_doc, class_doc, pinned):
    assert pinned_exceptions(method_doc, class_doc) == pinned


def test_a_reference_message_is_stated_by_a_quoted_run_and_an_expected_text_only_when_all_of_it_is_written():
    assert message_stated("{name} is not a counted method", "raises ValueError: X is not a counted method")
    assert not message_stated("amount must be positive", "raises ValueError if the amount is not positive")
    skeleton = 'def f():\n    """Raises ValueError("Amount must be positive")."""\n'
    assert expected_text_stated("amount must be positive", skeleton)  # case aside
    assert expected_text_stated(r"must be positive \(got .*\)", skeleton + "got")
    assert not expected_text_stated("amount must be positive, got -1", skeleton)


def test_stated_texts_are_quoted_words_examples_and_formats_written_out():
    statements = skeleton_statements(_class(
        _method("report", 'Return lines like "line N: reason".\n\n        >>> Store().report()\n        [\'total 3\']'),
        "Reports written as: total units."), "Store")
    texts = StatedTexts.of(statements)
    assert {"line", "N", "reason", "total", "Store", "report"} <= texts.quoted_words
    assert "units" not in texts.quoted_words
    assert texts.chunk_stated(" total units") and not texts.chunk_stated("units") and not texts.chunk_stated(" ")


@pytest.mark.parametrize(("doc", "stated"), [
    ("A failed call changes nothing.", True),
    ("The ledger stays unchanged.", True),
    ("Checks its arguments before changing anything.", True),
    ("Undoable: a call that raises, or that changes nothing, is not recorded.", False),
    ("Add an item.", False),
])
def test_what_a_failed_call_leaves(doc, stated):
    assert leaves_stated(doc) is stated


def test_documented_exceptions():
    doc = ("Look a recipe up.\n\n:raises shop.UnknownRecipe: if the recipe\n    is not known.\n"
           ":raises ValueError: if ``times`` is negative.\n\n>>> x\n")
    assert raises_clauses(doc) == {"UnknownRecipe": "if the recipe\n    is not known.",
                                   "ValueError": "if ``times`` is negative."}
    assert exception_named("KeyError", "raises KeyError for an unknown key")
    assert not exception_named("Error", "raises KeyError for an unknown key")


def test_omissions_name_what_a_docstring_leaves_out():
    solution = '''
class Tally:
    """Counts."""

    def __init__(self):
        self.n = 0

    def add(self, amount, note):
        """Add ``amount``."""
        if amount < 0:
            raise ValueError("negative")
        self.n += amount
        return self.n

    def total(self):
        """Return the total."""
        return self.n

    def reset(self):
        self.n = 0
'''
    found = omissions(read_interface(solution, "Tally"), solution)
    assert [(o.method, o.no_docstring, o.params, o.returns, o.exceptions) for o in found] == [
        ("add", False, ("note",), True, ("ValueError",)),
        ("reset", True, (), False, ()),
    ]
