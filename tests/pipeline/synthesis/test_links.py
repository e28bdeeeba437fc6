"""Links join meanings, not types: the vocabulary's rule, the types that carry a value, the ends derived for a
class that declares none, when a link can live inside its producer, and where its paragraph goes."""

import ast
import textwrap

from core.analysis.class_model import analyse
from core.meanings import factor, joins
from core.records import Accepts, Produces
from pipeline.synthesis.links import carries, derived_ends, weavable
from pipeline.synthesis.weaving import paragraph_inserted


def _produces(meaning: str, unit: str) -> Produces:
    return Produces(method="m", meaning=meaning, unit=unit, what="w", name="w")


def _accepts(meaning: str, unit: str) -> Accepts:
    return Accepts(method="m", parameter="p", meaning=meaning, unit=unit, role="r", action="a {what}", verb="v")


def test_a_link_joins_equal_meanings_in_equal_units_and_a_statistics_consumer_takes_any_measure():
    assert joins(_produces("money", "cents"), _accepts("money", "cents"))
    assert joins(_produces("duration", "seconds"), _accepts("duration", "milliseconds"))  # converts by a factor
    assert not joins(_produces("duration", "ticks"), _accepts("duration", "seconds"))  # a simulation's ticks do not
    assert not joins(_produces("score", "points"), _accepts("duration", "milliseconds"))  # a strength is no latency
    assert joins(_produces("count", "topplings"), _accepts("number", "any"))
    assert not joins(_produces("text", "plain"), _accepts("number", "any"))
    assert not joins(_produces("timestamp", "seconds"), _accepts("number", "any"))  # a point in time measures nothing
    assert joins(_produces("text", "markdown"), _accepts("text", "any"))


def test_a_value_is_converted_to_the_consumers_unit_and_rounded_only_where_the_consumer_takes_whole_numbers():
    from pipeline.synthesis.links import Link, _conversion

    seconds, millis = _produces("duration", "seconds"), _accepts("duration", "milliseconds")
    assert factor(seconds, millis) == 1000 and factor(_produces("money", "cents"), _accepts("money", "cents")) == 1
    assert _conversion(factor(seconds, millis), "float", "float") == "{} * 1000"
    assert _conversion(factor(_produces("money", "currency_units"), _accepts("money", "cents")), "float", "int") \
        == "round({} * 100)"
    assert _conversion(factor(_produces("money", "cents"), _accepts("money", "cents")), "int", "int") == "{}"
    link = Link(call="c", producer="p", consumer="c", parameter="v", source_part="A", target_part="B", observers=(),
                woven=False, produced=Produces(method="p", meaning="money", unit="currency_units",
                                               what="a week's gross pay", name="pay"),
                accepted=Accepts(method="c", parameter="v", meaning="money", unit="cents", role="paid into the wallet",
                                 action="pay {what}", verb="pay"), conversion="round({} * 100)")
    assert link.sentence == ("A week's gross pay is paid into the wallet (multiplied by 100 to be in cents, rounded to "
                             "a whole number).")


def test_the_types_must_carry_the_value():
    assert carries("int", "float") and not carries("float", "int")
    assert not carries("int | None", "int") and carries("int | None", "int | None")
    assert not carries("Decimal", "float") and carries(None, "int")


BANK = textwrap.dedent('''
    class BankAccount:
        """A bank account: deposit money, view the balance."""

        def __init__(self, balance=0):
            self.balance = balance

        def deposit(self, amount):
            """Deposit money into the account.
            :param amount: int
            """
            self.balance += amount
            return self.balance

        def view_balance(self):
            """:return: int, the balance"""
            return self.balance


    class Hero:
        """A character that levels up."""

        def __init__(self):
            self.exp = 0

        def gain_exp(self, amount):
            """Gain experience.
            :param amount: int
            """
            self.exp += amount
''')


def test_ends_derived_from_a_classeval_style_class_need_words_that_say_money():
    produces, accepts = derived_ends(analyse(BANK, "BankAccount"))
    assert [(p.method, p.meaning) for p in produces] == [("view_balance", "money")]
    assert [(a.method, a.parameter, a.meaning, a.unit) for a in accepts] == [("deposit", "amount", "money", "unstated")]
    assert derived_ends(analyse(BANK, "Hero")) == ((), ())  # experience gained is no amount of money


GRID = textwrap.dedent('''
    class Grid:
        def __init__(self):
            self.cells = []
            self.log = []

        def drop(self, x: int) -> int:
            if x < 0:
                raise ValueError("x")
            self.cells.append(x)
            return len(self.cells)

        def maybe(self, x: int) -> int:
            self.cells.append(x)
            if x:
                return x

        def twice(self, x: int) -> int:
            self.drop(x)
            return self.drop(x)

        def size(self) -> int:
            return len(self.cells)
''')


def _weavable(name: str, consumer_params: str = "value: float") -> bool:
    model = analyse(GRID, "Grid")
    node = next(n for n in ast.walk(ast.parse(GRID)) if isinstance(n, ast.FunctionDef) and n.name == name)
    sink = analyse(f"class Sink:\n    def add(self, {consumer_params}) -> None:\n        self.v = value\n", "Sink")
    return weavable(node, model, tuple(m for m in model.methods if m != "__init__"), sink.methods["add"], "value")


def test_a_link_lives_inside_an_operation_only_when_every_path_returns_and_nothing_else_calls_it():
    assert _weavable("twice")  # an operation returning on every path, called by no other method
    assert not _weavable("drop")  # `twice` calls it: its docstring would not say that values cross
    assert not _weavable("maybe")  # falls off the end on one path
    assert not _weavable("size")  # a query: a link method reads it instead
    assert not _weavable("twice", "value: float, label: str")  # the consumer needs more than the value


def test_the_links_paragraph_goes_before_the_field_list():
    text = "Drop grains.\n\nThe grid settles.\n\n:param x: where.\n:return: topplings.\n\n>>> 1\n1"
    out = paragraph_inserted(text, "The topplings are counted.")
    assert out == ("Drop grains.\n\nThe grid settles.\n\nThe topplings are counted.\n\n:param x: where.\n"
                   ":return: topplings.\n\n>>> 1\n1")
    assert paragraph_inserted("One line.", "More.") == "One line.\n\nMore."
