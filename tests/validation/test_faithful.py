"""Faithful variants: made only where the skeleton is silent, and a test that fails one is over-specified.

For each kind, a hand-made candidate whose test pins down what the skeleton leaves open is rejected with
`overspecified_tests` (the failing test and the variant's diff as evidence), and the same candidate with the
test written to the skeleton passes unchanged.
"""

from __future__ import annotations

import pytest

from core.analysis.skeleton import make_skeleton
from core.records import RejectReason
from validation.faithful import VariantKind, faithful_variants, is_computed_float, message_stated
from validation.gate import validate_candidate

LEDGER = '''
class Ledger:
    """Balances of named accounts."""

    def __init__(self):
        self._balances = {}
        self._tags = set()
        self._frozen = False
        self._calls = {}

    def deposit(self, account, amount):
        """Add ``amount`` to ``account``.

        :raises ValueError: if ``amount`` is not positive.
        :raises RuntimeError: if the ledger is frozen.
        """
        self._record("deposit")
        self._ensure_open()
        if amount <= 0:
            raise ValueError(f"amount must be positive, got {amount}")
        self._balances[account] = self._balances.get(account, 0) + amount
        self._tags.add(account[0])

    def balance(self, account):
        """Return the balance of ``account`` (0 for an unknown account)."""
        self._record("balance")
        return self._balances.get(account, 0)

    def share(self, account):
        """Return the share of all money held by ``account``, as a fraction."""
        self._record("share")
        return self.balance(account) / sum(self._balances.values())

    def balances(self):
        """Return account -> balance."""
        return dict(self._balances)

    def initials(self):
        """Return the initial letters of the accounts."""
        return list(self._tags)

    def freeze(self):
        """Refuse deposits from now on."""
        self._frozen = True

    def statement(self, account):
        """Return a line naming ``account`` and its balance."""
        return f"{account} holds {self._balances.get(account, 0)} credits"

    def calls(self):
        """Return method -> calls counted."""
        return dict(self._calls)

    def _ensure_open(self):
        if self._frozen:
            raise RuntimeError("the ledger is frozen")

    def _record(self, name):
        self._calls[name] = self._calls.get(name, 0) + 1
'''

HEADER = "import pytest\nfrom ledger import Ledger\n\n\n"

BASE_TESTS = '''
def test_deposit_then_balance():
    ledger = Ledger()
    ledger.deposit("alice", 5)
    ledger.deposit("bob", 10)
    assert ledger.balance("alice") == 5
    assert ledger.balances() == {"alice": 5, "bob": 10}
    assert sorted(ledger.initials()) == ["a", "b"]


def test_frozen_refuses_deposit():
    ledger = Ledger()
    ledger.freeze()
    with pytest.raises(RuntimeError):
        ledger.deposit("alice", 5)
    assert ledger.balances() == {}


def test_non_positive_amount_refused():
    with pytest.raises(ValueError):
        Ledger().deposit("alice", 0)
'''

