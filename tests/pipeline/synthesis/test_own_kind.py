"""Which methods take another instance of their own class (left out of a hybrid), and what the hybrid says."""

from __future__ import annotations

import textwrap

from core.analysis.class_model import analyse
from pipeline.synthesis.own_kind import left_out_note, own_kind_methods

SOURCE = textwrap.dedent('''
    class BankAccount:
        def __init__(self, balance=0):
            self.balance = balance

        def deposit(self, amount):
            """:param amount: int"""
            self.balance += amount

        def transfer(self, other_account, amount):
            self.balance -= amount
            other_account.deposit(amount)

        def merge(self, ledger):
            """Take over another account's balance.
            :param ledger: BankAccount
            """
            self.balance += ledger.balance

        def same_as(self, account: "BankAccount") -> bool:
            return self.balance == account.balance

        def pay(self, other_party, amount):
            """:param other_party: str, who is paid"""
            self.balance -= amount
''')


def test_own_kind_is_known_from_annotation_docstring_or_name():
    assert own_kind_methods(analyse(SOURCE, "BankAccount")) == ("transfer", "merge", "same_as")


def test_a_method_another_method_calls_is_kept():
    calling = SOURCE + "\n    def close(self, heir):\n        self.transfer(heir, self.balance)\n"
    assert own_kind_methods(analyse(calling, "BankAccount")) == ("merge", "same_as")


def test_a_plain_class_leaves_nothing_out():
    assert own_kind_methods(analyse("class Counter:\n    def add(self, other_count: int):\n        pass\n",
                                    "Counter")) == ()


def test_the_note_names_each_method_and_its_part():
    note = left_out_note("BankAccountOrder", [("BankAccount", "transfer")])
    assert note.startswith("Left out of this class: ``transfer`` of the BankAccount part, which takes another "
                           "BankAccount. Here that would be another BankAccountOrder")
    assert left_out_note("BankAccountOrder", []) == ""
