"""Variants chosen on purpose: a release keeps at most the configured number of tasks per family, chosen for
the features they add, then the higher mutation score, the task id last; deduplication and the one-per-family
choice follow the same order; a variant left out is a rejection with its reason; the card says how."""

from __future__ import annotations

from datetime import date

import pytest
from release_fixtures import COUNTER_SOLUTION, build_task

from core.funnel import Funnel, StageCount
from core.records import RejectReason, Rejection
from core.store import ArtifactStore
from pipeline.release.assemble import ReleaseConfig, release
from pipeline.release.dataset_io import load_release
from pipeline.release.family import one_per_family
from pipeline.release.variants import choose_variants, family_order, preference_order
from pipeline.stages.config import load_config

FUNNEL = Funnel(run_id="run-1", stages={"enhance": StageCount(received=5, accepted=5)})
CONFIG = ReleaseConfig(release_date=date(2026, 11, 5), near_duplicate_threshold=0.99)


@pytest.fixture(autouse=True)
def _offline(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("HF_HOME", str(tmp_path_factory.mktemp("hf")))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def _variant(name: str, transforms: tuple[str, ...], mutation: float | None, *, extra: str = "",
             seed: str = "Algo_DataStruct/counter"):
    """A variant of one seed's family; `extra` methods make its class differ from the others."""
    solution = COUNTER_SOLUTION.replace("Counter", name) + extra
    task = build_task(name, solution, module=name.lower(), candidate_id=f"cand-{name.lower()}",
                      metrics={"line_coverage": 0.95, "mutation_score": mutation})
    return task.model_copy(update={"family": seed, "provenance": task.provenance.model_copy(
        update={"transforms": transforms, "seed_ids": (seed,)})})


METHODS = [f"\n    def m{i}(self):\n        return {{'k{i}': len(self.counts) * {i}}}\n" * 3 for i in range(6)]


def test_the_order_is_distinct_features_then_mutation_score_then_task_id():
    rich = _variant("Rich", ("undo", "lock", "batch"), 0.5)
    same_strong = _variant("Same", ("undo", "lock"), 0.9)
    other = _variant("Other", ("statistics",), 0.1)
    tie_a, tie_b = _variant("TieA", ("undo",), 0.7), _variant("TieB", ("undo",), 0.7)
    # the richest first; then the one adding a feature beats a stronger one adding none
    assert family_order([same_strong, other, rich]) == [rich, other, same_strong]
    # equal features: the higher mutation score; an unmeasured score ranks below any measured one
    unmeasured = _variant("Unmeasured", ("undo",), None)
    assert family_order([unmeasured, tie_a, _variant("Weak", ("undo",), 0.2)])[0] == tie_a
    assert family_order([unmeasured, _variant("Weak", ("undo",), 0.2)])[-1] == unmeasured
    # only a full tie falls to the task id, in any input order
    assert family_order([tie_b, tie_a]) == family_order([tie_a, tie_b]) == sorted([tie_a, tie_b], key=lambda t: t.task_id)
    # after a variant already released, the one adding what it lacks comes first
    assert family_order([same_strong, other], chosen=[rich]) == [other, same_strong]


def test_the_limit_counts_earlier_releases_and_ranks_continue_after_them():
    old = _variant("Old", ("undo",), 0.5)
    new = [_variant("A", ("lock",), 0.4), _variant("B", ("undo",), 0.9), _variant("C", ("batch",), 0.3)]
    choice = choose_variants(new, earlier=[old], limit=2)
    assert [(t.class_name, t.variant_rank) for t in choice.kept] == [("A", 2)]
    assert [(t.class_name, [a.class_name for a in ahead]) for t, ahead in choice.dropped] == \
        [("B", ["Old", "A"]), ("C", ["Old", "A"])]
    assert len(choose_variants(new, earlier=[old], limit=None).kept) == 3
    # across families, every family's first choice comes before any second choice
    lone = _variant("Lone", ("undo",), 0.0, seed="Game_Sim/dice")
    order = preference_order([*new, lone])
    assert [t.class_name for t in order][:2] == ["B", "Lone"]


def test_a_release_keeps_the_chosen_variants_and_records_the_others(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    tasks = [_variant("Plain", ("undo",), 0.95, extra=METHODS[0]),
             _variant("Locked", ("undo", "lock"), 0.6, extra=METHODS[1]),
             _variant("Batched", ("undo", "batch"), 0.8, extra=METHODS[2]),
             _variant("Counted", ("statistics",), 0.7, extra=METHODS[3])]
    result = release(store, "run-1", tasks, FUNNEL, CONFIG)
    kept = load_release(result.path)
    # first the variant adding the most features (two; of the two such, the stronger tests), then the one
    # adding a feature not yet covered (statistics), whatever their ids
    assert {t.class_name: t.variant_rank for t in kept} == {"Batched": 1, "Counted": 2}
    assert [t.class_name for t in one_per_family(kept)] == ["Batched"]
    rejected = {r.evidence["task"]["task_id"]: r for r in result.rejections}
    assert {r.reason for r in rejected.values()} == {RejectReason.VARIANT_LIMIT} and len(rejected) == 2
    locked = next(r for r in result.rejections if r.evidence["task"]["features"] == ["lock", "undo"])
    assert locked.evidence["family"] == "Algo_DataStruct/counter" and locked.evidence["limit"] == 2
    assert [a["mutation_score"] for a in locked.evidence["chosen_ahead"]] == [0.8, 0.7]
    assert "it adds lock" in locked.detail
    assert store.read("run-1", "release", locked.candidate_id, Rejection) == locked
    assert result.funnel.stages["release"].rejected == {RejectReason.VARIANT_LIMIT: 2}
    card = (result.path / "README.md").read_text()
    assert "at most 2 task(s) per family" in card and "2 variant(s) of this build were left out" in card
    assert "variant_limit: 2" in card  # the funnel's row

    everything = release(ArtifactStore(tmp_path / "all"), "run-1", tasks, FUNNEL,
                         CONFIG.model_copy(update={"max_variants_per_family": None}))
    assert len(everything.released) == 4 and "keeps every variant" in (everything.path / "README.md").read_text()


def test_of_two_near_duplicates_the_preferred_variant_stays_not_the_lower_id(tmp_path):
    weak = _variant("Twin", ("undo",), 0.2)
    strong = _variant("Twin", ("undo",), 0.9, extra="\n    def extra(self):\n        return 1\n")
    strong = strong.model_copy(update={"candidate_id": "cand-strong"})
    result = release(ArtifactStore(tmp_path / "artifacts"), "run-1", [weak, strong], FUNNEL,
                     CONFIG.model_copy(update={"near_duplicate_threshold": 0.5}))
    assert result.released == [strong.task_id]
    [rejected] = result.rejections
    assert rejected.reason is RejectReason.NEAR_DUPLICATE and rejected.evidence["task_id"] == weak.task_id


def test_the_limit_is_read_from_the_build_configuration(tmp_path):
    assert load_config(None).release.max_variants_per_family == 2
    path = tmp_path / "build.toml"
    path.write_text("[release]\nmax_variants_per_family = 3\n", encoding="utf-8")
    assert load_config(path).release.max_variants_per_family == 3
