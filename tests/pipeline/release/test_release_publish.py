"""publish() through the real huggingface_hub client against the local Hub emulator."""

from __future__ import annotations

import logging
import os
from datetime import date

import pytest
from release_fixtures import build_task

from core.errors import InputError
from core.funnel import Funnel
from core.settings import Settings
from core.store import ArtifactStore
from pipeline.release.assemble import ReleaseConfig, release
from pipeline.release.publish import publish
from tests.emulators.hub import HubEmulator

TOKEN = "hf_emulatorWriteToken123"
REPO = "acme/classeval-pro"


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    store = ArtifactStore(tmp_path / "artifacts")
    release(store, "run-1", [build_task()], Funnel(run_id="run-1"), ReleaseConfig(release_date=date(2026, 11, 5)))
    return store


def resolved(store: ArtifactStore) -> Settings:
    """The settings a command resolves from the environment (the token is HF_TOKEN), on the test's artifacts."""
    return Settings.from_environment().model_copy(update={"artifacts": store.root})


@pytest.fixture
def hub():
    with HubEmulator(tokens={TOKEN: "alice"}) as emulator:
        emulator.add_repo(REPO)
        yield emulator


def test_publish_uploads_the_folder_and_tags_it_and_a_repush_changes_nothing(store, hub, caplog):
    caplog.set_level(logging.DEBUG)
    from huggingface_hub import constants
    offline_before = constants.HF_HUB_OFFLINE
    result = publish("2026.11.0", REPO, resolved(store), endpoint=hub.endpoint)
    assert result.changed
    repo = hub.repo(REPO)
    assert repo.tags == {"2026.11.0": result.commit} and repo.branches["main"] == result.commit
    folder = store.release_dir("2026.11.0")
    uploaded = repo.commits[result.commit].files
    for path in folder.rglob("*"):
        if path.is_file():
            assert uploaded[path.relative_to(folder).as_posix()] == path.read_bytes()
    commits_before = len(repo.commits)
    again = publish("2026.11.0", REPO, resolved(store), endpoint=hub.endpoint)
    assert not again.changed and again.commit == result.commit and "nothing changed" in again.message
    assert len(repo.commits) == commits_before and not any("/commit/" in p for _, p in hub.requests[-3:])
    # The token went only into Authorization headers: not into logs, not into the release.
    assert TOKEN not in caplog.text
    assert all(TOKEN not in p.read_text(errors="ignore") for p in folder.rglob("*") if p.is_file())
    # Offline mode is back on for the rest of the process.
    assert constants.HF_HUB_OFFLINE == offline_before and os.environ["HF_HUB_OFFLINE"] == "1"


def test_a_later_version_uploads_only_new_files_and_an_older_one_is_refused(store, hub):
    publish("2026.11.0", REPO, resolved(store), endpoint=hub.endpoint)
    other = build_task("Tally", "class Tally:\n    def __init__(self):\n        self.n = 0\n\n    def up(self):\n"
                       "        self.n += 1\n        return self.n\n", module="tally", candidate_id="cand-tally")
    release(store, "run-2", [other], Funnel(run_id="run-2"), ReleaseConfig(release_date=date(2026, 11, 9)))
    second = publish("2026.11.1", REPO, resolved(store), endpoint=hub.endpoint)
    repo = hub.repo(REPO)
    assert set(repo.tags) == {"2026.11.0", "2026.11.1"}
    assert {"data/2026.11.0.parquet", "data/2026.11.1.parquet"} <= set(repo.commits[second.commit].files)
    repo.tags.pop("2026.11.0")
    with pytest.raises(InputError, match="newer release 2026.11.1"):
        publish("2026.11.0", REPO, resolved(store), endpoint=hub.endpoint)


def test_bad_token_missing_repo_and_unset_token_fail_clearly(store, hub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_wrong")
    with pytest.raises(InputError, match=f"publishing to {REPO}: .* rejected HF_TOKEN") as bad:
        publish("2026.11.0", REPO, resolved(store), endpoint=hub.endpoint)
    assert "hf_wrong" not in str(bad.value)
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    with pytest.raises(InputError, match="dataset repository acme/missing not found"):
        publish("2026.11.0", "acme/missing", resolved(store), endpoint=hub.endpoint)
    created = publish("2026.11.0", "acme/fresh", resolved(store), endpoint=hub.endpoint, create=True)
    assert hub.repo("acme/fresh").tags == {"2026.11.0": created.commit}
    monkeypatch.delenv("HF_TOKEN")
    with pytest.raises(InputError, match="HF_TOKEN is not set"):
        publish("2026.11.0", REPO, resolved(store), endpoint=hub.endpoint)
    assert hub.repo(REPO).tags == {}


def test_a_release_that_fails_verification_is_not_published(store, hub):
    (store.release_dir("2026.11.0") / "classeval.json").write_text("[]\n")
    with pytest.raises(InputError, match="does not verify"):
        publish("2026.11.0", REPO, resolved(store), endpoint=hub.endpoint)
    assert hub.requests == []


def test_checks_run_in_order_release_then_version_then_token(store, hub, monkeypatch):
    monkeypatch.delenv("HF_TOKEN", raising=False)
    with pytest.raises(InputError, match=r"no release 2026\.11\.7 in .*releases there: 2026\.11\.0"):
        publish("2026.11.7", REPO, resolved(store), endpoint=hub.endpoint)
    with pytest.raises(InputError, match=r"release version '2026\.1\.0' needs a two-digit month \(2026\.01\.0\)"):
        publish("2026.1.0", REPO, resolved(store), endpoint=hub.endpoint)
    with pytest.raises(InputError, match="HF_TOKEN is not set"):
        publish(str(store.release_dir("2026.11.0")), REPO, resolved(store), endpoint=hub.endpoint)  # a path works too
    assert hub.requests == []


def test_an_unreachable_hub_is_named_by_its_host(store):
    # port 9 (discard) on the loopback: nothing listens, the connection is refused at once, no network used
    with pytest.raises(InputError) as caught:
        publish("2026.11.0", REPO, resolved(store), endpoint="http://127.0.0.1:9")
    message = str(caught.value)
    assert "cannot reach the Hub at 127.0.0.1:9 (http://127.0.0.1:9)" in message and TOKEN not in message
