"""The local source on git repositories made with chosen dates: fresh classes kept, old ones rejected."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from git_fixtures import GPL, commit, git, make_repo
from mining_fixtures import ledger_module

from core import settings
from core.domains import load_domains
from core.records import Rejection, RejectReason
from pipeline.mining.local import mine_local
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.tally import Tally

pytestmark = pytest.mark.slow  # each test mines four repositories with git

OLD, NEW = "2023-05-01", "2025-03-01"


def _mine(root: Path, **config) -> tuple[dict[str, MinedClass], dict[str, Rejection], Tally]:
    tally = Tally()
    kept, rejected = {}, {}
    for item in mine_local(root, MineConfig(**config), load_domains(settings.domain_registry_path()), tally):
        if isinstance(item, MinedClass):
            kept[item.class_name] = item
        elif item.evidence.get("class_name"):
            rejected[item.evidence["class_name"]] = item
        else:
            rejected[item.evidence["repository"]] = item
    return kept, rejected, tally


@pytest.fixture(scope="module")
def repos(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("repos")
    repo = make_repo(root / "books")
    commit(repo, OLD, {"books/old.py": ledger_module("OldLedger"), "README.md": "A ledger cache for accounts."})
    commit(repo, "2023-06-01", {"books/moved_src.py": ledger_module("MovedLedger")})
    commit(repo, "2023-07-01", {"books/renamed_src.py": ledger_module("FirstName")})
    # after the cut-off: the old file is touched, the moved class changes file, the renamed class changes name
    commit(repo, NEW, {"books/old.py": ledger_module("OldLedger") + "\nVERSION = 2\n",
                       "books/moved_src.py": None, "books/moved.py": ledger_module("MovedLedger"),
                       "books/renamed_src.py": None, "books/renamed.py": ledger_module("SecondName", flavour="FirstName"),
                       "books/fresh.py": ledger_module("FreshLedger"),
                       "books/numeric.py": ledger_module("NumpyLedger", imports="import numpy as np",
                                                        helper_call="np.round(label)"),
                       "books/mixed.py": ledger_module("MixedLedger", imports="import requests\n\n"
                                                       "def fetch(url):\n    return requests.get(url)\n"),
                       "books/bare.py": ledger_module("BareLedger", documented=False)})
    gpl = make_repo(root / "copyleft", GPL)
    commit(gpl, NEW, {"ledger.py": ledger_module("GplLedger"), "README.md": "A ledger with a cache."})
    none = make_repo(root / "nolicence", None)
    commit(none, NEW, {"ledger.py": ledger_module("UnlicensedLedger")})
    # a bare mirror of the first repository is mined like a clone
    subprocess.run(["git", "clone", "-q", "--mirror", str(repo), str(root / "mirrors" / "books.git")], check=True)
    return root


@pytest.fixture(scope="module")
def mined(repos):
    """The default mining of the fixture repositories, shared by the tests that only read it."""
    return _mine(repos)


def test_fresh_classes_are_kept_with_their_provenance(repos, mined):
    kept, _, _ = mined
    fresh = kept["FreshLedger"]
    assert fresh.first_commit_date == NEW and fresh.licence == "MIT" and fresh.path == "books/fresh.py"
    assert fresh.first_commit == git(repos / "books", "rev-parse", "HEAD").strip() == fresh.commit
    assert fresh.domain in ("Algo_DataStruct", "Business_App")
    assert "class FreshLedger" in fresh.slice_code and "def _clean" in fresh.slice_code
    assert set(kept) == {"FreshLedger", "MixedLedger"}
    # a repository without a remote is named by its folder in what may be released, never by its local path
    assert fresh.url == str(repos / "books") and fresh.origin == f"local:{fresh.repository}"
    assert not fresh.origin.startswith("local:/")


def test_old_moved_and_renamed_classes_are_not_fresh(mined):
    _, rejected, _ = mined
    for name, found_by in (("OldLedger", "name"), ("MovedLedger", "name"), ("SecondName", "body")):
        assert rejected[name].reason is RejectReason.NOT_FRESH, name
        assert rejected[name].evidence["found_by"] == found_by
    assert rejected["OldLedger"].evidence["first_commit_date"] == OLD
    assert rejected["SecondName"].evidence["first_commit_date"] == "2023-07-01"


def test_third_party_use_is_rejected_but_an_unused_import_is_sliced_away(mined):
    kept, rejected, _ = mined
    assert rejected["NumpyLedger"].reason is RejectReason.NOT_SELF_CONTAINED
    assert "requests" not in kept["MixedLedger"].slice_code
    assert rejected["BareLedger"].reason is RejectReason.UNDOCUMENTED


def test_licences_outside_the_allow_list_are_rejected(repos, mined):
    _, rejected, tally = mined
    assert rejected["copyleft"].reason is RejectReason.LICENCE_NOT_ALLOWED
    assert rejected["copyleft"].evidence["licence"] == "GPL-3.0"
    assert rejected["nolicence"].evidence["licence"] == "none"
    assert tally.repositories == ["books", "copyleft", "mirrors/books", "nolicence"]
    kept, _, _ = _mine(repos, licences=("GPL-3.0",))
    assert set(kept) == {"GplLedger"}


def test_a_later_cut_off_rejects_what_was_fresh(repos):
    kept, rejected, _ = _mine(repos, since="2025-06-01")
    assert not kept and rejected["FreshLedger"].reason is RejectReason.NOT_FRESH


def test_an_absent_blob_costs_its_file_only(repos, tmp_path):
    clone = tmp_path / "partial"
    subprocess.run(["git", "clone", "-q", "--mirror", str(repos / "books"), str(clone / "books.git")], check=True)
    blob = git(repos / "books", "rev-parse", "HEAD:books/fresh.py").strip()
    # drop one blob from the mirror: unpack everything loose, then delete that object
    pack_dir = clone / "books.git" / "objects" / "pack"
    for pack in pack_dir.glob("*.pack"):
        moved = tmp_path / pack.name
        pack.rename(moved)
        subprocess.run(["git", "-C", str(clone / "books.git"), "unpack-objects", "-q"], stdin=moved.open("rb"), check=True)
        for index in pack_dir.glob("*.idx"):
            index.unlink()
    (clone / "books.git" / "objects" / blob[:2] / blob[2:]).unlink()
    kept, rejected, _ = _mine(clone)
    assert "MixedLedger" in kept and "FreshLedger" not in kept
    unreadable = [r for r in rejected.values() if r.reason is RejectReason.SOURCE_UNREADABLE]
    assert [r.evidence["path"] for r in unreadable] == ["books/fresh.py"]


def test_one_history_walk_dates_many_names_like_one_query_each(repos, tmp_path):
    from pipeline.mining.freshness import first_by_name, first_by_names
    from pipeline.mining.gitrepo import GitRepo

    repo = GitRepo(repos / "books")
    names = ["OldLedger", "MovedLedger", "FreshLedger", "SecondName", "FirstName", "Absent"]
    together = first_by_names(repo, names)
    for name in names:
        alone = first_by_name(repo, name)
        assert (together.get(name) and (together[name].commit, together[name].timestamp)) == (
            alone and (alone.commit, alone.timestamp)), name
    # a commit that swaps one class header for another in the same file keeps the count of headers: the
    # diff-line walk still sees the new one arrive
    swap = make_repo(tmp_path / "swap")
    commit(swap, "2023-02-01", {"m.py": "class Alpha:\n    pass\n"})
    commit(swap, "2023-03-01", {"m.py": "class Beta:\n    pass\n"})
    assert first_by_names(GitRepo(swap), ["Beta"])["Beta"].date == "2023-03-01"
