"""Golden before/after tests of every feature transform on a small inline class (static: nothing runs)."""

import pytest
from synthesis_samples import ACCOUNT, WALLET

from core.analysis.class_model import analyse
from pipeline.synthesis import transforms
from pipeline.synthesis.enhance import apply_features
from pipeline.synthesis.transforms.base import FEATURE_FIELDS, FEATURE_METHODS, TransformError


def _apply(name: str, source: str = ACCOUNT, class_name: str = "Account") -> str:
    return transforms.get(name).apply(source, analyse(source, class_name, FEATURE_FIELDS))


def _method_source(source: str, name: str) -> str:
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"    def {name}("))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("    def ")), len(lines))
    return "\n".join(lines[start:end]).rstrip()


def test_history_undo_golden():
    after = _apply("history_undo")
    assert "import copy" in after
    assert "self._undo_stack: list[tuple[str, dict]] = []" in after
    # the undo rules are stated once, in the class docstring; the method's own docstring is left as it was
    assert _method_source(after, "withdraw") == '''    def withdraw(self, amount: int) -> int:
        """Take money out; return the new balance."""
        _undo_before = self._capture_state()
        try:
            if amount > self.balance:
                raise ValueError("insufficient funds")
            self.balance -= amount
            self.ledger.append(-amount)
            return self.balance
        except Exception:
            _undo_before = None
            raise
        finally:
            if _undo_before is not None:
                self._record_operation("withdraw", _undo_before)'''
    assert _method_source(after, "_restore_state") == '''    def _restore_state(self, state: dict) -> None:
        """Put back the account's owner, balance and ledger from a copy made by ``_capture_state``."""
        self.owner = copy.deepcopy(state["owner"])
        self.balance = copy.deepcopy(state["balance"])
        self.ledger = copy.deepcopy(state["ledger"])'''
    assert "def undo(self) -> str:" in after and "def undo_history(self) -> list[str]:" in after
    assert _method_source(after, "current") == _method_source(ACCOUNT, "current")  # queries untouched


def test_atomic_batch_golden():
    after = _apply("atomic_batch")
    assert "class BatchOperationError(Exception):" in after
    body = _method_source(after, "apply_batch")
    assert 'allowed = ("deposit", "withdraw",)' in body
    assert '''                if name == "deposit":
                    results.append(self.deposit(*arguments))
                elif name == "withdraw":
                    results.append(self.withdraw(*arguments))
            except Exception as error:
                self._restore_state(state)
                raise BatchOperationError(index, name, error) from error''' in body


def test_input_validation_golden():
    after = _apply("input_validation")
    assert "class InvalidArgumentError(TypeError):" in after
    # the rule is stated once, in the class docstring; no `:raises` line is appended per typed parameter
    assert _method_source(after, "deposit").splitlines()[1:5] == [
        '        """Add money; return the new balance."""',
        '        self._check_argument("deposit", "amount", amount, (int,))',
        "        if amount <= 0:",
        '            raise ValueError("amount must be positive")',
    ]
    assert "def rejected_argument_counts(self) -> dict[str, int]:" in after


def test_method_statistics_golden():
    after = _apply("method_statistics")
    for name in ("deposit", "withdraw", "current", "movements"):
        source = _method_source(after, name)
        assert f'        _depth = self._enter_call("{name}")\n        try:\n' in source
        assert source.endswith("        finally:\n            self._leave_call(_depth)")
    assert 'if method not in ("deposit", "withdraw", "current", "movements",):' in after


def test_freeze_lock_golden():
    after = _apply("freeze_lock")
    assert '        self._ensure_writable("deposit")' in _method_source(after, "deposit")
    assert "_ensure_writable" not in _method_source(after, "current")
    assert "class FrozenStateError(RuntimeError):" in after


def test_combined_summary_golden():
    after = _apply("combined_summary")
    assert '''        return {
            "current": self.current(),
            "movements": self.movements(),
        }''' in _method_source(after, "overview")


def test_snapshot_roundtrip_golden():
    after = _apply("snapshot_roundtrip", WALLET, "Wallet")
    assert '''        return {
            "owner": copy.deepcopy(self.owner),
            "balance": copy.deepcopy(self.balance),
            "ledger": copy.deepcopy(self.ledger),
        }''' in _method_source(after, "to_dict")
    assert "    @classmethod\n    def from_dict(cls, data: dict) -> \"Wallet\":" in after


def test_snapshot_after_other_features_restarts_their_bookkeeping():
    after = apply_features(WALLET, "Wallet", ["history_undo", "method_statistics", "snapshot_roundtrip"])
    from_dict = _method_source(after, "from_dict")
    assert "instance._undo_stack = []" in from_dict and "instance._call_counts = {}" in from_dict
    assert "instance._call_depth = 0" in from_dict
    assert "_undo_stack" not in _method_source(after, "to_dict")


def test_counting_calls_does_not_turn_queries_into_mutators():
    after = apply_features(ACCOUNT, "Account", ["method_statistics"])
    model = analyse(after, "Account", FEATURE_FIELDS)
    assert sorted(m.name for m in model.queries() if m.name not in FEATURE_METHODS) == ["current", "movements"]


def test_every_transform_keeps_the_original_behaviour_text():
    for name in transforms.REGISTRY:
        after = _apply(name, WALLET, "Wallet")
        compile(after, name, "exec")
        assert 'raise ValueError("insufficient funds")' in after


def test_summary_refuses_class_without_queries():
    source = ACCOUNT.replace("def current(self) -> int:", "def current(self, scale: int) -> int:")
    with pytest.raises(TransformError):
        _apply("combined_summary", source)


def test_name_clash_is_a_transform_error():
    source = ACCOUNT.replace("def movements(self)", "def undo(self)")
    with pytest.raises(TransformError):
        _apply("history_undo", source)
