"""The release stage end to end on inline tasks: versions, immutability, reload, manifest, diff, card."""

from __future__ import annotations

import json
import textwrap
from datetime import date

import pytest
from release_fixtures import COUNTER_SOLUTION, build_task, verdict

from core.errors import InputError
from core.funnel import Funnel, StageCount
from core.records import Decision, Origin, Rejection, RejectReason
from core.store import ArtifactStore
from pipeline.release.assemble import PENDING_FILE, ReleaseConfig, release
from pipeline.release.dataset_io import load_release
from pipeline.release.manifest import verify_release

STACK = textwrap.dedent('''
    import collections


    class Stack:
        def __init__(self):
            self.items = collections.deque()
            self.pushes = 0

        def push(self, item):
            self.items.append(item)
            self.pushes += 1

        def pop(self):
            if not self.items:
                raise IndexError("empty stack")
            return self.items.pop()

        def stats(self):
            return {"size": len(self.items), "pushes": self.pushes}
''').lstrip()

QUEUE = textwrap.dedent('''
    class Ledger:
        def __init__(self, owner):
            self.owner = owner
            self.entries = []

        def record(self, amount, memo=""):
            if amount == 0:
                raise ValueError("zero amount")
            self.entries.append((amount, memo))

        def balance(self):
            total = 0
            for amount, _ in self.entries:
                total += amount
            return total

        def statement(self):
            return [f"{self.owner}: {memo} {amount}" for amount, memo in self.entries]
''').lstrip()

NOVEMBER = ReleaseConfig(release_date=date(2026, 11, 5), seed_corpus_hash="abc123", build_configuration={"rng_seed": 1})
FUNNEL = Funnel(run_id="run-1", stages={"enhance": StageCount(received=4, accepted=3),
                                        "validate": StageCount(received=3, accepted=3)})


@pytest.fixture(scope="module")
def hf_home(tmp_path_factory):
    return tmp_path_factory.mktemp("hf")


