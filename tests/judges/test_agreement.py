"""Agreement figures against values computed by hand (statsmodels does the arithmetic)."""

from __future__ import annotations

import pytest

from core.agreement import agreement, cohen, fleiss
from core.records import Decision, Finding, JudgeSpec, Verdict

A, R, X = Decision.ACCEPT, Decision.REJECT, Decision.ABSTAIN

# Four candidates, three judges. By hand (Fleiss 1971): P_i = 1, 1/3, 1, 1/3 so P-bar = 2/3; accept and
# reject are each 6 of 12 ratings so P_e = 1/2; kappa = (2/3 - 1/2) / (1 - 1/2) = 1/3.
# Cohen: j1/j2 agree on 3 of 4, chance 0.75*0.5 + 0.25*0.5 = 0.5, kappa 0.5; j1/j3 agree on 2 of 4,
# chance 0.75*0.25 + 0.25*0.75 = 0.375, kappa 0.125/0.625 = 0.2; j2/j3 agree on 3 of 4, chance 0.5, kappa 0.5.
TABLE = [(A, A, A), (A, A, R), (R, R, R), (A, R, R)]


def _sets(table, failed_by_j3=("tests_match_spec",)):
    out = []
    for i, row in enumerate(table):
        verdicts = []
        for j, decision in enumerate(row, start=1):
            findings = tuple(Finding(criterion=c, ok=False) for c in failed_by_j3) if decision is R and j == 3 else ()
            if decision is R and j != 3:
                findings = (Finding(criterion="spec_clear", ok=False),)
            verdicts.append(Verdict(candidate_id=f"c{i}", judge=JudgeSpec(backend="offline", name=f"j{j}"),
                                    decision=decision, findings=findings))
        out.append(verdicts)
    return out


def test_fleiss_and_cohen_match_the_hand_computed_values():
    figures = agreement(_sets(TABLE))
    assert figures.judged == 4 and figures.rated_items == 4 and figures.judges == ("j1", "j2", "j3")
    assert figures.fleiss_kappa == pytest.approx(1 / 3, abs=1e-6)
    assert [(p.judge_a, p.judge_b, p.items, p.observed) for p in figures.pairwise] == [
        ("j1", "j2", 4, 0.75), ("j1", "j3", 4, 0.5), ("j2", "j3", 4, 0.75)]
    assert [p.kappa for p in figures.pairwise] == pytest.approx([0.5, 0.2, 0.5], abs=1e-6)
    assert figures.rejected_share == {"j1": 0.25, "j2": 0.5, "j3": 0.75}
    assert figures.decisions["j3"] == {"accept": 1, "reject": 3, "abstain": 0}
    assert [(c.criterion, c.failed, c.judges) for c in figures.failed_criteria] == [
        ("spec_clear", 3, {"j1": 1, "j2": 2}), ("tests_match_spec", 3, {"j3": 3})]


def test_a_second_hand_computed_fleiss_value():
    # P-bar = (1 + 1/3 + 1) / 3 = 7/9; p_accept = 5/9, p_reject = 4/9, P_e = 41/81; kappa = 22/40 = 0.55.
    assert fleiss([(A, A, A), (A, A, R), (R, R, R)]) == pytest.approx(0.55)


def test_kappa_is_undefined_when_every_rating_is_the_same():
    assert fleiss([(A, A, A), (A, A, A)]) is None
    assert cohen([(A, A), (A, A)]) is None
    assert fleiss([(A,)]) is None  # one rater
    figures = agreement(_sets([(A, A, A)]))
    assert figures.fleiss_kappa is None and all(p.kappa is None for p in figures.pairwise)


def test_kappas_compare_the_model_panel_only_and_leave_abstentions_out():
    # Five candidates; the checks (offline) accepted each, then three models decided:
    # c0 A A A; c1 A X R; c2 R R R; c3 A R R; c4 X A A.
    # m1/m2 both decided c0, c2, c3: A-A, R-R, A-R, observed 2/3; m1 accepts 2/3, m2 1/3, chance
    # 2/3*1/3 + 1/3*2/3 = 4/9, kappa (2/3 - 4/9) / (5/9) = 0.4.
    # Fleiss over c0, c2, c3 (every model decided): P-bar 7/9, p_accept 4/9, P_e 41/81, kappa 22/40 = 0.55.
    rows = [(A, A, A), (A, X, R), (R, R, R), (A, R, R), (X, A, A)]
    sets = [[Verdict(candidate_id=f"c{i}", judge=JudgeSpec(backend="offline", name="specification"), decision=A)]
            + [Verdict(candidate_id=f"c{i}", judge=JudgeSpec(backend="litellm", model=f"openai/m{j}", name=f"m{j}"),
                       decision=d) for j, d in enumerate(row, start=1)] for i, row in enumerate(rows)]
    figures = agreement(sets)
    assert figures.layers == {"checks": ("specification",), "models": ("m1", "m2", "m3")}
    assert figures.compared == "models"
    assert figures.rated_items == 3 and figures.fleiss_kappa == pytest.approx(0.55)
    pair = figures.pairwise[0]
    assert (pair.judge_a, pair.judge_b, pair.items, pair.observed) == ("m1", "m2", 3, pytest.approx(2 / 3, abs=1e-6))
    assert pair.kappa == pytest.approx(0.4, abs=1e-6)
    assert [(p.judge_a, p.judge_b) for p in figures.pairwise] == [("m1", "m2"), ("m1", "m3"), ("m2", "m3")]
    assert figures.decisions["m2"] == {"accept": 2, "reject": 2, "abstain": 1}  # still counted, as a decision
    assert figures.decisions["specification"] == {"accept": 5, "reject": 0, "abstain": 0}
