"""The six criteria a model judge scores, and the names of the offline judges' own criteria.

A model judge answers all six; an offline judge scores only what an analysis can decide, under the same
names where the meaning is the same (so that "most frequent failed criteria" adds up across backends) and
under its own names where it measures something else (mutation score is not edge coverage).
"""

from __future__ import annotations

MODEL_CRITERIA: dict[str, str] = {
    "spec_clear": "the skeleton states behaviour, return values and raised exceptions without ambiguity",
    "reference_correct": "the reference solution does what the skeleton says",
    "tests_match_spec": "the tests check only what the skeleton states: no hidden requirements "
                        "(exact messages, orderings, reprs the skeleton never promises)",
    "tests_cover_edges": "the edge cases and errors the skeleton names are tested",
    "tests_exercise_interaction": "the tests drive methods working together on shared state",
    "coherent": "the class is one component a developer would plausibly write, not two unrelated classes "
                "glued together by bridge methods",
}

# Offline judges' criteria that have no model counterpart.
TESTS_DETECT_FAULTS = "tests_detect_faults"  # mutation score of the tests (from the gate report)
TESTS_NOT_VACUOUS = "tests_not_vacuous"  # tests fail against the bodiless skeleton (from the gate report)
