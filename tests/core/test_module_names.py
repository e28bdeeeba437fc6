"""Every source of tasks names its module by one rule, and a name the sandbox already answers to is prefixed."""

from __future__ import annotations

import pytest

from core.module_names import task_module_name
from pipeline.corpus.classeval import module_name_for as classeval_module
from pipeline.mining.candidates import module_name_for as mined_module


@pytest.mark.parametrize(("snake", "module"), [
    ("bank_account", "bank_account"),
    ("queue", "m_queue"),            # the standard library's module would be imported instead
    ("literals", "m_literals"),      # a sandbox job's own file
    ("conftest", "m_conftest"),
    ("test_runner", "m_test_runner"),  # pytest would collect the solution as a test file
    ("load_test", "m_load_test"),
    ("tested_ledger", "tested_ledger"),  # matches neither of pytest's file patterns
    ("3d_grid", "m_3d_grid"),        # not importable
])
def test_a_taken_name_gets_the_prefix_and_any_other_is_kept(snake, module):
    assert task_module_name(snake) == module


def test_mined_and_imported_classes_follow_the_same_rule():
    for name_for in (mined_module, classeval_module):
        assert name_for("Queue") == "m_queue" and name_for("TestRunner") == "m_test_runner"
        assert name_for("BankAccount") == "bank_account"

