"""Each feature applies only where its fit rule holds (grounded in what the class's operations are), says why
it was skipped otherwise, and writes its text in the seed's docstring style and the class's own words."""

import ast
import re

import pytest
from synthesis_samples import WALLET

from core.analysis.class_model import analyse
from pipeline.synthesis import transforms
from pipeline.synthesis.enhance import apply_features, skipped_transforms
from pipeline.synthesis.transforms.base import FEATURE_FIELDS
from pipeline.synthesis.transforms.voice import GOOGLE, PROSE, REST, docstring_style

QUEUE = '''class TicketQueue:
    """Tickets waiting for an agent, served in arrival order."""

    def __init__(self) -> None:
        self.waiting: list[str] = []
        self.now = 0

    def open_ticket(self, title: str) -> int:
        """Queue a ticket; return how many wait."""
        if not title:
            raise ValueError("empty title")
        self.waiting.append(title)
        return len(self.waiting)

    def advance_clock(self, minutes: int) -> int:
        """Move the queue's clock forward; return the time."""
        self.now += minutes
        return self.now

    def assign_next(self) -> str:
        """Take the oldest ticket."""
        return self.waiting.pop(0)

    def lookup(self, index: int) -> str:
        """Return the ticket at a position."""
        return self.waiting[index]

    def position(self, title: str) -> int:
        """Return where a ticket waits."""
        return self.waiting.index(title)
'''

MONITOR = '''class LatencyMonitor:
    """Request latencies and how many exceed a limit."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.samples: list[float] = []

    def record_many(self, values: list[float]) -> int:
        """Record latencies; return how many are kept."""
        self.samples.extend(values)
        return len(self.samples)

    def breaches(self) -> int:
        """Return how many samples exceed the limit."""
        return sum(1 for s in self.samples if s > self.limit)

    def worst(self) -> float:
        """Return the largest sample, 0.0 if none."""
        return max(self.samples, default=0.0)
'''

NOTEBOOK = '''class Notebook:
    """Notes a writer keeps; adding a note never fails."""

    def __init__(self) -> None:
        self.notes: list[str] = []

    def add_note(self, text: str) -> int:
        """Add a note; return how many there are."""
        self.notes.append(text)
        return len(self.notes)

    def size(self) -> int:
        """Return how many notes there are."""
        return len(self.notes)

    def last(self) -> str:
        """Return the newest note, or an empty string."""
        return self.notes[-1] if self.notes else ""
'''


def _skipped(source: str, name: str) -> dict[str, str]:
    model = analyse(source, name, FEATURE_FIELDS)
    return {n: entry["reason"] for n, entry in skipped_transforms(model, list(transforms.REGISTRY)).items()}


def test_undo_and_the_lock_skip_a_clock_and_a_queues_arrival_order():
    skipped = _skipped(QUEUE, "TicketQueue")
    assert skipped["history_undo"] == skipped["freeze_lock"] == "clock_operation"
    without_clock = QUEUE.replace("advance_clock", "rename_queue")
    assert _skipped(without_clock, "TicketQueue")["history_undo"] == "arrival_order"
    assert "method_statistics" not in skipped  # lookups and positions are requests a service answers


def test_a_measuring_class_gets_neither_undo_nor_lock_nor_call_counters():
    skipped = _skipped(MONITOR, "LatencyMonitor")
    assert {skipped[n] for n in ("history_undo", "freeze_lock", "method_statistics")} == {"measuring_class"}
    assert "combined_summary" not in skipped and "input_validation" not in skipped


def test_call_counters_need_requests_and_a_batch_needs_an_operation_that_can_fail():
    skipped = _skipped(NOTEBOOK, "Notebook")
    assert skipped["method_statistics"] == "not_service_like"
    assert skipped["atomic_batch"] == "cannot_fail"
    assert "history_undo" not in skipped and "freeze_lock" not in skipped  # a writer's notes are edits


def _class_and_methods(source: str, name: str) -> dict[str, str]:
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == name)
    docs = {n.name: ast.get_docstring(n) or "" for n in cls.body if isinstance(n, ast.FunctionDef)}
    return {"<class>": ast.get_docstring(cls) or "", **docs}


GOOGLE_WALLET = WALLET.replace('''        """Add money; return the new balance."""''', '''        """Add money.

        Args:
            amount: what to put in.

        Returns:
            The new balance.
        """''')
REST_WALLET = WALLET.replace('''        """Add money; return the new balance."""''', '''        """Add money.

        :param amount: what to put in.
        :return: the new balance.
        """''')


def test_added_text_follows_the_seeds_docstring_style():
    assert docstring_style(analyse(REST_WALLET, "Wallet")) == REST
    assert docstring_style(analyse(NOTEBOOK, "Notebook")) == PROSE
    rest = _class_and_methods(apply_features(REST_WALLET, "Wallet", ["history_undo"]), "Wallet")
    assert ":raises IndexError:" in rest["undo"] and "Raises:" not in rest["undo"]
    features = ["history_undo", "freeze_lock", "method_statistics"]
    google = _class_and_methods(apply_features(GOOGLE_WALLET, "Wallet", features), "Wallet")
    assert docstring_style(analyse(GOOGLE_WALLET, "Wallet")) == GOOGLE
    assert "Raises:\n    IndexError:" in google["undo"] and "Returns:\n    " in google["undo"]
    assert not any(":raises" in d or ":return" in d or ":param" in d for d in google.values())
    prose = _class_and_methods(apply_features(NOTEBOOK, "Notebook", ["history_undo"]), "Notebook")
    assert not any(":raises" in d or "Raises:" in d for d in prose.values())
    assert "``IndexError``" in prose["undo"]


def test_the_text_speaks_of_the_class_in_its_own_words():
    notebook = _class_and_methods(apply_features(NOTEBOOK, "Notebook", ["history_undo", "freeze_lock"]), "Notebook")
    wallet = _class_and_methods(apply_features(WALLET, "Wallet", ["history_undo", "freeze_lock"]), "Wallet")
    assert "notebook" in notebook["<class>"] and "notes" in notebook["<class>"]
    assert "wallet" in wallet["<class>"] and "balance" in wallet["<class>"]
    for name in ("undo", "freeze", "is_frozen", "unfreeze"):
        assert notebook[name] != wallet[name]


@pytest.mark.parametrize("name", list(transforms.REGISTRY))
def test_every_transform_states_its_fit_rule(name):
    doc = " ".join((type(transforms.get(name)).__doc__ or "").split())
    assert re.search(r"\bfits? an? ", doc) and re.search(r"\b(does|do) not fit\b", doc)
