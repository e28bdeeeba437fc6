"""A composed class keeps both parts' whole specifications, and its docstring examples run on the hybrid."""

import ast
import random

from core.analysis.skeleton import make_skeleton
from core.records import Candidate, Decision, GeneratorSpec, Origin, Provenance, SeedClass
from pipeline.synthesis.compose import fuse
from pipeline.synthesis.fused_docs import PartDocs, constructor_values, docstring_literal

WALLET = '''"""Coins by currency."""


class InsufficientFunds(ValueError):
    """Spending more than there is."""


class Wallet:
    """Coins of one owner.

    Amounts are whole cents. Spending more than the total raises
    ``InsufficientFunds``; nothing is spent then.

    >>> w = Wallet("ada", 5)
    >>> w.add(250)
    255
    """

    def __init__(self, owner: str, bonus: int = 0) -> None:
        """Open a wallet.

        :param owner: who owns it.
        :param bonus: cents credited at once.

        >>> Wallet("bo").total()
        0
        """
        self.owner = owner
        self.cents = bonus

    def add(self, cents: int) -> int:
        """Add ``cents``.

        :param cents: how many cents.
        :return: the new total.
        """
        self.cents += cents
        return self.cents

    def spend(self, cents: int) -> int:
        """Spend ``cents``.

        :param cents: how many cents.
        :return: the new total.
        :raises InsufficientFunds: if ``cents`` exceeds the total.
        """
        if cents > self.cents:
            raise InsufficientFunds("not enough")
        self.cents -= cents
        return self.cents

    def total(self) -> int:
        """Return the cents held.

        >>> Wallet("cy", 2).total()
        2
        """
        return self.cents
'''

LEDGER = r'''"""Entries of a ledger."""


class InsufficientFunds(Exception):
    """A full ledger."""


class Ledger:
    r"""Entries of a named ledger.

    Entries keep their insertion order and ``total`` sums them. A ledger
    holds at most ``limit`` entries; :meth:`record` raises
    ``InsufficientFunds`` past that. Names match ``\w+``.

    >>> book = Ledger("acme", limit=3)
    >>> book.record(4)
    1
    >>> book.total(), book.owner
    (4, 'acme')
    """

    def __init__(self, owner: str, limit: int = 10) -> None:
        """Open an empty ledger.

        Args:
            owner: the ledger's name.
            limit: most entries.
        """
        self.owner = owner
        self.limit = limit
        self.entries: list[int] = []

    def record(self, amount: int) -> int:
        """Record ``amount``.

        :param amount: any integer.
        :return: how many entries there are.
        :raises InsufficientFunds: if the ledger is full.

        >>> book = Ledger("x", 1)
        >>> book.record(2), book.total()
        (1, 2)
        """
        if len(self.entries) >= self.limit:
            raise InsufficientFunds("full")
        self.entries.append(amount)
        return len(self.entries)

    def rename(self, owner: str) -> str:
        """Give the ledger the name ``owner``.

        :param owner: the new name.
        :return: the old name.
        """
        old, self.owner = self.owner, owner
        return old

    def total(self) -> int:
        """Return the sum of the entries (what :meth:`record` added).

        :return: the sum.
        """
        return sum(self.entries)
'''


def _seed(domain: str, name: str, class_name: str, source: str) -> SeedClass:
    return SeedClass(seed_id=f"{domain}/{name}", domain=domain, name=name, class_name=class_name,
                     description=f"{name} in {domain}.", source=source, tests="", provenance=Provenance())


def _fused():
    return fuse(_seed("Finance", "wallet", "Wallet", WALLET), _seed("Text", "ledger", "Ledger", LEDGER),
                random.Random(3), max_links=0)


def _docs(source: str, class_name: str) -> dict[str, str]:
    tree = ast.parse(source)
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    out = {class_name: ast.get_docstring(node)}
    out.update({f.name: ast.get_docstring(f) for f in node.body if isinstance(f, ast.FunctionDef)})
    return out


def test_a_renamed_parameter_leaves_the_field_of_that_name_alone():
    fusion = _fused()
    # `owner` is a field of both parts (renamed in the second) and a parameter of both constructors
    assert "self.owner = owner" in fusion.source and "self.ledger_owner = ledger_owner" in fusion.source
    wallet = WALLET.replace("bonus: int = 0)", "bonus: int = 0, limit: int = 0)").replace(
        "self.cents = bonus", "self.cents = bonus\n        self.cap = limit")
    fusion = fuse(_seed("Finance", "wallet", "Wallet", wallet), _seed("Text", "ledger", "Ledger", LEDGER),
                  random.Random(3), max_links=0)
    # `limit` now collides as a parameter only: the second part's field keeps its name, where it is set
    # and where `record` reads it
    assert "self.limit = ledger_limit" in fusion.source and "self.ledger_limit" not in fusion.source