@pytest.fixture(autouse=True)
def _offline(monkeypatch, hf_home):
    monkeypatch.setenv("HF_HOME", str(hf_home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")


def _tasks():
    counter = build_task(verdicts=(), candidate_id="cand-counter")
    stack = build_task("Stack", STACK.split("\n\n\n", 1)[1], module="stack", imports=("import collections",),
                       candidate_id="cand-stack", domains=("Business_App",))
    dup = build_task(solution=COUNTER_SOLUTION.replace("current", "before"), candidate_id="cand-dup")
    return counter, stack, dup


def test_first_release_writes_everything_and_reloads_exactly(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    counter, stack, dup = _tasks()
    result = release(store, "run-1", [counter, stack, dup], FUNNEL, NOVEMBER)
    assert result.version == "2026.11.0" and result.path == store.release_dir("2026.11.0")
    first, second = sorted([counter, dup], key=lambda t: t.task_id)
    assert sorted(result.released) == sorted([first.task_id, stack.task_id])
    [rejected] = result.rejections
    assert rejected.reason is RejectReason.DUPLICATE and rejected.evidence["matched_task_id"] == first.task_id
    assert store.read("run-1", "release", rejected.candidate_id, Rejection) == rejected
    assert result.funnel.stages["release"].rejected == {RejectReason.DUPLICATE: 1}

    folder = result.path
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "classeval.json", "data", "diff.json", "manifest.json",
                                                              "report.html", "tasks.md"]
    # the two Counter variants are one family with the same features and no mutation score: the task id breaks
    # the tie; each released task records its place in its family
    assert load_release(folder) == [t.model_copy(update={"variant_rank": 1})
                                    for t in sorted([first, stack], key=lambda t: t.task_id)]
    assert verify_release(folder) == []

    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["seed_corpus_hash"] == "abc123" and manifest["configuration"]["build"] == {"rng_seed": 1}
    assert manifest["counts"]["rejected"] == {"duplicate": 1} and manifest["counts"]["splits"] == {"2026.11.0": 2}
    assert manifest["models"]["generators"] == [{"backend": "offline", "model": None, "prompt_version": None, "tasks": 2}]
    assert set(manifest["files"]) == {"README.md", "classeval.json", "data/2026.11.0.parquet", "diff.json", "report.html",
                                      "tasks.md"}

    export = json.loads((folder / "classeval.json").read_text())
    by_name = {e["class_name"]: e for e in export}
    assert "from counter import" not in by_name["Counter"]["test"] and "def test_add_and_total" in by_name["Counter"]["test"]
    assert by_name["Stack"]["import_statement"] == ["import collections"]

    card = (folder / "README.md").read_text()
    from huggingface_hub import DatasetCard
    meta = DatasetCard(card).data.to_dict()
    assert meta["license"] == "mit" and meta["size_categories"] == ["n<1K"]
    assert meta["configs"][0]["data_files"] == [{"split": "2026.11.0", "path": "data/2026.11.0.parquet"}]
    assert "| enhance | 4 | 3 | none |" in card and "duplicate: 1" in card
    assert "No judges ran" in card
    assert "[`report.html`](report.html)" in card
    report = (folder / "report.html").read_text()
    assert "Release 2026.11.0" in report and 'id="figure-domains"' in report and "split 2026.11.0" in report
    assert "| Algo_DataStruct | 1 |" in card and "| Business_App | 1 |" in card
    assert "2 tasks come from 2 families" in card and "`Algo_DataStruct/counter` 1" in card
    # the tasks one by one are beside the card, in tasks.md; the card has their sizes per origin and domain
    listed = (folder / "tasks.md").read_text()
    assert "| `Algo_DataStruct/counter` | 1 |" in listed and f"| `{stack.task_id}` | Stack | enhanced |" in listed
    assert f"| `{stack.task_id}` |" not in card and "[`tasks.md`](tasks.md)" in card
    assert "| origin | enhanced | 2 | 2 (1.0) |" in card and "| domain | Business_App | 1 | 1 (1.0) |" in card
    # No Hub repository configured: the loading example loads this folder. Only the sources that
    # contributed are described.
    # The artifacts folder lies outside the checkout: the example names the release relative to it, never
    # by a path on the maintainer's machine (the card is published as it is).
    assert 'load_dataset("releases/2026.11.0", split="2026.11.0")' in card and "ORG/NAME" not in card
    assert str(tmp_path) not in card and "relative to the checkout that built the release" in card
    assert "The tasks come from one source: seed classes made harder" in card and "mined" not in card.split("## How it was built")[1].split("###")[0]


def test_the_card_names_the_configured_repository_and_every_contributing_source(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    counter, _, _ = _tasks()
    stack = build_task("Stack", STACK.split("\n\n\n", 1)[1], module="stack", imports=("import collections",),
                       candidate_id="cand-stack", origin=Origin.COMPOSED)
    tasks = [counter, stack]
    result = release(store, "run-1", tasks, FUNNEL, NOVEMBER.model_copy(update={"repo_hint": "acme/cep"}))
    card = (result.path / "README.md").read_text()
    assert 'load_dataset("acme/cep", split="2026.11.0")' in card
    assert "The tasks come from 2 sources: two classes from different domains fused into one (`compose`): 1; " \
           "seed classes made harder by weaving in features (`enhance`): 1." in card


def test_rerun_with_unchanged_inputs_makes_no_release(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    tasks = _tasks()
    release(store, "run-1", tasks, FUNNEL, NOVEMBER)
    again = release(store, "run-2", tasks, FUNNEL, NOVEMBER)
    assert again.version is None and not again.created and again.released == []
    assert "no new release" in again.message and "duplicate" in again.message
    assert store.existing_releases() == ["2026.11.0"]
    assert [r.evidence["matched_release"] for r in again.rejections] == ["2026.11.0"] * 3


def test_second_release_adds_a_split_keeps_the_first_and_reports_the_diff(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    counter, stack, _ = _tasks()
    first = release(store, "run-1", [counter], FUNNEL, NOVEMBER)
    ledger = build_task("Ledger", QUEUE, module="ledger", candidate_id="cand-ledger",
                        verdicts=tuple(verdict("cand-ledger", j, d) for j, d in
                                       (("p1", Decision.ACCEPT), ("p2", Decision.ACCEPT), ("p3", Decision.REJECT))))
    second = release(store, "run-2", [ledger, stack], FUNNEL, NOVEMBER)
    assert second.version == "2026.11.1"
    old_split = first.path / "data" / "2026.11.0.parquet"
    assert (second.path / "data" / "2026.11.0.parquet").read_bytes() == old_split.read_bytes()
    assert load_release(second.path) == [t.model_copy(update={"variant_rank": 1})
                                         for t in [counter, *sorted([ledger, stack], key=lambda t: t.task_id)]]
    assert verify_release(second.path) == [] and verify_release(first.path) == []
    assert sorted(second.diff["added"]) == sorted([ledger.task_id, stack.task_id])
    assert second.diff["removed"] == [] and second.diff["unchanged"] == 1
    card = (second.path / "README.md").read_text()
    assert "1 of 3 tasks carry judge verdicts" in card and "offline/p1" in card
    december = release(store, "run-3", [build_task("Counter", COUNTER_SOLUTION + "\n    def clear(self):\n"
                                                   "        self.counts = {}\n        return True\n\n    def size(self):\n"
                                                   "        return len(self.counts)\n", candidate_id="cand-c2")],
                       FUNNEL, NOVEMBER.model_copy(update={"release_date": date(2026, 12, 1),
                                                           "near_duplicate_threshold": 0.99}))
    assert december.version == "2026.12.0"
    assert [c["previous_task_ids"] for c in december.diff["changed"]] == [[counter.task_id]]


def test_contaminated_tasks_are_rejected_with_their_report(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    counter, stack, _ = _tasks()
    bench = tmp_path / "ClassEval_data.json"
    bench.write_text(json.dumps([{"task_id": "ClassEval_1", "skeleton": "", "solution_code": COUNTER_SOLUTION}]))
    result = release(store, "run-1", [counter, stack], FUNNEL, NOVEMBER, benchmarks=[bench])
    [rejected] = result.rejections
    assert rejected.reason is RejectReason.CONTAMINATED and "ClassEval_data.json:ClassEval_1" in rejected.detail
    assert rejected.evidence["report"]["score"] == 1.0
    reports = json.loads((store.runs / "run-1" / "release_decontamination.json").read_text())["reports"]
    assert len(reports) == 2
    assert result.released == [stack.task_id]


def test_tampering_is_reported_by_verify(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    result = release(store, "run-1", list(_tasks()[:2]), FUNNEL, NOVEMBER)
    (result.path / "classeval.json").write_text("[]\n")
    (result.path / "extra.txt").write_text("x")
    problems = verify_release(result.path)
    assert any("classeval.json: sha256" in p for p in problems)
    assert any("extra.txt: not listed" in p for p in problems)
    manifest = json.loads((result.path / "manifest.json").read_text())
    first_id = sorted(manifest["tasks"])[0]
    manifest["tasks"][first_id]["sha256"] = "0" * 64
    (result.path / "manifest.json").write_text(json.dumps(manifest))
    assert any(f"task {first_id} does not match" in p for p in verify_release(result.path))


def test_a_release_that_fails_its_self_check_leaves_nothing_behind(tmp_path, monkeypatch):
    import pipeline.release.assemble as assemble

    store = ArtifactStore(tmp_path / "artifacts")
    monkeypatch.setattr(assemble, "verify_release", lambda folder: [f"{folder}/data: damaged"])
    with pytest.raises(assemble.InputError, match="failed its own check"):
        release(store, "run-1", [build_task()], FUNNEL, NOVEMBER)
    assert store.existing_releases() == [] and list(store.releases.iterdir()) == []


def test_a_run_cut_short_after_its_release_appeared_gets_that_release_back(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    tasks = _tasks()
    first = release(store, "run-1", tasks, FUNNEL, NOVEMBER)
    # The run was stopped after the rename, before its outcome was recorded: the stage runs again.
    again = release(store, "run-1", tasks, FUNNEL, NOVEMBER)
    assert (again.version, again.released, again.message) == (first.version, first.released, first.message)
    assert again.funnel == first.funnel and again.rejections == first.rejections
    assert store.existing_releases() == ["2026.11.0"]


def test_a_pending_record_of_a_release_another_run_made_is_not_trusted(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    tasks = _tasks()
    release(store, "run-1", tasks, FUNNEL, NOVEMBER)
    pending = json.loads((store.runs / "run-1" / PENDING_FILE).read_text())
    # run-2 stopped before its rename; its version was then made by run-1 (another manifest)
    store.write_run_file("run-2", PENDING_FILE, json.dumps({**pending, "manifest_sha256": "0" * 64}))
    again = release(store, "run-2", tasks, FUNNEL, NOVEMBER)
    assert again.version is None and "duplicate" in again.message


def test_an_unreadable_pending_record_is_named_not_guessed_at(tmp_path):
    store = ArtifactStore(tmp_path / "artifacts")
    store.write_run_file("run-1", PENDING_FILE, '{"version": "2026.11.0"')
    with pytest.raises(InputError, match=r"release\.pending\.json: not a valid PendingRelease record"):
        release(store, "run-1", _tasks(), FUNNEL, NOVEMBER)
    assert store.existing_releases() == []
