"""Code that is not the repository's own, or not what it looks like, is not mined: third-party code
committed with the repository (a virtual environment, site-packages, vendor/) is one `vendored` rejection
per folder, and a class whose slice carries invisible characters (a zero-width watermark in the file's
header) is rejected `hidden_characters`."""

from __future__ import annotations

from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module

from core import settings
from core.domains import load_domains
from core.records import Rejection
from pipeline.mining.local import mine_local
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.tally import Tally
from pipeline.mining.vendored import split_vendored, vendored_root

MARK = "\u200b\u200c\u200b"


def test_vendored_folders_are_found_by_name_and_by_a_virtual_environments_layout():
    assert vendored_root("env/lib/python3.12/site-packages/six.py") == "env"
    assert vendored_root("tools/py/Lib/python3/x.py") == "tools/py"
    assert vendored_root(".venv/bin/activate_this.py") == ".venv"
    assert vendored_root("src/pkg/_vendor/attr/x.py") == "src/pkg/_vendor"
    assert vendored_root("src/pkg/vendors.py") is None and vendored_root("lib/helpers.py") is None
    own, vendored = split_vendored(["a.py", "vendor/x.py", "vendor/y/z.py", "b/c.py"])
    assert own == ["a.py", "b/c.py"] and vendored == {"vendor": 2}


def test_a_mine_skips_vendored_code_and_rejects_hidden_characters(tmp_path):
    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2025-03-01", {
        "README.md": "a ledger cache",
        "books/fresh.py": ledger_module("FreshLedger"),
        "books/marked.py": f"# Ledger library {MARK}\n" + ledger_module("MarkedLedger"),
        "venv/lib/python3.11/site-packages/ledgers/core.py": ledger_module("InstalledLedger"),
        "venv/lib/python3.11/site-packages/ledgers/more.py": ledger_module("OtherLedger"),
        "third_party/ledger.py": ledger_module("CopiedLedger"),
    })
    config = MineConfig(local=tmp_path / "repos")
    found = list(mine_local(config.local, config, load_domains(settings.domain_registry_path()), Tally()))
    assert [item.class_name for item in found if isinstance(item, MinedClass)] == ["FreshLedger"]
    rejected = {(r.evidence["path"], r.evidence["class_name"]): r for r in found if isinstance(r, Rejection)}
    assert rejected[("venv", "")].reason.value == "vendored" and rejected[("venv", "")].evidence["files"] == 2
    assert rejected[("third_party", "")].reason.value == "vendored"
    hidden = rejected[("books/marked.py", "MarkedLedger")]
    assert hidden.reason.value == "hidden_characters"
    assert "U+200B ZERO WIDTH SPACE" in hidden.detail and "line 1" in hidden.detail
    assert not any("Installed" in name or "Copied" in name for _, name in rejected)