# kind -> (over-specified test, the same behaviour checked only as the skeleton states it)
OVER = {
    VariantKind.MESSAGE: ('''
def test_message():
    with pytest.raises(ValueError, match="must be positive"):
        Ledger().deposit("alice", -1)
''', '''
def test_message():
    with pytest.raises(ValueError):
        Ledger().deposit("alice", -1)
'''),
    VariantKind.FLOAT_ULP: ('''
def test_share():
    ledger = Ledger()
    ledger.deposit("alice", 1)
    ledger.deposit("bob", 2)
    assert ledger.share("alice") == 0.3333333333333333
''', '''
def test_share():
    ledger = Ledger()
    ledger.deposit("alice", 1)
    ledger.deposit("bob", 2)
    assert ledger.share("alice") == pytest.approx(1 / 3)
'''),
    VariantKind.GUARD_ORDER: ('''
def test_frozen_with_bad_amount():
    ledger = Ledger()
    ledger.freeze()
    with pytest.raises(RuntimeError):
        ledger.deposit("alice", -1)
''', '''
def test_frozen_with_bad_amount():
    ledger = Ledger()
    ledger.freeze()
    with pytest.raises((RuntimeError, ValueError)):
        ledger.deposit("alice", -1)
'''),
    VariantKind.INTERNAL_ROUTE: ('''
def test_calls_after_share():
    ledger = Ledger()
    ledger.deposit("alice", 2)
    ledger.share("alice")
    assert ledger.calls() == {"deposit": 1, "share": 1, "balance": 1}
''', '''
def test_calls_after_share():
    ledger = Ledger()
    ledger.deposit("alice", 2)
    ledger.share("alice")
    assert ledger.calls()["deposit"] == 1 and ledger.calls()["share"] == 1
'''),
    VariantKind.TEXT_FORMAT: ('''
def test_statement_of_an_account():
    ledger = Ledger()
    ledger.deposit("alice", 5)
    assert ledger.statement("alice") == "alice holds 5 credits"
''', '''
def test_statement_of_an_account():
    ledger = Ledger()
    ledger.deposit("alice", 5)
    text = ledger.statement("alice")
    assert "alice" in text and "5" in text
'''),
    VariantKind.STATE_AFTER_ERROR: ('''
def test_a_refused_deposit():
    ledger = Ledger()
    ledger.deposit("alice", 5)
    with pytest.raises(ValueError):
        ledger.deposit("alice", -1)
    assert ledger.balance("alice") == 5
''', '''
def test_a_refused_deposit():
    ledger = Ledger()
    ledger.deposit("alice", 5)
    with pytest.raises(ValueError):
        ledger.deposit("alice", -1)
    assert ledger.balance("bob") == 0
'''),
    VariantKind.UNORDERED: ('''
def test_order_of_balances():
    ledger = Ledger()
    ledger.deposit("bob", 1)
    ledger.deposit("alice", 2)
    assert list(ledger.balances()) == ["bob", "alice"]
''', '''
def test_order_of_balances():
    ledger = Ledger()
    ledger.deposit("bob", 1)
    ledger.deposit("alice", 2)
    assert sorted(ledger.balances()) == ["alice", "bob"]
'''),
}

POLICY_OFF = dict(run_mutation=False, robustness=False, min_line_coverage=0.0, min_interaction_edge_coverage=0.0,
                  min_methods_on_one_instance=0, require_interaction_edges=False, max_vacuous_share=1.0,
                  method_deletion=False)


def _candidate(candidate_of, tests: str, solution: str = LEDGER):
    candidate = candidate_of(solution, HEADER + BASE_TESTS + tests, "Ledger", "ledger")
    return candidate.model_copy(update={"skeleton": make_skeleton(solution, "Ledger")})


def test_every_kind_has_a_variant_on_a_silent_skeleton():
    variants = {v.kind: v for v in faithful_variants(LEDGER, "Ledger", make_skeleton(LEDGER, "Ledger"))}
    assert set(variants) == set(VariantKind)
    assert "reworded" in variants[VariantKind.MESSAGE].source
    assert "_faithful_direct_balance" in variants[VariantKind.INTERNAL_ROUTE].source
    assert "_faithful_reorder(list(self._tags), True)" in variants[VariantKind.UNORDERED].source
    guard = variants[VariantKind.GUARD_ORDER].source
    assert guard.index("if amount <= 0") < guard.index("self._ensure_open()")
    assert guard.index('self._record("deposit")') < guard.index("if amount <= 0")  # the recorder stays first


def test_stated_details_are_not_varied():
    stated = (LEDGER
              .replace(':raises ValueError: if ``amount`` is not positive.',
                       ':raises ValueError: "amount must be positive, got N" if ``amount`` is not positive.')
              .replace(':raises RuntimeError: if the ledger is frozen.',
                       ':raises RuntimeError: if the ledger is frozen; this is checked before the amount.')
              .replace('"""Return account -> balance."""', '"""Return account -> balance, in insertion order."""')
              .replace('"""Return the share of all money held by ``account``, as a fraction."""',
                       '"""Return the share of all money held by ``account`` (its ``balance``), as a fraction."""'))
    variants = {v.kind: v for v in faithful_variants(stated, "Ledger", make_skeleton(stated, "Ledger"))}
    assert VariantKind.GUARD_ORDER not in variants
    # Naming another method is not stating that it is called (nor whether such calls are counted).
    assert "self._faithful_direct_balance(account)" in variants[VariantKind.INTERNAL_ROUTE].source
    # The deposit message is quoted; the frozen one (in a private helper) is still reworded.
    message = variants[VariantKind.MESSAGE].source
    assert "amount must be positive, got" in message and 'RuntimeError("the ledger is frozen")' not in message
    assert "_faithful_reorder(dict(self._balances))" not in variants[VariantKind.UNORDERED].source


