"""Task families (near-variants): derivation, the Task column, one task per family, the card's counts,
and splits written before the column existed."""

from __future__ import annotations

from datetime import date

import pytest
from release_fixtures import COUNTER_SOLUTION, build_task

from core.funnel import Funnel, StageCount
from core.records import CheckResult, GateReport, GeneratorSpec, Origin, Provenance
from core.store import ArtifactStore
from pipeline.release.assemble import ReleaseConfig, release
from pipeline.release.card import families_section, transform_counts
from pipeline.release.dataset_io import load_release, read_split, split_file, task_features
from pipeline.release.family import family_counts, family_of, one_per_family, task_family
from pipeline.release.manifest import verify_release
from pipeline.release.task_list import task_list

CONFIG = ReleaseConfig(release_date=date(2026, 11, 5), near_duplicate_threshold=0.99)
FUNNEL = Funnel(run_id="run-1", stages={"enhance": StageCount(received=3, accepted=3)})
TOTAL = "\n    def total(self):\n        return sum(self.counts.values())\n"


@pytest.fixture(autouse=True)
def _offline(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("HF_HOME", str(tmp_path_factory.mktemp("hf")))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def _variant(name: str, extra: str, *, family: str, transforms: tuple[str, ...] = ("history_undo",)):
    """A task whose class differs enough from the others to survive deduplication, in a chosen family."""
    solution = COUNTER_SOLUTION.replace("Counter", name) + extra
    task = build_task(name, solution, module=name.lower(), candidate_id=f"cand-{name.lower()}")
    seeds = tuple(family.split("+")) if "/" in family and ":" not in family else task.provenance.seed_ids
    return task.model_copy(update={"family": family, "provenance": task.provenance.model_copy(
        update={"transforms": transforms, "seed_ids": seeds})})


def test_family_of_each_origin():
    assert family_of(Origin.ENHANCED, Provenance(seed_ids=("Game_Sim/dice",)), "Dice") == "Game_Sim/dice"
    # A composed task's pair is one family whatever the order the composer took the seeds in.
    assert family_of(Origin.COMPOSED, Provenance(seed_ids=("B/y", "A/x")), "XY") == "A/x+B/y"
    assert family_of(Origin.COMPOSED, Provenance(seed_ids=("A/x", "B/y")), "YX") == "A/x+B/y"
    mined = Provenance(repository="acme/tools", path="src/queue.py", commit="abc")
    assert family_of(Origin.MINED, mined, "JobQueue") == "acme/tools:src/queue.py::JobQueue"
    assert family_of(Origin.MINED, mined, "Other") != family_of(Origin.MINED, mined, "JobQueue")
    assert family_of(Origin.MINED, Provenance(), "Loose") == "mined::Loose"


def test_build_task_records_the_family():
    from core.records import Candidate
    from pipeline.release.task_builder import build_task as make_task

    test = "from counter import Counter\n\n\ndef test_add():\n    assert Counter().add('a') == 1\n"
    candidate = Candidate(candidate_id="c1", class_name="Counter", module_name="counter", domains=("A", "B"),
                          description="d", skeleton="class Counter:\n    pass\n", solution_code=COUNTER_SOLUTION,
                          test_code=test, origin=Origin.COMPOSED, generator=GeneratorSpec(backend="offline"),
                          provenance=Provenance(seed_ids=("B/stack", "A/counter"), transforms=("compose",)))
    report = GateReport(candidate_id="c1", passed=True, checks=(CheckResult(name="x", value=1, passed=True),))
    assert make_task(candidate, report).family == "A/counter+B/stack"


def test_tasks_without_a_recorded_family_get_it_from_their_provenance():
    old = build_task()  # as read from a split written before the column existed
    assert old.family == "" and task_family(old) == "Algo_DataStruct/counter"


def test_one_per_family_keeps_the_first_task_of_each_family_in_order():
    a1 = _variant("Alpha", TOTAL, family="S/a")
    b1 = _variant("Beta", TOTAL, family="S/b")
    a2 = _variant("Gamma", TOTAL, family="S/a")
    assert one_per_family([a1, b1, a2]) == [a1, b1]
    assert one_per_family([a2, b1, a1]) == [a2, b1]
    assert family_counts([a1, b1, a2]) == {"S/a": 2, "S/b": 1}


def test_card_counts_tasks_per_family_and_per_transform():
    tasks = [_variant("Alpha", TOTAL, family="S/a", transforms=("history_undo", "method_statistics")),
             _variant("Beta", TOTAL, family="S/a", transforms=("history_undo",)),
             _variant("Gamma", TOTAL, family="S/a+T/c", transforms=("compose", "woven:x:money->y", "link:z:count->w")),
             _variant("Delta", TOTAL, family="o/r:m.py::Delta", transforms=())]
    assert transform_counts(tasks) == {"link": 1, "compose": 1, "history_undo": 2, "method_statistics": 1, "none": 1}
    text = families_section(tasks)
    assert "4 tasks come from 3 families" in text and "1 families hold more than one task (at most 2)" in text
    assert "| history_undo | 2 |" in text and "| none | 1 |" in text
    # the card names the largest families first; the list of every family and task is in tasks.md
    assert "The largest families: `S/a` 2, `S/a+T/c` 1, `o/r:m.py::Delta` 1;" in text and "(tasks.md)" in text
    listed = task_list("2026.11.0", {"2026.11.0": tasks}, {"added": [t.task_id for t in tasks]})
    assert "| `S/a` | 2 |" in listed and "| `S/a+T/c` | 1 |" in listed and "| `o/r:m.py::Delta` | 1 |" in listed
    assert listed.index("| `S/a` | 2 |") < listed.index("| `S/a+T/c` | 1 |")
    assert all(f"| `{t.task_id}` | {t.class_name} |" in listed for t in tasks) and listed.count("| added |") == 4


@pytest.mark.slow
def test_one_per_family_across_releases_an_older_split_and_the_readme_filter(tmp_path):
    import pyarrow.parquet as pq
    from datasets import concatenate_datasets, load_dataset

    store = ArtifactStore(tmp_path / "artifacts")
    first = _variant("Alpha", TOTAL, family="S/a")
    made = release(store, "run-1", [first], FUNNEL, CONFIG)
    old_split = made.path / split_file("2026.11.0")
    old_split.chmod(0o644)
    pq.write_table(pq.read_table(old_split).drop(["family"]), old_split)  # as a build before the column wrote it
    later_same = _variant("Beta", "\n    def clear(self):\n        self.counts = {}\n        return True\n", family="S/a")
    other = _variant("Gamma", "\n    def names(self):\n        return sorted(self.counts)\n", family="S/b")
    second = release(store, "run-2", [later_same, other], FUNNEL, CONFIG)
    assert second.version == "2026.11.1" and verify_release(second.path) == []

    # The older split comes along with the family column filled from its provenance and requires_python from
    # its code (the fixture's task has none): one schema for all.
    copied = second.path / split_file("2026.11.0")
    assert first.requires_python is None
    first = first.model_copy(update={"requires_python": "3.8", "variant_rank": 1})
    assert set(pq.read_schema(copied).names) == set(task_features()) and read_split(copied) == [first]
    everything = load_release(second.path)
    assert [t.family for t in everything] == ["S/a"] + [t.family for t in sorted([later_same, other], key=lambda t: t.task_id)]
    # The family's task of the earliest release is its first choice; the later variant is ranked after it.
    assert [t.variant_rank for t in everything] == [1] + [2 if t is later_same else 1 for t in
                                                          sorted([later_same, other], key=lambda t: t.task_id)]
    assert load_release(second.path, one_per_family=True) == [first, other.model_copy(update={"variant_rank": 1})]

    # The README's one-liner for `load_dataset` users gives one task per family of the whole release.
    tasks = load_dataset(str(second.path), cache_dir=str(tmp_path / "cache"))
    one = concatenate_datasets(list(tasks.values())).filter(lambda t: t["variant_rank"] == 1)
    assert sorted(one["family"]) == ["S/a", "S/b"] and len(one) == 2
    assert "concatenate_datasets(list(load_dataset(" in (second.path / "README.md").read_text()
