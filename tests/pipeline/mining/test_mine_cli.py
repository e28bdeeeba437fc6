"""`classeval-pro mine --local`: candidates and rejections written into a run, summary and --json."""

from __future__ import annotations

import json

import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module
from typer.testing import CliRunner

from commands.main import app
from core.records import Candidate, Origin, Rejection
from core.store import ArtifactStore
from pipeline.mining.candidates import adapt_repo_tests, with_oracle_tests
from pipeline.mining.pools import static_pools

REPO_TESTS = '''import pytest

from books.tested import TestedLedger


def test_total():
    ledger = TestedLedger()
    ledger.add("a", 2)
    assert ledger.total() == 2
'''

PRIVATE_TEST = '''

def test_checks_the_private_guard():
    ledger = TestedLedger()
    ledger._check_open()
'''


def test_repository_tests_are_pointed_at_the_task_module():
    adapted = adapt_repo_tests(REPO_TESTS, "tested_ledger", {"TestedLedger", "_clean"})
    assert "from tested_ledger import TestedLedger" in adapted and "books.tested" not in adapted
    assert adapt_repo_tests(REPO_TESTS.replace("import pytest", "import numpy"), "m", {"TestedLedger"}) is None
    assert adapt_repo_tests(REPO_TESTS, "m", {"Other"}) is None


def test_oracle_tests_follow_the_repositorys_unless_a_name_would_be_replaced():
    oracle = "import pytest\n\nfrom m import TestedLedger\n\n\ndef test_add_then_total():\n    pass\n"
    joined = with_oracle_tests(REPO_TESTS, oracle)
    assert joined.startswith(REPO_TESTS.rstrip("\n")) and joined.endswith(oracle)
    assert with_oracle_tests(REPO_TESTS, oracle.replace("test_add_then_total", "test_total")) is None


def test_static_pools_use_hints_defaults_and_docstring_examples():
    source = ledger_module().replace('"""Sum of the amounts recorded under `label`."""',
                                     '"""Sum under `label`.\n\n        >>> book.by_label("rent")\n        """')
    pools = static_pools(source, "Ledger")
    assert pools.ctors[0].args == ("100",)
    assert pools.calls["by_label"][0].args == ("'rent'",)
    assert all(len(call.args) == 2 for call in pools.calls["add"])
    assert "labels" in pools.calls and pools.replays


@pytest.mark.slow
def test_mine_command_writes_a_run_and_json(tmp_path, monkeypatch):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2023-01-10", {"books/old.py": ledger_module("OldLedger")})
    commit(repo, "2025-02-01", {"books/fresh.py": ledger_module("FreshLedger"), "README.md": "a ledger cache",
                                "books/tested.py": ledger_module("TestedLedger"),
                                "tests/test_tested.py": REPO_TESTS + PRIVATE_TEST})
    out = tmp_path / "kept.json"
    result = CliRunner().invoke(app, ["mine", "--local", str(tmp_path / "repos"), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "repositories 1  classes seen 3  kept 2" in result.output and "not_fresh" in result.output
    rows = {row["class_name"]: row for row in json.loads(out.read_text())}
    assert set(rows) == {"FreshLedger", "TestedLedger"}
    assert rows["FreshLedger"]["first_commit_date"] == "2025-02-01" and rows["FreshLedger"]["licence"] == "MIT"
    store = ArtifactStore(tmp_path / "artifacts")
    run_id = next(line for line in result.output.splitlines() if line.startswith("run ")).split()[1].rstrip(":")
    candidates = {c.class_name: c for _, c in store.iter_records(run_id, "mine", Candidate)}
    tested = candidates["TestedLedger"]
    assert tested.generator.parameters["tests"] == "repository+oracle"  # the author's tests first, whole
    assert tested.test_code.startswith(adapt_repo_tests(REPO_TESTS, "tested_ledger", {"TestedLedger", "_clean"}).rstrip("\n"))
    assert tested.test_code.count("\ndef test_") > REPO_TESTS.count("\ndef test_")
    # the author's test of a private helper checks what the skeleton does not state: dropped, and recorded
    assert "test_checks_the_private_guard" not in tested.test_code
    assert "_check_open" in tested.generator.parameters["repo_tests_dropped"]["test_checks_the_private_guard"]
    assert candidates["FreshLedger"].generator.parameters["tests"] == "oracle"
    assert candidates["FreshLedger"].origin is Origin.MINED
    assert candidates["FreshLedger"].provenance.first_commit == rows["FreshLedger"]["first_commit"]
    assert [r.reason.value for _, r in store.iter_records(run_id, "rejections", Rejection)] == ["not_fresh"]
    # a rerun resumes: same run, same candidates, nothing built twice
    again = CliRunner().invoke(app, ["mine", "--local", str(tmp_path / "repos")])
    assert again.exit_code == 0 and run_id in again.output


def test_mine_without_a_source_is_an_input_error(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    result = CliRunner().invoke(app, ["mine"])
    assert result.exit_code != 0 and "nothing to mine" in str(result.exception)