def test_a_stated_text_format_and_a_stated_failure_are_not_varied():
    variants = {v.kind: v for v in faithful_variants(LEDGER, "Ledger", make_skeleton(LEDGER, "Ledger"))}
    assert variants[VariantKind.TEXT_FORMAT].open_words == ("credits", "holds")
    assert 'f"{account} sdloh {self._balances.get(account, 0)} stiderc"' in variants[VariantKind.TEXT_FORMAT].source
    state = variants[VariantKind.STATE_AFTER_ERROR].source
    assert "self._faithful_unchecked_deposit(account, amount)\n            raise ValueError" in state
    copy = state.split("def _faithful_unchecked_deposit", 1)[1]
    assert "self._ensure_open()" in copy and "self._record" not in copy and "amount <= 0" not in copy
    stated = (LEDGER
              .replace('"""Return a line naming ``account`` and its balance."""',
                       '"""Return a line naming ``account`` and its balance: "NAME holds N credits"."""')
              .replace(':raises ValueError: if ``amount`` is not positive.',
                       ':raises ValueError: if ``amount`` is not positive; the ledger is then unchanged.'))
    kinds = {v.kind for v in faithful_variants(stated, "Ledger", make_skeleton(stated, "Ledger"))}
    assert VariantKind.TEXT_FORMAT not in kinds and VariantKind.STATE_AFTER_ERROR not in kinds
    # Prose that merely uses a word of the format does not state it.
    prose = LEDGER.replace('"""Return a line naming ``account`` and its balance."""',
                           '"""Return a line naming ``account`` and the credits it holds."""')
    variants = {v.kind: v for v in faithful_variants(prose, "Ledger", make_skeleton(prose, "Ledger"))}
    assert variants[VariantKind.TEXT_FORMAT].open_words == ("credits", "holds")


def test_computed_floats_and_stated_messages():
    assert is_computed_float(0.025400000000000002) and is_computed_float(8.711754349385727)
    assert not is_computed_float(2.5) and not is_computed_float(0.1) and not is_computed_float(3.0)
    assert not is_computed_float(float("nan")) and not is_computed_float(5)
    assert message_stated("{name} is not a counted method", "raises ValueError: X is not a counted method")
    assert not message_stated("amount must be positive", "raises ValueError if the amount is not positive")


def test_a_silent_skeleton_with_faithful_tests_passes(pool, fast_policy, candidate_of):
    tests = "".join(fair for _, fair in OVER.values())
    report = validate_candidate(_candidate(candidate_of, tests), fast_policy.model_copy(update=POLICY_OFF), pool)
    assert report.passed, report.reasons
    check = report.check("faithful_variants")
    assert check is not None and check.value == 0 and check.passed
    assert set(report.evidence["faithful_variants"]["kinds"]) == {k.value for k in VariantKind}


@pytest.mark.parametrize("kind", list(VariantKind), ids=lambda k: k.value)
def test_an_overspecified_test_is_rejected_with_its_variant(kind, pool, fast_policy, candidate_of):
    over, _ = OVER[kind]
    report = validate_candidate(_candidate(candidate_of, over), fast_policy.model_copy(update=POLICY_OFF), pool)
    assert not report.passed
    assert report.reasons == (RejectReason.OVERSPECIFIED_TESTS,)
    failed = report.evidence["faithful_variants"]["failed"]
    assert [f["kind"] for f in failed] == [kind.value]
    test_name = over.split("def ")[1].split("(")[0]
    assert [t.split("::")[-1] for t in failed[0]["failing_tests"]] == [test_name]
    assert failed[0]["diff"].startswith("--- reference")


class _RecordingPool:
    """The gate's pool, keeping every job it was given."""

    def __init__(self, pool):
        self.pool, self.given = pool, []  # not `jobs`: the pool's own attribute (its worker count)

    def __getattr__(self, name):
        return getattr(self.pool, name)

    def run(self, job):
        self.given.append(job)
        return self.pool.run(job)


