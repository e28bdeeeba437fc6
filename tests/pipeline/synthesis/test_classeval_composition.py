"""Two ClassEval-style tasks imported as seeds compose when one's text states a payment and the other's an
account that takes it: the composer's entry point makes a candidate whose checkout pays into the wallet,
and whose tests show the payment arrive."""

from __future__ import annotations

from pathlib import Path

from core import settings
from core.records import Candidate, Origin
from pipeline.corpus.classeval_seeds import import_as_seeds
from pipeline.corpus.seeds import load_seed
from pipeline.synthesis.compose import compose_pair
from pipeline.synthesis.config import ComposeConfig
from tests.pipeline.classeval_style import TICKET_BOOKING, TRANSFER_WALLET, WALLET


def test_an_imported_checkout_and_wallet_make_a_composed_candidate(tmp_path: Path, sandbox_pool):
    import_as_seeds([TICKET_BOOKING, WALLET], "style.json", tmp_path, settings.PROJECT_ROOT / "seeds" / "domains.toml")
    booking = load_seed(tmp_path / "Business_App" / "ticket_booking", "Business_App")
    wallet = load_seed(tmp_path / "Finance_Ecommerce" / "wallet", "Finance_Ecommerce")
    candidate = compose_pair(booking, wallet, ComposeConfig(max_tests=12), pool=sandbox_pool)
    assert isinstance(candidate, Candidate), candidate
    assert candidate.origin is Origin.COMPOSED
    assert set(candidate.domains) == {"Business_App", "Finance_Ecommerce"}
    assert "The total price of the ticket booking is deposited into the wallet." in candidate.skeleton
    checkout = candidate.solution_code.split("def checkout(self", 1)[1].split("\n    def ", 1)[0]
    assert "self.deposit(" in checkout  # woven: the checkout itself pays in, as a person writes it
    assert "checkout()" in candidate.test_code and "get_history(" in candidate.test_code


def test_a_method_taking_another_wallet_is_left_out_of_the_hybrid_and_said_so(tmp_path: Path, sandbox_pool):
    # `transfer(other_wallet, amount)` would take another TicketBookingWallet in the hybrid: no test builds one,
    # and the gate would reject the candidate `untested_method` for it
    import_as_seeds([TICKET_BOOKING, TRANSFER_WALLET], "style.json", tmp_path,
                    settings.PROJECT_ROOT / "seeds" / "domains.toml")
    booking = load_seed(tmp_path / "Business_App" / "ticket_booking", "Business_App")
    wallet = load_seed(tmp_path / "Finance_Ecommerce" / "wallet", "Finance_Ecommerce")
    assert "def transfer(self, other_wallet" in wallet.source
    candidate = compose_pair(booking, wallet, ComposeConfig(max_tests=12), pool=sandbox_pool)
    assert isinstance(candidate, Candidate), candidate
    assert "def transfer(" not in candidate.solution_code and "def transfer(" not in candidate.skeleton
    assert ".transfer(" not in candidate.test_code
    assert "Left out of this class: ``transfer`` of the Wallet part, which takes another Wallet." in \
        " ".join(candidate.skeleton.split())
    assert candidate.generator.parameters["left_out"] == ["Wallet.transfer"]
    assert "transfer" not in candidate.generator.parameters["parts"]["Wallet"]["methods"]
    assert "self.deposit(" in candidate.solution_code.split("def checkout(self", 1)[1].split("\n    def ", 1)[0]


def test_an_imported_list_whose_order_no_docstring_states_is_compared_sorted(tmp_path: Path, sandbox_pool):
    # ClassEval's docstrings were not written with the pipeline's tests: where one leaves a list's order open,
    # the composed task's tests compare the items, as for a mined class (a bundled seed states its orders)
    unordered = {key: value.replace("The recorded entries in order, or only", "The recorded entries, or only")
                 if isinstance(value, str) else value for key, value in WALLET.items()}
    assert unordered["skeleton"] != WALLET["skeleton"]
    import_as_seeds([TICKET_BOOKING, unordered], "style.json", tmp_path,
                    settings.PROJECT_ROOT / "seeds" / "domains.toml")
    booking = load_seed(tmp_path / "Business_App" / "ticket_booking", "Business_App")
    wallet = load_seed(tmp_path / "Finance_Ecommerce" / "wallet", "Finance_Ecommerce")
    candidate = compose_pair(booking, wallet, ComposeConfig(max_tests=12), pool=sandbox_pool)
    assert isinstance(candidate, Candidate), candidate
    compared = [line for line in candidate.test_code.splitlines() if "get_history(" in line and "==" in line
                and "), (" in line.split("==", 1)[1]]  # two items or more: one item has no order
    assert compared and all("sorted(" in line for line in compared), compared
