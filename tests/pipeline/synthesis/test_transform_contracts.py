"""Transforms state their contracts and check that they fit: what the oracle tests will observe is in the
docstrings, features combine as stated, and a transform that does not fit a class is skipped with a reason."""

import ast

import pytest
from synthesis_samples import ACCOUNT, WALLET

from core.analysis.class_model import analyse
from core.analysis.statements import pinned_exceptions
from pipeline.synthesis import transforms
from pipeline.synthesis.enhance import apply_features, skipped_transforms
from pipeline.synthesis.transforms import history, statistics
from pipeline.synthesis.transforms.base import FEATURE_FIELDS, TransformError
from pipeline.synthesis.transforms.voice import Voice
from validation.faithful import leaves_stated

ALL_BUT_BATCH = ["input_validation", "history_undo", "freeze_lock", "combined_summary", "method_statistics",
                 "snapshot_roundtrip"]


def _model(source: str, class_name: str = "Wallet"):
    return analyse(source, class_name, FEATURE_FIELDS)


def _docstrings(source: str, class_name: str = "Wallet") -> dict[str, str]:
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == class_name)
    docs = {n.name: ast.get_docstring(n) or "" for n in cls.body if isinstance(n, ast.FunctionDef)}
    docs["<class>"] = ast.get_docstring(cls) or ""
    return {k: " ".join(v.split()) for k, v in docs.items()}


def _reason(name: str, source: str, class_name: str) -> str:
    with pytest.raises(TransformError) as caught:
        transforms.get(name).check(_model(source, class_name))
    return caught.value.reason


@pytest.fixture(scope="module")
def enhanced() -> str:
    return apply_features(WALLET, "Wallet", ALL_BUT_BATCH)


def test_statistics_state_once_that_inside_calls_are_not_counted(enhanced):
    docs = _docstrings(enhanced)
    policy = " ".join(statistics.policy(Voice.of(_model(WALLET), ["deposit"])).split())
    assert policy in docs["<class>"] and "wallet" in policy
    assert policy not in docs["call_count"] and policy not in docs["call_counts"]


def test_the_class_states_once_that_the_freeze_check_comes_first(enhanced):
    docs = _docstrings(enhanced)
    for name in ("deposit", "withdraw", "try_withdraw", "withdraw_all", "undo"):
        assert "FrozenStateError" not in docs[name]  # stated once, in the class docstring
        assert "FrozenStateError" in pinned_exceptions(docs[name], docs["<class>"])
    assert "raises ``FrozenStateError`` before the argument checks" in docs["<class>"]


def test_validation_names_exactly_the_methods_that_check_once(enhanced):
    docs = _docstrings(enhanced)
    assert "``deposit``, ``withdraw`` and ``try_withdraw``" in docs["<class>"]
    assert "No other wallet method checks types" in docs["<class>"]
    assert not any("InvalidArgumentError" in docs[name] for name in ("deposit", "withdraw", "try_withdraw"))


def test_history_states_which_calls_are_undoable_once(enhanced):
    docs = _docstrings(enhanced)
    assert "a call of ``try_withdraw`` that returns False" in docs["<class>"]  # the one method returning a bool
    assert not any("returning False" in doc or "Undoable" in doc for doc in docs.values())
    text = history.class_text(Voice.of(_model(WALLET), ["deposit"], ("balance",)), "``deposit``", [])
    # which calls are undoable says nothing of what a failed call leaves: the gate still varies that
    assert not leaves_stated(text) and not leaves_stated(docs["undo"])
    assert leaves_stated("A failed call changes nothing.") and leaves_stated("The ledger stays unchanged.")


def test_snapshot_states_each_key_and_value(enhanced):
    doc = _docstrings(enhanced)["to_dict"]
    assert '``"owner"``: a ``str``, the ``owner`` argument given to the constructor' in doc
    assert '``"balance"``: an ``int`` equal to what ``current()`` returns' in doc
    assert '``"ledger"``: a ``list[int]`` equal to what ``entries()`` returns' in doc


def test_snapshot_skips_a_field_nothing_public_shows():
    # Account keeps its ledger but shows only its length: a whole-snapshot literal would pin the ledger down.
    assert _reason("snapshot_roundtrip", ACCOUNT, "Account") == "unstated_field"


CONNECTED = '''import sqlite3


class Store:
    """Rows in memory."""

    def __init__(self) -> None:
        self.conn = sqlite3.connect(":memory:")
        self.count = 0

    def put(self, key: str) -> int:
        """Store a key; return how many are stored."""
        self.conn.execute("select 1")
        self.count += 1
        return self.count

    def size(self) -> int:
        """Return how many keys are stored."""
        return self.count
'''


@pytest.mark.parametrize("name", ["snapshot_roundtrip", "history_undo", "atomic_batch"])
def test_state_copying_features_skip_a_connection(name):
    assert _reason(name, CONNECTED, "Store") == "not_plain_data"


CACHED = WALLET.replace('''        self.ledger: list[int] = []
''', '''        self.ledger: list[int] = []
        self._report = None
''').replace('''    def entries(self) -> list[int]:''', '''    def report(self) -> str:
        """Return the balance as text."""
        if self._report is None:
            self._report = f"{self.owner}: {self.balance}"
        return self._report

    def report_cache(self) -> str | None:
        """Return the cached report text."""
        return self._report

    def entries(self) -> list[int]:''')


def test_snapshot_skips_a_cache():
    assert _reason("snapshot_roundtrip", CACHED, "Wallet") == "cache_field"