@pytest.mark.parametrize("kind", [VariantKind.MESSAGE, VariantKind.GUARD_ORDER], ids=lambda k: k.value)
def test_with_mutants_the_variants_ride_in_their_sessions_and_give_the_same_verdicts(kind, pool, fast_policy,
                                                                                     candidate_of):
    policy = fast_policy.model_copy(update={**POLICY_OFF, "run_mutation": True, "min_mutation_score": None})
    over, fair = OVER[kind]
    recording = _RecordingPool(pool)
    report = validate_candidate(_candidate(candidate_of, over), policy, recording)
    assert report.reasons == (RejectReason.OVERSPECIFIED_TESTS,)
    assert [f["kind"] for f in report.evidence["faithful_variants"]["failed"]] == [kind.value]
    batched = [job for job in recording.given if job.mutants]
    assert batched and all(any(not m.id.startswith("faithful:") for m in job.mutants) for job in batched), \
        "a session ran the faithful variants alone"
    run = {f"faithful:{kind}" for kind, row in report.evidence["faithful_variants"]["kinds"].items() if row["tests_run"]}
    assert f"faithful:{kind.value}" in run and {m.id for job in batched for m in job.mutants} >= run
    alone = validate_candidate(_candidate(candidate_of, over), policy.model_copy(update={"faithful_variants": False}),
                               pool)  # the variants are not counted as mutants
    assert report.mutation_score == alone.mutation_score is not None
    assert report.evidence["mutation"]["mutants"] == alone.evidence["mutation"]["mutants"]
    assert validate_candidate(_candidate(candidate_of, fair), policy, pool).passed


@pytest.mark.parametrize("kind", list(VariantKind), ids=lambda k: k.value)
def test_weakening_keeps_what_the_skeleton_states_and_the_gate_then_passes(kind, pool, fast_policy, candidate_of):
    from pipeline.synthesis.weaken import weaken_overspecified

    policy = fast_policy.model_copy(update=POLICY_OFF)
    over, _ = OVER[kind]
    candidate = _candidate(candidate_of, over)
    weakened, done = weaken_overspecified(candidate, validate_candidate(candidate, policy, pool))
    assert done.changed and weakened.candidate_id != candidate.candidate_id
    report = validate_candidate(weakened, policy, pool)
    assert report.passed, report.evidence.get("faithful_variants")
    name = over.split("def ")[1].split("(")[0]
    if kind is VariantKind.MESSAGE:
        assert 'pytest.raises(ValueError):\n        Ledger().deposit("alice", -1)' in weakened.test_code
        assert "match=" not in weakened.test_code
    elif kind is VariantKind.FLOAT_ULP:
        assert "pytest.approx(0.3333333333333333)" in weakened.test_code
    elif kind is VariantKind.GUARD_ORDER:  # the call must still fail, in whatever way
        assert "with pytest.raises(Exception):" in weakened.test_code.split(f"def {name}(")[1]
    elif kind is VariantKind.TEXT_FORMAT:  # the values stay asked for, the unstated words go
        assert 'assert ledger.statement("alice") == TextWith("alice", "5")' in weakened.test_code
        assert "class TextWith" in weakened.test_code and done.dropped == []
    elif kind is VariantKind.STATE_AFTER_ERROR:  # the failed call stays checked; the state after it goes
        body = weakened.test_code.split(f"def {name}(")[1]
        assert "with pytest.raises(ValueError):" in body and 'balance("alice")' not in body
    else:  # its only check was over-specified: the check went, and the test with nothing left to check
        assert f"def {name}(" not in weakened.test_code and done.dropped == [name]


GUARDED = '''
class Box:
    """A box."""

    def __init__(self):
        self._frozen = False
        self._depth = 0
        self.items = []

    def put(self, item, count):
        """Put ``count`` copies of ``item`` in the box.

        :raises ValueError: if ``count`` is below 1.
        :raises KeyError: if an item is empty.
        :raises RuntimeError: if the box is frozen.
        """
        _depth = self._enter_call("put")
        try:
            self._ensure_writable()
            for part in item:
                if not part:
                    raise KeyError(part)
            if count < 1:
                raise ValueError("count below 1")
            self.items.extend([item] * count)
        finally:
            self._depth = _depth

    def _enter_call(self, name):
        depth, self._depth = self._depth, self._depth + 1
        return depth

    def _ensure_writable(self):
        if self._frozen:
            raise RuntimeError("frozen")
'''


def test_guards_are_reordered_past_a_call_depth_guard_and_inside_its_try():
    variant = {v.kind: v for v in faithful_variants(GUARDED, "Box", make_skeleton(GUARDED, "Box"))}[VariantKind.GUARD_ORDER]
    body = variant.source.split("def put", 1)[1].split("def _enter_call", 1)[0]
    assert body.index("_depth = self._enter_call") < body.index("try:")
    # The loop over parts and the count check are independent of the frozen check: the frozen check goes last.
    assert body.index("if count < 1") < body.index("self._ensure_writable()")
    assert body.index("for part in item") < body.index("self._ensure_writable()")


