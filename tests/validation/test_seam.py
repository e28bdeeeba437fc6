"""Interaction across the seam of a composed class: hand-made composed candidates whose parts exchange a
value in a test pass; parts that never exchange one, however their methods are interleaved, are rejected
`incoherent_fusion`."""

from __future__ import annotations

import pytest

from core.records import GeneratorSpec, Origin, RejectReason
from validation.gate import validate_candidate
from validation.seam import recorded_parts, seam_edges, seam_summary

PARTS = {"Scorecard": {"methods": ["score", "total"], "fields": ["points"]},
         "Stats": {"methods": ["add", "mean", "count"], "fields": ["samples"]}}

HALVES = '''
class ScorecardStats:
    """A scorecard and running statistics in one class."""

    def __init__(self):
        self.points = []
        self.samples = []

    def score(self, n):
        if n < 0:
            raise ValueError("n must not be negative")
        self.points.append(n)
        return sum(self.points)

    def total(self):
        return sum(self.points)

    def add(self, value):
        self.samples.append(value)

    def mean(self):
        if not self.samples:
            raise ValueError("no samples")
        return sum(self.samples) / len(self.samples)

    def count(self):
        return len(self.samples)
'''

BRIDGE = '''
    def record_total_in_add(self):
        value = self.total()
        return self.add(value)
'''

INTERLEAVED_TESTS = '''import pytest

from scorecard_stats import ScorecardStats


def test_scores_and_samples_side_by_side():
    card = ScorecardStats()
    assert card.score(3) == 3
    card.add(2.0)
    assert card.score(4) == 7
    card.add(4.0)
    assert card.total() == 7
    assert card.mean() == 3.0
    assert card.count() == 2


def test_negative_score_refused():
    card = ScorecardStats()
    with pytest.raises(ValueError):
        card.score(-1)
    assert card.total() == 0


def test_mean_of_nothing_refused():
    card = ScorecardStats()
    card.score(1)
    with pytest.raises(ValueError):
        card.mean()
    assert card.count() == 0
'''

FLOW_TEST = '''

def test_recording_the_total_changes_the_mean():
    card = ScorecardStats()
    card.score(3)
    card.score(5)
    assert card.count() == 0
    card.record_total_in_add()
    assert card.mean() == 8.0
'''

BRIDGE_ONLY_TEST = '''

def test_recording_the_total_returns_nothing():
    card = ScorecardStats()
    card.score(3)
    assert card.record_total_in_add() is None
'''


def _composed(candidate_of, solution: str, tests: str, parts=PARTS):
    candidate = candidate_of(solution, tests, "ScorecardStats", "scorecard_stats")
    parameters = {"stage": "compose"} | ({"parts": parts} if parts is not None else {})
    return candidate.model_copy(update={"origin": Origin.COMPOSED,
                                        "generator": GeneratorSpec(backend="offline", parameters=parameters)})

# The value crosses in a fixture (the setup the renderer shares between tests): the carrier runs in the
# test's setup, the reader in its body. Nothing else calls the carrier, so its edges are this test's alone.
FIXTURE_FLOW_TEST = '''

@pytest.fixture
def card_with_recorded_total():
    card = ScorecardStats()
    card.score(3)
    card.score(5)
    card.record_total_in_add()
    return card


def test_the_mean_after_recording_the_total(card_with_recorded_total):
    assert card_with_recorded_total.mean() == 8.0
'''


@pytest.fixture(scope="module")
def policy(fast_policy):
    # the seam check reads the base run only: the slower checks add nothing here
    return fast_policy.model_copy(update={"run_mutation": False, "faithful_variants": False, "robustness": False})


def test_parts_that_exchange_a_value_in_a_test_pass(pool, policy, candidate_of):
    report = validate_candidate(_composed(candidate_of, HALVES + BRIDGE, INTERLEAVED_TESTS + FLOW_TEST), policy, pool)
    assert report.passed, report.reasons
    check = report.check("seam_interaction")
    assert check.value == 1 and check.passed
    seam = report.evidence["seam_interaction"]
    assert seam["tests_crossing"] == ["test_scorecard_stats.py::test_recording_the_total_changes_the_mean"]
    assert seam["directions"]["Scorecard -> Stats"]["tests"] == 1
    assert seam["directions"]["Stats -> Scorecard"] == {"edges": 0, "tests": 0}


def test_calls_a_fixture_makes_count_for_the_test_taking_it(pool, policy, candidate_of):
    report = validate_candidate(_composed(candidate_of, HALVES + BRIDGE, INTERLEAVED_TESTS + FIXTURE_FLOW_TEST),
                                policy, pool)
    assert report.passed, report.reasons
    test = "test_scorecard_stats.py::test_the_mean_after_recording_the_total"
    assert report.evidence["seam_interaction"]["tests_crossing"] == [test]
    # the edges only the fixture's calls exercise (the carrier's calls) count, for this test alone; a state
    # edge from a call in the fixture to one in the body counts for it too
    edges = {(e["kind"], e["source"], e["target"]): e["tests"] for e in report.evidence["interaction"]["edges"]}
    assert edges[("call", "record_total_in_add", "total")] == [test]
    assert edges[("call", "record_total_in_add", "add")] == [test]
    assert test in edges[("state", "add", "mean")]