GAME = '''class Game:
    """Two players take turns."""

    def __init__(self) -> None:
        self.moves: list[str] = []

    def play(self, move: str) -> None:
        """Play a move."""
        self.moves.append(move)

    def turns(self) -> int:
        """Return how many moves were played."""
        return len(self.moves)

    def last(self) -> str:
        """Return the last move, or an empty string."""
        return self.moves[-1] if self.moves else ""

    def winner(self) -> str:
        """Return the winner.

        :raises ValueError: if the game is not over.
        """
        if len(self.moves) < 9:
            raise ValueError("the game is not over")
        return self.moves[-1]

    def leader(self) -> str:
        """Return the current leader (the winner's rule applied early)."""
        return self.winner()
'''


def test_summary_leaves_out_queries_that_raise_on_some_state():
    after = transforms.get("combined_summary").apply(GAME, _model(GAME, "Game"))
    overview = after[after.index("def overview"):after.index("def changed_since")]
    assert "self.turns()" in overview and "self.last()" in overview
    assert "winner" not in overview and "leader" not in overview


def test_summary_is_skipped_when_too_few_safe_queries_remain():
    source = GAME.replace("def last(self) -> str:", "def last(self, default: str) -> str:")
    assert _reason("combined_summary", source, "Game") == "may_raise"


def test_skipped_transforms_carry_their_reasons():
    skipped = skipped_transforms(_model(ACCOUNT, "Account"), list(transforms.REGISTRY))
    assert set(skipped) == {"snapshot_roundtrip"}
    assert skipped["snapshot_roundtrip"]["reason"] == "unstated_field"
    assert "ledger" in skipped["snapshot_roundtrip"]["detail"]


BEHAVIOUR = '''import pytest

from wallet import FrozenStateError, Wallet


def test_a_call_one_method_makes_to_another_is_not_counted():
    wallet = Wallet("ada", 10)
    assert wallet.withdraw_all() == 10
    assert wallet.call_counts() == {"withdraw_all": 1}


def test_the_queries_an_overview_calls_are_not_counted():
    wallet = Wallet("ada", 10)
    wallet.overview()
    wallet.changed_since({})
    assert wallet.call_counts() == {}


def test_a_call_that_raises_counts_and_the_next_one_counts_too():
    wallet = Wallet("ada")
    with pytest.raises(ValueError):
        wallet.withdraw(5)
    assert wallet.current() == 0
    assert wallet.call_counts() == {"current": 1, "withdraw": 1}


def test_a_frozen_instance_refuses_a_bad_argument_with_the_freeze_error():
    wallet = Wallet("ada", 10)
    wallet.freeze()
    with pytest.raises(FrozenStateError):
        wallet.deposit("5")
    assert wallet.rejected_argument_counts() == {}
    assert wallet.call_counts() == {"deposit": 1}


def test_undo_respects_the_freeze_lock():
    wallet = Wallet("ada", 10)
    wallet.deposit(5)
    wallet.freeze()
    with pytest.raises(FrozenStateError):
        wallet.undo()
    assert wallet.current() == 15
    wallet.unfreeze()
    assert wallet.undo() == "deposit"
    assert wallet.current() == 10


def test_failed_calls_and_no_ops_are_not_undoable():
    wallet = Wallet("ada", 10)
    assert wallet.try_withdraw(50) is False
    assert wallet.withdraw_all() == 10
    assert wallet.withdraw_all() == 0
    with pytest.raises(ValueError):
        wallet.deposit(0)
    assert wallet.undo_history() == ["withdraw_all"]


def test_the_snapshot_has_the_stated_shape_and_restores_a_working_instance():
    wallet = Wallet("ada", 10)
    wallet.deposit(5)
    assert wallet.to_dict() == {"owner": "ada", "balance": wallet.current(), "ledger": wallet.entries()}
    restored = Wallet.from_dict(wallet.to_dict())
    assert restored.same_state_as(wallet)
    assert restored.deposit(1) == 16
    assert restored.call_counts() == {"deposit": 1}
'''


def test_combined_features_behave_as_their_docstrings_say(sandbox_pool, enhanced):
    from validation.sandbox import SandboxJob

    result = sandbox_pool.run(SandboxJob(files={"wallet.py": enhanced, "test_wallet.py": BEHAVIOUR},
                                         test_file="test_wallet.py"))
    assert result.counts() == {"passed": 7}, result.output[-3000:]


def test_a_batch_is_an_inside_caller_and_is_locked_while_frozen(sandbox_pool):
    from validation.sandbox import SandboxJob

    source = apply_features(WALLET, "Wallet", ["atomic_batch", "freeze_lock", "method_statistics"])
    tests = '''import pytest

from wallet import FrozenStateError, Wallet


def test_batch():
    wallet = Wallet("ada", 10)
    assert wallet.apply_batch([("deposit", [5]), ("withdraw", [3])]) == [15, 12]
    assert wallet.call_counts() == {}
    wallet.freeze()
    with pytest.raises(FrozenStateError):
        wallet.apply_batch([("deposit", [5])])
    assert wallet.current() == 12
'''
    result = sandbox_pool.run(SandboxJob(files={"wallet.py": source, "test_wallet.py": tests},
                                         test_file="test_wallet.py"))
    assert result.counts() == {"passed": 1}, result.output[-3000:]


def test_a_query_that_fills_a_cache_is_neither_locked_nor_undoable():
    # report() keeps the text it computed: no state change to a reader, so freezing must not refuse it
    # and undo must not record it.
    from pipeline.synthesis.transforms.freeze import locked_methods
    from pipeline.synthesis.transforms.history import operations

    model = _model(CACHED)
    assert "report" in model.mutators
    assert "report" not in locked_methods(model) and "deposit" in locked_methods(model)
    assert "report" not in operations(model)
    after = apply_features(CACHED, "Wallet", ["history_undo"])
    assert "for key in after if key not in ('_report',)" in after
