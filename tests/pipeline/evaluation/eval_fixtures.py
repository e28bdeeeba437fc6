"""A small task built the way a release builds it (skeleton, per-method tests from the static analysis), and
scripted completions of it: right, wrong, garbage, broken syntax, a missing method, a dependency error,
disarmed assertions, a sleep that never ends."""

from __future__ import annotations

import textwrap

from core.analysis.class_facts import methods_info
from core.analysis.skeleton import make_skeleton
from core.records import GeneratorSpec, MethodInfo, Origin, Provenance, Task
from pipeline.evaluation.harness import EvalSettings
from pipeline.evaluation.tasks import EvalTask, task_from_release

FAST = EvalSettings(model="reference", n=1, ks=(1,), per_test_seconds=1.0, wall_seconds=6.0)

LEDGER = textwrap.dedent('''
    class Ledger:
        """Keeps account balances."""

        def __init__(self):
            self.balances = {}

        def deposit(self, name, amount):
            """Add `amount` to the balance of `name` and return the new balance."""
            self.balances[name] = self.balances.get(name, 0) + amount
            return self.balances[name]

        def balance(self, name):
            """The balance of `name` (0 when unknown)."""
            return self.balances.get(name, 0)

        def transfer(self, source, target, amount):
            """Move `amount` from `source` to `target`; ValueError when `source` has too little."""
            if self.balance(source) < amount:
                raise ValueError("insufficient funds")
            self.deposit(source, -amount)
            return self.deposit(target, amount)
''').lstrip()

LEDGER_TESTS = textwrap.dedent('''
    import pytest

    from ledger import Ledger


    def test_deposit():
        ledger = Ledger()
        assert ledger.deposit("a", 5) == 5
        assert ledger.deposit("a", 2) == 7


    def test_balance_starts_at_zero():
        assert Ledger().balance("x") == 0


    def test_transfer():
        ledger = Ledger()
        ledger.deposit("a", 10)
        assert ledger.transfer("a", "b", 4) == 4
        assert ledger.balance("a") == 6


    def test_transfer_refuses_overdraft():
        with pytest.raises(ValueError):
            Ledger().transfer("a", "b", 1)
''').lstrip()


def ledger_task(source_date: str | None = "2025-06-01", tests: str = LEDGER_TESTS) -> Task:
    skeleton = make_skeleton(LEDGER, "Ledger")
    return Task(task_id=Task.make_id("Ledger", skeleton, LEDGER, tests), skeleton=skeleton, test=tests,
                solution_code=LEDGER, class_name="Ledger", class_description="Keeps account balances.",
                methods_info=tuple(MethodInfo.model_validate(m) for m in methods_info(LEDGER, "Ledger", tests)),
                module_name="ledger", domains=("Finance_Ecommerce",), origin=Origin.ENHANCED,
                provenance=Provenance(first_commit_date=source_date, licence="MIT"),
                generator=GeneratorSpec(backend="offline"), source_date=source_date, candidate_id="cand-ledger")


def ledger_eval_task(tests: str = LEDGER_TESTS) -> EvalTask:
    return task_from_release(ledger_task(tests=tests), "fixture")


def fenced(code: str) -> str:
    return f"Here is the class.\n\n```python\n{code}```\n"


SCRIPTED = {
    "right": fenced(LEDGER),
    "wrong": fenced(LEDGER.replace("self.deposit(source, -amount)", "self.deposit(source, 0)")),
    "garbage": "I would rather not write this class today.",
    "syntax": fenced("class Ledger:\n    def deposit(self, name, amount:\n        return 1\n"),
    "missing_method": fenced(LEDGER.split("    def transfer")[0]),
    # balance() fails for an unknown name: inside transfer -> balance, a failure in a chain of methods.
    "dependency": fenced(LEDGER.replace("return self.balances.get(name, 0)", "return self.balances[name]")),
    "disarms_assertions": fenced("import _pytest.runner as _runner\n"
                                 "_real = _runner.CallInfo.from_call.__func__\n"
                                 "def _quiet(cls, func, when, reraise=None):\n"
                                 "    info = _real(cls, func, when, reraise)\n"
                                 "    object.__setattr__(info, 'excinfo', None)\n"
                                 "    return info\n"
                                 "_runner.CallInfo.from_call = classmethod(_quiet)\n\n\n"
                                 + LEDGER.replace("return self.balances.get(name, 0)", "return 42")),
    "sleeps_forever": fenced("import time\n\n\n" + LEDGER.replace(
        "        self.balances = {}\n", "        self.balances = {}\n        while True:\n            time.sleep(1)\n")),
}
EXPECTED_FAILURE = {"right": None, "wrong": "logic", "garbage": "bad_answer", "syntax": "syntax",
                    "missing_method": "missing", "dependency": "dependency", "disarms_assertions": "tampering",
                    "sleeps_forever": "timeout"}
