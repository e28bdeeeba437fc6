"""The offline judges on hand-made candidates: each finds the flaw it exists for, and passes a sound one."""

from __future__ import annotations

import pytest

from core.analysis.skeleton import make_skeleton
from core.records import Decision
from judges.offline.adequacy import AdequacyJudge
from judges.offline.consistency import ConsistencyJudge
from judges.offline.specification import SpecificationJudge
from tests.judges.conftest import SKELETON, SOLUTION, TESTS, make_candidate
from validation.suite_runner import SandboxSuiteRunner


def _finding(verdict, criterion):
    return next(f for f in verdict.findings if f.criterion == criterion)


def test_consistency_accepts_tests_within_the_skeleton(candidate):
    verdict = ConsistencyJudge().review(candidate, None)
    assert verdict.decision is Decision.ACCEPT, verdict.findings


def test_consistency_flags_an_undocumented_expected_exception():
    tests = TESTS + '''

def test_total_of_unknown(counter):
    with pytest.raises(KeyError):
        counter.total()
'''
    verdict = ConsistencyJudge().review(make_candidate(tests=tests), None)
    assert verdict.decision is Decision.REJECT
    note = _finding(verdict, "tests_match_spec").note
    assert "test_total_of_unknown:" in note and "expects KeyError from total" in note


def test_consistency_accepts_a_base_class_of_the_documented_exception():
    tests = TESTS + '''

def test_base_class(counter):
    with pytest.raises(Exception):
        counter.add("a", -1)
'''
    assert ConsistencyJudge().review(make_candidate(tests=tests), None).decision is Decision.ACCEPT


def test_consistency_flags_a_private_attribute_messages_and_orders():
    tests = TESTS + '''

def test_private(counter):
    counter.add("a")
    assert counter._cache is None
    assert counter.tally == {"a": 1}


def test_message(counter):
    with pytest.raises(ValueError, match="times must be strictly positive"):
        counter.add("a", 0)


def test_stated_message(counter):
    with pytest.raises(ValueError, match="positive"):
        counter.add("a", 0)


def test_repr():
    assert repr(Counter()) == "Counter({})"
'''
    note = _finding(ConsistencyJudge().review(make_candidate(tests=tests), None), "tests_match_spec").note
    assert "test_private:" in note and "uses the private attribute _cache" in note
    assert "uses tally, which the skeleton does not declare" in note
    assert "expects the exact message 'times must be strictly positive'" in note
    assert "test_stated_message" not in note  # "positive" is in the skeleton
    assert "test_repr:" in note and "repr() text" in note


def test_consistency_flags_an_order_the_skeleton_does_not_state():
    skeleton = SKELETON.replace('''    def total(self):''', '''    def names(self):
        """The names counted so far."""
        pass

    def total(self):''')
    solution = SOLUTION.replace('''    def total(self):''', '''    def names(self):
        """The names counted so far."""
        return list(self.counts)

    def total(self):''')
    tests = TESTS + '''

def test_names(counter):
    counter.add("b")
    counter.add("a")
    assert counter.names() == ["b", "a"]
    assert sorted(counter.names()) == ["a", "b"]
'''
    note = _finding(ConsistencyJudge().review(make_candidate(solution, skeleton, tests), None), "tests_match_spec").note
    assert note.count("compares names() with an ordered sequence") == 1


TREE = '''class TreeNode:
    """One entry of the tree: a key and its value."""

    def __init__(self, key, value):
        self.key = key
        self.value = value
        self.height = 0
        self.left = None


class Tree:
    """A tree of keys. ``root`` is the first entry added; ``size`` counts the entries."""

    size: int = 0

    def __init__(self):
        """Start empty."""
        self.root = None

    def add(self, key, value):
        """Add ``key`` with ``value``; return the node added."""
        node = TreeNode(key, value)
        if self.root is None:
            self.root = node
        self.size += 1
        return node
'''


def _tree_note(tests):
    candidate = make_candidate(TREE, make_skeleton(TREE, "Tree"), "from tree import Tree, TreeNode\n\n" + tests)
    candidate = candidate.model_copy(update={"class_name": "Tree", "module_name": "tree"})
    return _finding(ConsistencyJudge().review(candidate, None), "tests_match_spec").note