def test_parts_that_never_exchange_a_value_are_rejected(pool, policy, candidate_of):
    # every method works with another (the interaction checks pass), but no value of one part reaches the other
    report = validate_candidate(_composed(candidate_of, HALVES, INTERLEAVED_TESTS), policy, pool)
    assert report.reasons == (RejectReason.INCOHERENT_FUSION,)
    assert report.check("interaction_edge_coverage").passed
    check = report.check("seam_interaction")
    assert check.value == 0 and not check.passed
    assert "neither part influences the other" in check.detail


def test_a_bridge_no_test_reads_after_is_rejected(pool, policy, candidate_of):
    # the bridge's own call of `add` is inside it: the test sees nothing of the value that crossed
    report = validate_candidate(_composed(candidate_of, HALVES + BRIDGE, INTERLEAVED_TESTS + BRIDGE_ONLY_TEST),
                                policy, pool)
    assert RejectReason.INCOHERENT_FUSION in report.reasons
    check = report.check("seam_interaction")
    assert check.value == 0 and "Scorecard -> Stats: 3 edge(s), 0 test(s)" in check.detail


def test_a_composition_without_recorded_parts_is_reported_not_gated(pool, policy, candidate_of):
    report = validate_candidate(_composed(candidate_of, HALVES, INTERLEAVED_TESTS, parts=None), policy, pool)
    assert report.passed
    check = report.check("seam_interaction")
    assert check.value is None and not check.gated


def test_seam_edges_join_the_carrier_to_the_readers_of_what_it_carried():
    edges = seam_edges(HALVES + BRIDGE, "ScorecardStats", PARTS)
    assert {(e["source"], e["target"], e["from_part"], e["to_part"]) for e in edges} == {
        ("record_total_in_add", reader, "Scorecard", "Stats") for reader in ("add", "mean", "count")}
    assert seam_edges(HALVES, "ScorecardStats", PARTS) == []
    assert recorded_parts({"parts": PARTS}) == PARTS and recorded_parts({}) is None


def test_a_reader_reached_only_inside_the_carrier_does_not_cross():
    edges = seam_edges(HALVES + BRIDGE, "ScorecardStats", PARTS)
    nested = {"nodeid": "t::nested", "instances": [{"calls": [["record_total_in_add", None, False],
                                                              ["total", "record_total_in_add", True],
                                                              ["add", "record_total_in_add", True]]}]}
    driven = {"nodeid": "t::driven", "instances": [{"calls": [["mean", None, False],
                                                              ["record_total_in_add", None, False],
                                                              ["count", None, False]]}]}
    summary = seam_summary(edges, {"tests": [nested, driven]}, PARTS)
    assert summary["tests_crossing"] == ["t::driven"]
    assert summary["exercised_seam_edges"] == 1


def test_reading_one_part_and_writing_the_other_apart_carries_nothing():
    # the old bridges' shape: a query of one part after a change of the other, the value thrown away
    unrelated = HALVES + '''
    def mean_from_score(self, n):
        value = self.score(n)
        return self.mean()

    def add_then_total(self, value):
        self.add(value)
        return self.total()
'''
    assert seam_edges(unrelated, "ScorecardStats", PARTS) == []
    carried = HALVES + '''
    def add_scaled_total(self, factor):
        scaled = [self.total() * factor]
        for item in scaled:
            self.samples.append(item)
'''
    assert {(e["source"], e["to_part"]) for e in seam_edges(carried, "ScorecardStats", PARTS)} == {
        ("add_scaled_total", "Stats")}


def test_a_link_woven_into_one_parts_own_operation_carries_its_state():
    # after its own work, `score` hands its new total to the statistics' `add` (a keyword argument)
    woven = HALVES.replace("        self.points.append(n)\n        return sum(self.points)",
                           "        self.points.append(n)\n        self.add(value=sum(self.points))\n"
                           "        return sum(self.points)")
    assert {(e["source"], e["target"], e["from_part"]) for e in seam_edges(woven, "ScorecardStats", PARTS)} == {
        ("score", reader, "Scorecard") for reader in ("add", "mean", "count")}


def test_a_field_the_parts_leave_out_is_placed_by_its_readers():
    # the fusion renamed the statistics' `samples`; only the statistics' methods read it, and the
    # scorecard's bridge writes it with the total
    renamed = (HALVES + BRIDGE).replace("self.samples", "self.recorded")
    edges = seam_edges(renamed, "ScorecardStats", {"Scorecard": PARTS["Scorecard"],
                                                   "Stats": {"methods": ["add", "mean", "count"], "fields": []}})
    assert {(e["source"], e["to_part"], tuple(e["attributes"])) for e in edges} == {
        ("record_total_in_add", "Stats", ("recorded",))}
