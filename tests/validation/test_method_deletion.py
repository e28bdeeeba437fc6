"""Every public method is called by a test that fails when its body is `pass` (check `public_methods_tested`).

A fighter whose `attack` no test observes passes every other check; the gate names the method, whether no
test calls it or a test calls it without looking at what it did. Both directions are run in the sandbox.
"""

from __future__ import annotations

import ast

from core.records import RejectReason
from validation.gate import validate_candidate
from validation.method_deletion import method_deletions, public_methods

FIGHTER = '''
class Fighter:
    """A fighter with hit points."""

    def __init__(self, hp=10):
        """Start with `hp` hit points and no attack made."""
        self.hp = hp
        self.dealt = []

    def attack(self, other, damage):
        """Take `damage` off `other`'s hit points and remember it."""
        other.hp -= damage
        self.dealt.append(damage)

    def heal(self, amount):
        """Regain `amount` hit points; returns the hit points."""
        self.hp += amount
        return self.hp

    def alive(self):
        """Whether the hit points are above zero."""
        return self.hp > 0

    def hollow(self):
        """Does nothing yet."""
        pass

    @property
    def total_dealt(self): return sum(self.dealt)

    def _log(self):
        return list(self.dealt)
'''

HEAL_TESTS = '''
from fighter import Fighter


def test_heal_then_alive():
    fighter = Fighter(0)
    assert not fighter.alive()
    assert fighter.heal(3) == 3
    assert fighter.alive()


def test_heal_twice():
    fighter = Fighter(1)
    fighter.heal(1)
    assert fighter.heal(2) == 4
'''

CALLED_UNOBSERVED = HEAL_TESTS + '''

def test_attack_is_made():
    one, two = Fighter(), Fighter()
    one.attack(two, 3)
    assert one.alive() and one.total_dealt >= 0
'''

OBSERVED = HEAL_TESTS + '''

def test_attack_takes_hit_points():
    one, two = Fighter(), Fighter()
    one.attack(two, 3)
    assert two.hp == 7 and not two.heal(0) == 10
    assert one.total_dealt == 3
'''

POLICY_OFF = dict(run_mutation=False, robustness=False, faithful_variants=False, min_line_coverage=0.0,
                  min_interaction_edge_coverage=0.0, min_methods_on_one_instance=0, require_interaction_edges=False,
                  max_vacuous_share=1.0)


def test_each_public_method_with_a_body_gets_a_deletion():
    spans = public_methods(FIGHTER, "Fighter")
    assert list(spans) == ["attack", "heal", "alive", "total_dealt"]  # `hollow` does nothing already
    deletions = {d.method: d for d in method_deletions(FIGHTER, "Fighter")}
    attack = deletions["attack"].source
    tree = next(n for n in ast.parse(attack).body if isinstance(n, ast.ClassDef))
    method = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "attack")
    assert ast.get_docstring(method) and isinstance(method.body[-1], ast.Pass) and len(method.body) == 2
    assert "other.hp -= damage" not in attack and "self.hp += amount" in attack
    one_line = next(f for f in ast.parse(deletions["total_dealt"].source).body[0].body
                    if isinstance(f, ast.FunctionDef) and f.name == "total_dealt")
    assert isinstance(one_line.body[0], ast.Pass)


def _gate(pool, fast_policy, candidate_of, tests: str):
    candidate = candidate_of(FIGHTER, tests, "Fighter", "fighter")
    return validate_candidate(candidate, fast_policy.model_copy(update=POLICY_OFF), pool)


def test_a_method_no_test_calls_rejects_the_candidate_naming_it(pool, fast_policy, candidate_of):
    report = _gate(pool, fast_policy, candidate_of, HEAL_TESTS)
    assert report.reasons == (RejectReason.UNTESTED_METHOD,)
    evidence = report.evidence["method_deletions"]
    assert evidence["not_called"][0] == "attack" and "no test calls attack" in report.check("public_methods_tested").detail
    # a one-line body shares its line with the `def`, which runs under no test: its deletion runs with every
    # test that reached the line, and survives them
    assert set(evidence["not_called"] + evidence["deletion_survives"]) == {"attack", "total_dealt"}


def test_a_method_whose_deletion_no_test_notices_is_named(pool, fast_policy, candidate_of):
    report = _gate(pool, fast_policy, candidate_of, CALLED_UNOBSERVED)
    assert report.reasons == (RejectReason.UNTESTED_METHOD,)
    evidence = report.evidence["method_deletions"]
    assert evidence["deletion_survives"] == ["attack"] and evidence["not_called"] == []


def test_tests_that_observe_every_method_pass(pool, fast_policy, candidate_of):
    report = _gate(pool, fast_policy, candidate_of, OBSERVED)
    assert report.passed, report.evidence.get("method_deletions")
    assert report.check("public_methods_tested").value == 0
    # riding in the mutants' sessions gives the same verdict as the deletions' own batch
    with_mutants = validate_candidate(candidate_of(FIGHTER, CALLED_UNOBSERVED, "Fighter", "fighter"),
                                      fast_policy.model_copy(update={**POLICY_OFF, "run_mutation": True}), pool)
    assert with_mutants.evidence["method_deletions"]["deletion_survives"] == ["attack"]


def test_a_body_after_a_multi_line_signature_or_on_the_def_line_is_replaced_whole():
    source = ("class Box:\n    def put(self,\n            item): self.items = [item]; return 1\n\n"
              "    def size(\n        self,\n    ) -> int:\n        # how many\n        return len(self.items)  # all\n")
    deletions = {d.method: d.source for d in method_deletions(source, "Box")}
    assert deletions["put"].splitlines()[1:3] == ["    def put(self,", "            item): pass"]
    assert deletions["size"].endswith("    ) -> int:\n        # how many\n        pass\n")
    for text in deletions.values():
        compile(text, "box.py", "exec")