def test_consistency_flags_a_field_of_another_class_of_the_module_the_skeleton_does_not_state():
    note = _tree_note('''
def test_leaf_height():
    tree = Tree()
    tree.add(1, "a")
    assert tree.root.height == 0
    assert tree.add(2, "b").left is None


def test_node_alone():
    node = TreeNode(3, "c")
    node.left = TreeNode(1, "d")
    assert node.value == "c"
''')
    problems = note.split("; ")
    assert any(p.startswith("test_leaf_height:") and p.endswith("uses height of TreeNode, a field the skeleton "
                                                              "does not state") for p in problems)
    assert any(p.startswith("test_leaf_height:") and "uses left of" in p for p in problems)  # a method's result
    assert any(p.startswith("test_node_alone:") and "uses left of" in p for p in problems)  # an assignment counts
    assert "uses value of" not in note and "uses key of" not in note  # stated: the docstrings name them


def test_consistency_leaves_fields_that_are_stated_or_not_reached_from_the_module():
    note = _tree_note('''
import pytest


def test_stated_and_unrelated():
    tree = Tree()
    tree.add(1, "a")
    assert tree.size == 1 and tree.root is not None
    with pytest.raises(TypeError) as excinfo:
        tree.add()
    assert excinfo.value is not None
''')
    assert "field" not in note and "does not declare" not in note


@pytest.fixture(scope="module")
def pool():
    from validation.sandbox import SandboxPool

    with SandboxPool(jobs=1) as pool:
        yield pool


def test_specification_accepts_a_complete_skeleton_whose_examples_hold(candidate, pool):
    verdict = SpecificationJudge(SandboxSuiteRunner(pool)).review(candidate, None)
    assert verdict.decision is Decision.ACCEPT, verdict.findings
    assert "2 docstring(s)" in _finding(verdict, "reference_correct").note


def test_specification_flags_an_example_the_reference_disagrees_with(pool):
    solution = SOLUTION.replace("return sum(self.counts.values())", "return sum(self.counts.values()) + 1")
    verdict = SpecificationJudge(SandboxSuiteRunner(pool)).review(make_candidate(solution=solution), None)
    assert verdict.decision is Decision.REJECT
    note = _finding(verdict, "reference_correct").note
    assert note.startswith("docstring examples disagree with the reference: Counter.total:")
    assert "the docstring says '1', the reference gives '2'" in note
    assert _finding(verdict, "spec_clear").ok is True


def test_an_example_spelling_the_same_literal_otherwise_agrees_and_another_value_does_not(pool):
    # hand-written docstrings (ClassEval's among them) print lists and dicts without doctest's spaces
    examples = '>>> c = Counter()\n        >>> c.add("a")\n        1\n        >>> c.total()\n        1\n'
    spelled = SKELETON.replace(examples, '>>> c = Counter(); _ = c.add("a")\n        >>> sorted(c.counts.items())\n'
                                         "        [('a',1)]\n")
    assert spelled != SKELETON
    verdict = SpecificationJudge(SandboxSuiteRunner(pool)).review(make_candidate(skeleton=spelled), None)
    assert _finding(verdict, "reference_correct").ok is True, verdict.findings
    wrong = spelled.replace("[('a',1)]", "[('a',2)]")
    verdict = SpecificationJudge(SandboxSuiteRunner(pool)).review(make_candidate(skeleton=wrong), None)
    assert _finding(verdict, "reference_correct").ok is False


def test_an_effect_stated_as_an_assignment_is_checked_on_the_object(pool):
    # ClassEval states effects so: ">>> cc.add_currency_rate('KRW', 1308.84)" then "self.rates['KRW'] = 1308.84"
    examples = '>>> c = Counter()\n        >>> c.add("a")\n        1\n'
    stated = SKELETON.replace(examples, '>>> c = Counter()\n        >>> c.add("a")\n        self.counts["a"] = 1\n')
    assert stated != SKELETON
    verdict = SpecificationJudge(SandboxSuiteRunner(pool)).review(make_candidate(skeleton=stated), None)
    assert _finding(verdict, "reference_correct").ok is True, verdict.findings
    wrong = stated.replace('self.counts["a"] = 1', 'self.counts["a"] = 2')
    verdict = SpecificationJudge(SandboxSuiteRunner(pool)).review(make_candidate(skeleton=wrong), None)
    note = _finding(verdict, "reference_correct").note
    assert _finding(verdict, "reference_correct").ok is False and "c.counts['a'] == 2" in note, note


