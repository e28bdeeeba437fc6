"""`classeval-pro publish` and `classeval-pro release verify` through the console entry point."""

from __future__ import annotations

import os
from datetime import date

import pytest
from release_fixtures import COUNTER_SOLUTION, COUNTER_TEST, build_task

from core.funnel import Funnel
from core.store import ArtifactStore
from pipeline.release.assemble import ReleaseConfig, release
from tests.cli_runner import run_cli
from tests.emulators.hub import HubEmulator

TOKEN = "hf_cliToken456"


@pytest.fixture
def env(tmp_path, monkeypatch):
    saved = dict(os.environ)  # the CLI's callback sets offline defaults with setdefault: undo them afterwards
    os.environ.update({"CLASSEVAL_PRO_ARTIFACTS": str(tmp_path / "artifacts"), "HF_HOME": str(tmp_path / "hf"),
                       "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_TOKEN": TOKEN})
    store = ArtifactStore(tmp_path / "artifacts")
    release(store, "run-1", [build_task()], Funnel(run_id="run-1"), ReleaseConfig(release_date=date(2026, 11, 5)))
    yield store
    os.environ.clear()
    os.environ.update(saved)


def test_publish_twice_then_with_a_bad_token(env, monkeypatch, capsys):
    with HubEmulator(tokens={TOKEN: "alice"}) as hub:
        hub.add_repo("acme/cep")
        code, out, _ = run_cli(monkeypatch, capsys, "publish", "2026.11.0", "--repo", "acme/cep", "--endpoint", hub.endpoint)
        assert code == 0 and "published 2026.11.0 to acme/cep" in out
        code, out, _ = run_cli(monkeypatch, capsys, "publish", "2026.11.0", "--repo", "acme/cep", "--endpoint", hub.endpoint)
        assert code == 0 and "nothing changed" in out
        os.environ["HF_TOKEN"] = "hf_bad"
        code, out, err = run_cli(monkeypatch, capsys, "publish", "2026.11.0", "--repo", "acme/cep", "--endpoint", hub.endpoint)
        assert code == 2 and "acme/cep" in err and "rejected HF_TOKEN" in err and "Traceback" not in err
        assert "hf_bad" not in err + out and TOKEN not in err + out


def test_release_verify(env, monkeypatch, capsys):
    folder = env.release_dir("2026.11.0")
    code, out, _ = run_cli(monkeypatch, capsys, "release", "verify", str(folder))
    assert code == 0 and "matches manifest.json" in out
    (folder / "diff.json").write_text("{}\n")
    code, _, err = run_cli(monkeypatch, capsys, "release", "verify", str(folder))
    assert code == 1 and "diff.json" in err


def test_release_verify_takes_a_version_or_a_path(env, monkeypatch, capsys):
    folder = env.release_dir("2026.11.0")
    for name in ("2026.11.0", str(folder)):
        code, out, err = run_cli(monkeypatch, capsys, "release", "verify", name)
        assert code == 0 and f"{folder}: every file and task matches manifest.json" in out, err


@pytest.mark.parametrize(("name", "message"), [
    ("2026.12.5", "no release 2026.12.5 in "),
    ("2026.1.0", "release version '2026.1.0' needs a two-digit month (2026.01.0)"),
    ("nonsense", "release version 'nonsense' is not a calendar version YYYY.MM.N"),
    ("./elsewhere/2026.11.0", "no such release folder"),
])
def test_release_verify_names_a_missing_release_or_a_bad_version_with_exit_2(env, monkeypatch, capsys, name, message):
    code, out, err = run_cli(monkeypatch, capsys, "release", "verify", name)
    assert code == 2 and message in " ".join(err.split()) and "Traceback" not in err


def test_publish_checks_the_release_then_the_version_then_the_token(env, monkeypatch, capsys):
    del os.environ["HF_TOKEN"]
    for name, message in (("2026.12.5", "no release 2026.12.5"),
                          ("2026.1.0", "needs a two-digit month (2026.01.0)"),
                          ("2026.11.0", "HF_TOKEN is not set")):
        code, _, err = run_cli(monkeypatch, capsys, "publish", name, "--repo", "acme/cep", "--endpoint", "http://127.0.0.1:9")
        assert code == 2 and message in " ".join(err.split()), err


ORDERED_SOLUTION = COUNTER_SOLUTION.replace('''    def total(self):''', '''    def names(self):
        """Return the names counted so far."""
        return list(set(self.counts))

    def total(self):''')
ORDERED_TEST = COUNTER_TEST + '''

def test_names_in_insertion_order():
    c = Counter()
    for name in (1, 2, 3):  # small ints: a set iterates them in this order whatever the hash seed
        c.add(name)
    assert c.names() == [1, 2, 3]
'''


def test_release_faithful_names_the_overspecified_task_and_exits_1(tmp_path, monkeypatch, capsys):
    import json

    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    store = ArtifactStore(tmp_path / "artifacts")
    fair = build_task()
    over = build_task("Ordered", ORDERED_SOLUTION.replace("class Counter", "class Ordered"),
                      ORDERED_TEST.replace("Counter", "Ordered").replace("from counter", "from ordered"), module="ordered")
    release(store, "run-1", [fair, over], Funnel(run_id="run-1"), ReleaseConfig(release_date=date(2026, 11, 5)))
    code, out, err = run_cli(monkeypatch, capsys, "release", "faithful", "2026.11.0", "--json", str(tmp_path / "f.json"))
    assert code == 1, err
    assert "2 of 2 tasks checked, 1 fail a faithful variant" in out
    assert f"{over.task_id} Ordered (enhanced): unordered: test_names_in_insertion_order" in out
    figures = json.loads((tmp_path / "f.json").read_text())
    assert figures["failing_share"] == 0.5 and figures["per_kind"]["unordered"]["tasks_failing"] == 1
