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
from tests.pipeline.classeval_style import TICKET_BOOKING, WALLET


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
