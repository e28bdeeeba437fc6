"""Faithful-variant kinds are plug-ins: a kind registered from outside the package is made, run by the gate
and reported under its name; unregistered, it is gone. The built-in kinds keep their order and names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.analysis.skeleton import make_skeleton
from validation.faithful import REGISTRY, VariantKind, faithful_variants
from validation.gate import validate_candidate

ROOT = Path(__file__).resolve().parents[2]
TOY = "shouted_constant"
TOY_TARGET = "tests.validation.toy_faithful_kind:variant"

GREETER = '''
class Greeter:
    """Greets people."""

    def __init__(self):
        self.greeted = 0

    def greet(self, name):
        """Greet ``name`` and count the greeting."""
        self.greeted += 1
        return "hello"

    def count(self):
        """Return how many greetings were made."""
        return self.greeted
'''

# Checks the greeting's exact word, which the skeleton never states: the toy kind's variant fails it.
TESTS = '''from greeter import Greeter


def test_greet_counts():
    greeter = Greeter()
    assert greeter.greet("ana") == "hello"
    assert greeter.count() == 1
'''

POLICY_OFF = dict(run_mutation=False, robustness=False, min_line_coverage=0.0, min_interaction_edge_coverage=0.0,
                  min_methods_on_one_instance=0, require_interaction_edges=False, max_vacuous_share=1.0,
                  method_deletion=False)


def _candidate(candidate_of):
    candidate = candidate_of(GREETER, TESTS, "Greeter", "greeter")
    return candidate.model_copy(update={"skeleton": make_skeleton(GREETER, "Greeter")})


def test_the_built_in_kinds_are_registered_in_their_order_under_their_names():
    assert list(REGISTRY) == ["message", "float_ulp", "guard_order", "internal_route", "unordered", "text_format",
                              "state_after_error"]
    assert {kind.value for kind in VariantKind} <= set(REGISTRY)


def test_a_registered_kind_is_made_after_the_built_in_ones_and_named_by_its_registration():
    skeleton = make_skeleton(GREETER, "Greeter")
    assert TOY not in {v.kind for v in faithful_variants(GREETER, "Greeter", skeleton)}
    with REGISTRY.registered(TOY, TOY_TARGET):
        variants = faithful_variants(GREETER, "Greeter", skeleton)
    toy = variants[-1]
    assert (toy.kind, toy.id, toy.sites) == (TOY, f"faithful:{TOY}", ("greet:11",))
    assert "return 'HELLO'" in toy.source and "return 'HELLO'" in toy.diff(GREETER)
    assert TOY not in REGISTRY


def test_the_gate_runs_a_registered_kind_and_forgets_it_once_unregistered(pool, fast_policy, candidate_of):
    policy = fast_policy.model_copy(update=POLICY_OFF)
    candidate = _candidate(candidate_of)
    with REGISTRY.registered(TOY, TOY_TARGET):
        report = validate_candidate(candidate, policy, pool)
    evidence = report.evidence["faithful_variants"]
    assert evidence["kinds"][TOY] == {"sites": 1, "passed": False, "tests_run": 1,
                                      "failing_tests": ["test_greeter.py::test_greet_counts"]}
    assert [f["kind"] for f in evidence["failed"]] == [TOY]
    assert report.check(f"faithful_{TOY}") is not None and not report.passed

    after = validate_candidate(candidate, policy, pool)
    assert TOY not in after.evidence["faithful_variants"]["kinds"] and after.check(f"faithful_{TOY}") is None
    assert after.passed, after.reasons


def test_a_name_is_registered_once():
    with REGISTRY.registered(TOY, TOY_TARGET), pytest.raises(ValueError, match="registered already"):
        REGISTRY.register(TOY, TOY_TARGET)
    assert TOY not in REGISTRY


def test_no_kind_is_imported_before_variants_are_made():
    """The registry is the one list of kinds: importing the package must not load (or need) any of them."""
    code = ("import sys, validation.faithful as f\n"
            "print(sorted(m for m in sys.modules if m.rsplit('.', 1)[-1] in f.REGISTRY))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
