"""The names of the six criteria a model judge scores, and the names of the offline judges' own criteria.

A model judge answers all six; an offline judge scores only what an analysis can decide, under the same
names where the meaning is the same (so that "most frequent failed criteria" adds up across backends) and
under its own names where it measures something else (mutation score is not edge coverage).
"""

from __future__ import annotations

MODEL_CRITERIA: tuple[str, ...] = (
    "spec_clear", "reference_correct", "tests_match_spec", "tests_cover_edges", "tests_exercise_interaction",
    "coherent",
)
"""What each means is stated once, in the rubric prompt (judges/prompts/judge_rubric.toml), which is
versioned: a change of wording is a new prompt version, hence a new judge spec."""

# Offline judges' criteria that have no model counterpart.
TESTS_DETECT_FAULTS = "tests_detect_faults"  # mutation score of the tests (from the gate report)
TESTS_NOT_VACUOUS = "tests_not_vacuous"  # tests fail against the bodiless skeleton (from the gate report)
TESTS_PASS_FAITHFUL_VARIANTS = "tests_pass_faithful_variants"  # correct variants of the reference pass (gate report)