PAIRS = '''
class Pairs:
    """Pairs."""

    def __init__(self):
        self.items = {}

    def add(self, key, value):
        """Add."""
        self.items[key] = value
        return key, value

    def ratio(self):
        """Ratio."""
        return len(self.items) / 3, sorted(self.items)
'''


def test_a_returned_tuple_stays_one_value_in_the_wrapped_returns(pool, fast_policy, candidate_of):
    variants = {v.kind: v for v in faithful_variants(PAIRS, "Pairs", make_skeleton(PAIRS, "Pairs"))}
    assert "return _faithful_ulp((key, value))" in variants[VariantKind.FLOAT_ULP].source
    assert "return _faithful_reorder((key, value))" in variants[VariantKind.UNORDERED].source
    tests = ("import pytest\nfrom pairs import Pairs\n\n\ndef test_add_returns_the_pair():\n    p = Pairs()\n"
             "    assert p.add('a', 1) == ('a', 1)\n    assert p.add('b', 2) == ('b', 2)\n    assert p.items == {'a': 1, 'b': 2}\n")
    candidate = candidate_of(PAIRS, tests, "Pairs", "pairs").model_copy(update={"skeleton": make_skeleton(PAIRS, "Pairs")})
    report = validate_candidate(candidate, fast_policy.model_copy(update=POLICY_OFF), pool)
    assert report.passed and report.check("faithful_variants").value == 0, report.evidence.get("faithful_variants")


SHEET = '''
class Sheet:
    """A sheet."""

    def __init__(self):
        self.columns = ["a"]
        self.rows = [["1"]]

    def column_index(self, column):
        """Index of ``column``.

        :raises KeyError: if there is no such column.
        """
        if column not in self.columns:
            raise KeyError(column)
        return self.columns.index(column)

    def set_cell(self, row, column, value):
        """Overwrite one cell.

        :raises TypeError: if ``value`` is not str; checked before the other arguments.
        :raises IndexError: if ``row`` is out of range.
        :raises KeyError: if the column does not exist.
        """
        if not isinstance(value, str):
            raise TypeError("value")
        col = self.column_index(column)
        if not 0 <= row < len(self.rows):
            raise IndexError(row)
        self.rows[row][col] = value
'''


def test_a_stated_precedence_pins_only_its_exception_and_a_bound_lookup_is_a_guard():
    variant = {v.kind: v for v in faithful_variants(SHEET, "Sheet", make_skeleton(SHEET, "Sheet"))}[VariantKind.GUARD_ORDER]
    body = variant.source.split("def set_cell", 1)[1]
    assert body.index("raise TypeError") < body.index("col = self.column_index(column)")  # stated: stays first
    assert body.index("raise IndexError") < body.index("col = self.column_index(column)")  # unstated: varied


BAG = '''
class Bag:
    """A bag of items crafted by recipes."""

    def __init__(self):
        self.items = {"ore": 3}
        self.recipes = {"smelt": {"ore": 2}}

    def missing_for(self, recipe, times=1):
        """Ingredients lacking to craft ``recipe`` ``times`` times.

        :raises KeyError: if the recipe is unknown.
        """
        needs = self.recipes[recipe]
        return {k: n * times - self.items.get(k, 0) for k, n in needs.items() if n * times > self.items.get(k, 0)}

    def craft(self, recipe, times=1):
        """Craft ``recipe`` ``times`` times.

        :raises KeyError: if the recipe is unknown.
        :raises ValueError: if ``times`` is below 1 or ingredients are missing.
        """
        if times < 1:
            raise ValueError("times must be at least 1")
        missing = self.missing_for(recipe, times)
        if missing:
            raise ValueError(f"missing {missing}")
        for k, n in self.recipes[recipe].items():
            self.items[k] -= n * times
        return times
'''


def test_a_lookup_whose_raise_is_only_documented_is_a_guard_independent_of_arguments_it_does_not_check():
    variant = {v.kind: v for v in faithful_variants(BAG, "Bag", make_skeleton(BAG, "Bag"))}[VariantKind.GUARD_ORDER]
    body = variant.source.split("def craft", 1)[1]
    # missing_for raises (its docstring says so) on the recipe only: the times check is independent of it,
    # so a correct craft may look the recipe up first; the check that uses what it returns stays after it.
    assert body.index("missing = self.missing_for(recipe, times)") < body.index("if times < 1")
    assert body.index("missing = self.missing_for(recipe, times)") < body.index("if missing")
