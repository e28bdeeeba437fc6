"""An imported ClassEval-style task declares in its seed.toml the payments its docstrings state, so that two
tasks a real program would join (a booking desk's checkout paid into a wallet) link and compose, and tasks
whose text states no payment (a game's score, a balance left on an invoice) link to nothing."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from core import settings
from core.analysis.class_model import analyse
from core.errors import InputError
from pipeline.corpus.classeval_ends import derive_ends, read_overlay
from pipeline.corpus.classeval_seeds import import_as_seeds
from pipeline.corpus.seeds import load_seed
from pipeline.synthesis.compose import chosen_links
from pipeline.synthesis.links import may_link, seed_links
from tests.cli_runner import run_cli
from tests.pipeline.classeval_style import DICE_GAME, INVOICE_BOOK, TICKET_BOOKING, WALLET, write_corpus

REGISTRY = settings.PROJECT_ROOT / "seeds" / "domains.toml"


def _imported(tmp_path: Path, entries, **options):
    result = import_as_seeds(entries, "style.json", tmp_path, REGISTRY, **options)
    return result, {seed.class_name: seed for seed in (load_seed(tmp_path / domain / name, domain)
                                                     for domain, names in result.written.items() for name in names)}


def test_a_checkout_total_and_a_wallet_deposit_are_declared_and_link(tmp_path: Path):
    result, seeds = _imported(tmp_path, [TICKET_BOOKING, WALLET])
    assert result.derived_ends == ["TicketBooking", "Wallet"]
    declared = tomllib.loads((tmp_path / "Business_App" / "ticket_booking" / "seed.toml").read_text())
    assert declared["produces"] == [{"method": "checkout", "meaning": "money", "unit": "unstated",
                                     "what": "the total price of the ticket booking", "name": "total_price",
                                     "kind": "payment", "positive": True}]
    booking, wallet = seeds["TicketBooking"], seeds["Wallet"]
    assert [(a.method, a.parameter, a.kinds) for a in wallet.accepts] == [("deposit", "amount", ("payment",))]
    # the query `total_price` is not a producer: the checkout that returns its value is where it is paid
    assert [p.method for p in booking.produces] == ["checkout"]
    [link] = seed_links(booking, wallet)
    assert link.forward and link.accepted.method == "deposit"
    model_b, model_w = analyse(booking.source, booking.class_name), analyse(wallet.source, wallet.class_name)
    [hybrid_link] = chosen_links(booking, model_b, wallet, model_w, random.Random(0), 3, {})
    assert hybrid_link.woven and hybrid_link.call == "checkout"
    assert hybrid_link.sentence == "The total price of the ticket booking is deposited into the wallet."
    assert may_link(booking, wallet)


def test_texts_that_state_no_payment_declare_no_end_and_are_not_paired(tmp_path: Path):
    """A die's score fits a deposit by type, and what remains due on an invoice is money; neither is a
    payment made, so neither is declared, and an imported task without ends is not tried on observed
    types either (those would join on a type match alone)."""
    result, seeds = _imported(tmp_path, [DICE_GAME, INVOICE_BOOK, WALLET])
    assert result.derived_ends == ["Wallet"]
    assert seeds["DiceGame"].produces == () and seeds["DiceGame"].accepts == ()
    assert seeds["InvoiceBook"].produces == ()
    assert not may_link(seeds["DiceGame"], seeds["Wallet"])
    assert seed_links(seeds["InvoiceBook"], seeds["Wallet"]) == []


def test_coins_into_a_machine_are_no_payment_into_an_account():
    source = '''class SnackMachine:
    """A machine that sells snacks and keeps the balance of the coins put in."""

    def __init__(self):
        self.balance = 0

    def insert_coin(self, amount):
        """
        Put coins in.
        :param amount: float, the value of the coins
        :return: float, the balance
        """
        self.balance += amount
        return self.balance
'''
    assert derive_ends(source, "SnackMachine") == ([], [])


def test_a_maintainers_ends_replace_the_derived_ones(tmp_path: Path):
    overlay = tmp_path / "ends.toml"
    overlay.write_text('''
[[Wallet.accepts]]
method = "deposit"
parameter = "amount"
meaning = "money"
unit = "unstated"
role = "put into the wallet"
action = "put {what} into the wallet"
verb = "put"

[[Ghost.produces]]
method = "x"
meaning = "count"
unit = "items"
what = "the items"
name = "items"
''')
    result, seeds = _imported(tmp_path / "seeds", [TICKET_BOOKING, WALLET], overlay=read_overlay(overlay))
    assert result.declared_ends == ["Wallet"] and result.derived_ends == ["TicketBooking"]
    assert [a.role for a in seeds["Wallet"].accepts] == ["put into the wallet"]
    assert "ends declared for Ghost, which no imported task defines" in result.notes


def test_a_bad_ends_file_is_named_with_its_class_and_field(tmp_path: Path):
    overlay = tmp_path / "ends.toml"
    overlay.write_text('[[Wallet.accepts]]\nmethod = "deposit"\n')
    with pytest.raises(InputError, match=r"ends.toml: Wallet.accepts\[0\].parameter: Field required"):
        read_overlay(overlay)
    overlay.write_text('[Wallet]\nmethod = "deposit"\n')
    with pytest.raises(InputError, match=r"\[Wallet\] may hold only produces and accepts tables"):
        read_overlay(overlay)
    # one table where an array of tables belongs: its field names must not be read as ends
    overlay.write_text('[Wallet.accepts]\nmethod = "deposit"\n')
    with pytest.raises(InputError, match=r"Wallet.accepts must be written as \[\[Wallet.accepts\]\] tables"):
        read_overlay(overlay)


def test_the_import_command_names_the_classes_with_ends(tmp_path: Path, monkeypatch, capsys):
    for name in ("CLASSEVAL_PRO_SEEDS", "CLASSEVAL_PRO_DOMAINS"):
        monkeypatch.delenv(name, raising=False)
    overlay = tmp_path / "ends.toml"
    overlay.write_text('[[DiceGame.produces]]\nmethod = "record_roll"\nmeaning = "score"\nunit = "points"\n'
                       'what = "the points a roll scores"\nname = "roll_points"\n')
    source = write_corpus(tmp_path / "style.json", [TICKET_BOOKING, WALLET, DICE_GAME])
    code, out, err = run_cli(monkeypatch, capsys, "import-classeval", str(source), "--as-seeds", str(tmp_path / "s"),
                             "--ends", str(overlay))
    assert code == 0, err
    assert ("derived from the docstrings of 2 class(es): TicketBooking, Wallet; declared by --ends for 1: DiceGame"
            in " ".join(out.split()))
    declared = tomllib.loads((tmp_path / "s" / "Game_Sim" / "dice_game" / "seed.toml").read_text())
    assert [p["name"] for p in declared["produces"]] == ["roll_points"]