def test_specification_flags_undocumented_parameters_returns_and_raises():
    skeleton = SKELETON.replace('''        :param times: how many; must be positive.
        :return: the new count of ``name``.
        :raises ValueError: if ``times`` is not positive.
''', "").replace("Count ``name`` ``times`` more times.", "Count ``name`` again.")
    verdict = SpecificationJudge(None).review(make_candidate(skeleton=skeleton), None)
    note = _finding(verdict, "spec_clear").note
    assert "add: parameter(s) times not described" in note
    assert "add: return value not described" in note
    assert "add: raises ValueError without documenting it" in note
    assert _finding(verdict, "reference_correct").ok is None  # no sandbox given: undecided, not passed
    assert verdict.decision is Decision.REJECT


def test_a_constructor_may_be_described_by_its_class_docstring_but_every_parameter_must_be():
    def spec_note(class_doc: str) -> str:
        solution = SOLUTION.replace('"""Counts events per name."""', f'"""{class_doc}"""').replace(
            'def __init__(self):\n        """Start with no counts."""', "def __init__(self, limit=10):")
        verdict = SpecificationJudge(None).review(make_candidate(solution, make_skeleton(solution, "Counter")), None)
        return _finding(verdict, "spec_clear").note or ""

    assert "__init__" not in spec_note("Counts events per name, at most ``limit`` names.")
    assert "__init__: parameter(s) limit not described" in spec_note("Counts events per name.")


def test_adequacy_reads_the_gate_report_and_flags_tests_passing_on_the_skeleton(pool):
    from validation.gate import validate_candidate
    from validation.policy import GatePolicy

    tests = TESTS + '''

def test_nothing_much(counter):
    assert counter is not None
'''
    candidate = make_candidate(tests=tests)
    report = validate_candidate(candidate, GatePolicy(robustness=False, max_mutants=8, max_vacuous_share=0.5), pool)
    assert report.check("vacuous_share").value == pytest.approx(1 / 3)
    verdict = AdequacyJudge(min_mutation_score=0.5, max_vacuous_share=0.0).review(candidate, report)
    assert verdict.decision is Decision.REJECT
    vacuous = _finding(verdict, "tests_not_vacuous")
    assert vacuous.ok is False and "test_nothing_much" in vacuous.note
    assert _finding(verdict, "tests_detect_faults").ok is (report.mutation_score >= 0.5)
    lenient = AdequacyJudge(min_mutation_score=0.0, max_vacuous_share=0.5).review(candidate, report)
    assert lenient.decision is Decision.ACCEPT
    unmeasured = report.model_copy(update={"mutation_score": None})
    assert _finding(AdequacyJudge().review(candidate, unmeasured), "tests_detect_faults").ok is None
    assert AdequacyJudge().review(candidate, None).decision is Decision.ABSTAIN


def test_an_exception_documented_by_a_method_the_docstring_names_counts():
    skeleton = SKELETON.replace('''    def total(self):''', '''    def add_twice(self, name, times):
        """Call ``add`` twice with the same arguments.

        :param name: as for add.
        :param times: as for add.
        :return: what the second ``add`` returns.
        """
        pass

    def total(self):''')
    solution = SOLUTION.replace('''    def total(self):''', '''    def add_twice(self, name, times):
        """Call ``add`` twice with the same arguments."""
        self.add(name, times)
        return self.add(name, times)

    def total(self):''')
    tests = TESTS + '''

def test_add_twice_refuses(counter):
    with pytest.raises(ValueError):
        counter.add_twice("a", 0)
'''
    assert ConsistencyJudge().review(make_candidate(solution, skeleton, tests), None).decision is Decision.ACCEPT


def test_an_example_naming_a_class_the_task_does_not_define_is_a_specification_finding(pool):
    skeleton = SKELETON.replace('>>> Counter().add("x", 2)', '>>> Tally().add("x", 2)')
    verdict = SpecificationJudge(SandboxSuiteRunner(pool)).review(make_candidate(skeleton=skeleton), None)
    assert verdict.decision is Decision.REJECT
    assert _finding(verdict, "spec_clear").note == "Counter.add: a docstring example uses Tally, which the task does not define"
    assert _finding(verdict, "reference_correct").ok is True  # the other docstring's examples still agree


