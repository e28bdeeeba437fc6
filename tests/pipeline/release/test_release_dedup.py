"""Normalisation, exact and near-duplicate detection."""

from __future__ import annotations

import textwrap

from release_fixtures import COUNTER_SOLUTION, build_task

from core.records import RejectReason
from pipeline.release.dedup import DedupSettings, deduplicate, fingerprint, jaccard
from pipeline.release.normalise import code_tokens, normalised_source, structural_hash

COSMETIC_VARIANT = textwrap.dedent('''
    class Counter:
        # a comment the original lacks
        def __init__(self):
            self.counts = {}
        def add(self, event_name, n=1):
            """A different docstring."""
            before = self.counts.get(event_name, 0)   # renamed locals
            self.counts[event_name] = before + n
            return self.counts[event_name]
        def total(self):
            return sum(self.counts.values())
        def top(self):
            if not self.counts:
                return None
            return max(sorted(self.counts), key=lambda key: self.counts[key])
''')


def test_cosmetic_changes_give_the_same_structural_hash():
    assert structural_hash(COUNTER_SOLUTION) == structural_hash(COSMETIC_VARIANT)


def test_renaming_a_field_or_changing_logic_changes_the_hash():
    assert structural_hash(COUNTER_SOLUTION) != structural_hash(COUNTER_SOLUTION.replace("self.counts", "self.tally"))
    assert structural_hash(COUNTER_SOLUTION) != structural_hash(COUNTER_SOLUTION.replace("current + times", "current - times"))


def test_globals_and_nonlocal_declarations_keep_their_names():
    source = "X = 1\ndef f(a):\n    global X\n    X = a\n    return len(str(a))\n"
    normal = normalised_source(source)
    assert "global X" in normal and "X = _v0" in normal and "len(str(_v0))" in normal


def test_code_tokens_drop_comments_and_can_split_strings():
    tokens = code_tokens('x = "two words"  # gone\n', split_strings=True)
    assert tokens == ["x", "=", '"', "two", "words", '"']
    assert code_tokens("  bad indent\n x") == ["bad", "indent", "x"]  # falls back to words


def test_exact_duplicate_within_a_release_keeps_the_first_given():
    # release assembly gives the tasks in its order of preference (variants.preference_order), not by id
    a = build_task()
    b = build_task(solution=COSMETIC_VARIANT, candidate_id="cand-b")
    for first, second in ((b, a), (a, b)):
        assert [t.task_id for t in deduplicate([first, second]).kept] == [first.task_id]
    outcome = deduplicate([b, a])
    first, second = b, a
    assert [t.task_id for t in outcome.kept] == [first.task_id]
    [finding] = outcome.findings
    assert (finding.task_id, finding.reason, finding.matched_task_id, finding.matched_release) == \
        (second.task_id, RejectReason.DUPLICATE, first.task_id, None)


def test_near_duplicate_is_found_and_a_different_class_is_kept():
    base = build_task()
    extra = COUNTER_SOLUTION + "\n    def reset(self):\n        self.counts.clear()\n"
    near = build_task(solution=extra)
    other = build_task("Stack", textwrap.dedent('''
        class Stack:
            def __init__(self):
                self.items = []
            def push(self, item):
                self.items.append(item)
            def pop(self):
                if not self.items:
                    raise IndexError("empty stack")
                return self.items.pop()
    '''), module="stack")
    sim = jaccard(fingerprint(base, 5).shingles, fingerprint(near, 5).shingles)
    assert 0.85 <= sim < 1.0
    outcome = deduplicate([base, near, other])
    assert {f.reason for f in outcome.findings} == {RejectReason.NEAR_DUPLICATE}
    assert len(outcome.kept) == 2 and other in outcome.kept
    # A stricter threshold than their similarity keeps both.
    assert len(deduplicate([base, near], settings=DedupSettings(threshold=min(1.0, sim + 0.01))).kept) == 2


def test_duplicates_of_an_earlier_release_are_reported_with_its_version():
    old = build_task()
    again = build_task(solution=COSMETIC_VARIANT)
    outcome = deduplicate([again], earlier=[("2026.10.0", old)])
    assert outcome.kept == []
    assert outcome.findings[0].matched_release == "2026.10.0"
    assert outcome.findings[0].matched_task_id == old.task_id


import keyword  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st

_IDENT = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(
    lambda s: not keyword.iskeyword(s) and s not in {"self", "sum", "max", "sorted", "key", "counts", "name",
                                                     "times", "current"})


@settings(max_examples=25, deadline=None)
@given(st.lists(_IDENT, min_size=3, max_size=3, unique=True), st.sampled_from(["    ", "  ", "\t"]))
def test_renaming_locals_and_reindenting_never_changes_the_hash(names, indent):
    a, b, c = names
    variant = (COUNTER_SOLUTION.replace("current", a).replace("times", b).replace("name", c)
               .replace("    ", indent))
    assert structural_hash(variant) == structural_hash(COUNTER_SOLUTION)