def test_the_hybrid_keeps_every_paragraph_of_both_parts():
    fusion = _fused()
    docs = _docs(make_skeleton(fusion.source, fusion.class_name), "WalletLedger")
    cls = docs["WalletLedger"]
    assert "Amounts are whole cents. Spending more than the total raises\n``InsufficientFunds``" in cls
    # the second part's prose names what the fusion renamed: its `total` method and its exception class
    assert "Entries keep their insertion order and ``ledger_total`` sums them." in cls
    assert ":meth:`record` raises\n``LedgerInsufficientFunds`` past that. Names match ``\\w+``." in cls
    init = docs["__init__"]
    assert ":param owner: who owns it." in init and ":param bonus: cents credited at once." in init
    assert "Args:\n    ledger_owner: the ledger's name.\n    limit: most entries." in init
    assert ":raises LedgerInsufficientFunds: if the ledger is full." in docs["record"]
    assert "what :meth:`record` added" in docs["ledger_total"]
    # a method's own parameter keeps its name, though the constructor parameter of that name was renamed
    assert "the name ``owner``.\n\n:param owner: the new name." in docs["rename"]


def test_examples_build_the_hybrid_with_both_parts_required_arguments():
    docs = _docs(_fused().source, "WalletLedger")
    cls = docs["WalletLedger"]
    # a part's own arguments by keyword, the other part's required ones from the other part's examples
    assert '>>> w = WalletLedger(owner="ada", bonus=5, ledger_owner="acme")' in cls
    assert '>>> book = WalletLedger(ledger_owner="acme", limit=3, owner="ada")' in cls
    assert ">>> book.ledger_total(), book.ledger_owner" in cls  # renamed members, on the instance only
    assert '>>> WalletLedger(owner="bo", ledger_owner="acme").total()' in docs["__init__"]
    assert '>>> book = WalletLedger(ledger_owner="x", limit=1, owner="ada")' in docs["record"]


def test_the_hybrids_examples_run_against_it(sandbox_pool):
    from judges.offline.specification import SpecificationJudge
    from validation.suite_runner import SandboxSuiteRunner

    fusion = _fused()
    candidate = Candidate(candidate_id="c", class_name=fusion.class_name, module_name=fusion.module_name,
                          domains=("Finance", "Text"), description="d",
                          skeleton=make_skeleton(fusion.source, fusion.class_name), solution_code=fusion.source,
                          test_code="def test_nothing():\n    pass\n", origin=Origin.COMPOSED,
                          provenance=Provenance(), generator=GeneratorSpec(backend="offline"))
    verdict = SpecificationJudge(SandboxSuiteRunner(sandbox_pool)).review(candidate, None)
    assert verdict.decision is Decision.ACCEPT, verdict.findings
    examples = next(f for f in verdict.findings if f.criterion == "reference_correct")
    assert examples.note == "the examples of 4 docstring(s) agree with the reference"


def test_constructor_values_prefer_the_docstring_then_the_tests():
    params, required = ("owner", "limit"), ("owner",)
    assert constructor_values(LEDGER, "Ledger", params, required) == {"owner": '"acme"'}
    no_examples = LEDGER.replace(">>>", "->")
    assert constructor_values(no_examples, "Ledger", params, required, [(("'t'", "2"), ())]) == {"owner": "'t'"}
    assert constructor_values(no_examples, "Ledger", params, required) == {}


def test_an_example_that_cannot_be_rewritten_stays_as_written():
    part = PartDocs("Ledger", "WalletLedger", ("owner", "limit"), others=(("owner", '"a"'),))
    text = ">>> Ledger(*names)\n>>> Ledger(1, 2, 3)\n>>> Ledger(\n"
    assert part.rewrite(text) == text.replace("Ledger(", "WalletLedger(")


def test_docstring_literals_keep_their_text():
    for text in ("one line", "a\n\n  indented\nb", r"regex \d+ and a \n escape", 'say """hi"""'):
        literal = docstring_literal(text, "    ")
        assert ast.get_docstring(ast.parse(f"def f():\n    {literal}\n").body[0]) == text