def test_adequacy_reads_faithful_variants_only_when_the_gate_ran_them(candidate):
    from core.records import CheckResult, GateReport

    vacuous = CheckResult(name="vacuous_share", value=0.0, threshold=0.1, passed=True, detail="0 of 2 tests pass")
    report = GateReport(candidate_id=candidate.candidate_id, passed=True, mutation_score=0.9, checks=(vacuous,))
    judge = AdequacyJudge()
    before = judge.review(candidate, report)
    # No faithful_variants check in the report: no finding about it, not even an undecided one.
    assert [f.criterion for f in before.findings] == ["tests_detect_faults", "tests_not_vacuous"]
    failed = CheckResult(name="faithful_variants", value=1, threshold=0, passed=False, gated=False,
                         detail="1 of 4 faithful variants fails a test")
    evidence = {"failing": [{"kind": "message", "test": "test_times_must_be_positive"}]}
    over = report.model_copy(update={"checks": (vacuous, failed), "evidence": {"faithful_variants": evidence}})
    verdict = judge.review(candidate, over)
    assert verdict.decision is Decision.REJECT  # reported only by the gate, still a failed check here
    finding = _finding(verdict, "tests_pass_faithful_variants")
    assert finding.ok is False and "1 of 4 faithful variants fails a test" in finding.note
    assert '"test": "test_times_must_be_positive"' in finding.note
    passing = failed.model_copy(update={"value": 0, "passed": True, "detail": "4 faithful variants pass"})
    clean = judge.review(candidate, report.model_copy(update={"checks": (vacuous, passing)}))
    assert clean.decision is Decision.ACCEPT and _finding(clean, "tests_pass_faithful_variants").ok is True
    assert judge.spec.prompt_version == "2"


LEDGER = '''import json
import sqlite3


class Ledger:
    """Entries kept in a sqlite3 database."""

    def __init__(self):
        self.db = sqlite3.connect(":memory:")

    def total(self):
        """Return the total.

        DOC
        """
        return self.db.execute("SELECT 1").fetchone()[0]
'''
LEDGER_TESTS = '''import json
import sqlite3

import pytest

from ledger import Ledger


def test_closed():
    ledger = Ledger()
    with pytest.raises(EXPECTED):
        ledger.total()
'''


@pytest.mark.parametrize("doc, expected", [
    (":raises sqlite3.Error: if the database is closed.", "sqlite3.Error"),
    (":raises Error: if the database is closed.", "sqlite3.Error"),
    ("Raises sqlite3.Error once the database is closed.", "sqlite3.Error"),
    ("Raises:\n            sqlite3.Error: once the database is closed.", "sqlite3.Error"),
    (":raises json.JSONDecodeError: if an entry is not JSON.", "json.JSONDecodeError"),
    ("Raises JSONDecodeError for an entry that is not JSON.", "json.JSONDecodeError"),
])
def test_an_exception_is_documented_whatever_module_defines_it(doc, expected):
    skeleton = LEDGER.replace("DOC", doc)
    candidate = make_candidate(skeleton, skeleton, LEDGER_TESTS.replace("EXPECTED", expected)).model_copy(
        update={"class_name": "Ledger", "module_name": "ledger"})
    verdict = ConsistencyJudge().review(candidate, None)
    assert verdict.decision is Decision.ACCEPT, verdict.findings


@pytest.mark.parametrize("doc, expected", [
    ("Error messages are logged.", "sqlite3.Error"),  # the bare word in prose documents nothing
    (":raises sqlite3.OperationalError: if the database is closed.", "json.JSONDecodeError"),
])
def test_an_exception_the_docs_do_not_name_is_still_flagged(doc, expected):
    skeleton = LEDGER.replace("DOC", doc)
    candidate = make_candidate(skeleton, skeleton, LEDGER_TESTS.replace("EXPECTED", expected)).model_copy(
        update={"class_name": "Ledger", "module_name": "ledger"})
    verdict = ConsistencyJudge().review(candidate, None)
    assert verdict.decision is Decision.REJECT
    assert "which do(es) not document it" in _finding(verdict, "tests_match_spec").note
