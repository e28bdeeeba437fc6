"""Repair of a candidate the gate rejected `untested_method`: a test is added that sees the method return
what an emptied body (returning None) cannot, though no line of it was missed."""

from __future__ import annotations

from core.records import Candidate, GateReport, GeneratorSpec, Origin, Provenance
from pipeline.synthesis.repair import repair_tests

TALLY = '''
class Tally:
    """Counts words; `top` names the most counted one."""

    def __init__(self):
        self.counts = {}

    def add(self, word: str) -> int:
        """Count `word` once more; how many times it is counted."""
        self.counts[word] = self.counts.get(word, 0) + 1
        return self.counts[word]

    def top(self):
        """The most counted word (the first counted on a tie), None when nothing is counted."""
        best = None
        for word, count in self.counts.items():
            if best is None or count > self.counts[best]:
                best = word
        return best
'''

# every line runs, but `top` is only ever seen returning None: `def top(self): pass` passes these tests
TESTS = ("from tally import Tally\n\n\ndef test_add():\n    tally = Tally()\n    assert tally.add('a') == 1\n"
         "    assert tally.add('a') == 2\n\n\ndef test_top_empty():\n    assert Tally().top() is None\n\n\n"
         "def test_top_runs():\n    tally = Tally()\n    tally.add('a')\n    tally.top()\n")


def test_repair_adds_a_test_seeing_the_surviving_method_return_a_value(sandbox_pool):
    candidate = Candidate(candidate_id="c", class_name="Tally", module_name="tally", domains=("X",),
                          description="d", skeleton="s", solution_code=TALLY, test_code=TESTS,
                          origin=Origin.ENHANCED, provenance=Provenance(), generator=GeneratorSpec(backend="offline"))
    evidence = {"method_deletions": {"methods": ["add", "top"], "not_called": [], "deletion_survives": ["top"],
                                     "not_measured": []}}
    report = GateReport(candidate_id="c", passed=False, evidence=evidence)
    repaired = repair_tests(candidate, report, pool=sandbox_pool)
    added = repaired.test_code.split("coverage repair", 1)[1]
    assert any(".top() == " in line for line in added.splitlines()), added
    # without the gate's word on `top` there is nothing to aim at: no line was missed
    assert repair_tests(candidate, GateReport(candidate_id="c", passed=False), pool=sandbox_pool) == candidate
