"""No file ends a mine: a repository holding 3.12 and 3.13 syntax, a null byte, a file that is not UTF-8, a
5 MB generated file and symbolic links in a loop is mined to the end; each such file or class is a
rejection naming why, the other classes are kept, and the command exits 0."""

from __future__ import annotations

import os
import sys

import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import HELPER, ledger_class, ledger_module
from typer.testing import CliRunner

from commands.main import app
from core import settings
from core.domains import load_domains
from core.records import Candidate, Rejection, RejectReason
from core.store import ArtifactStore
from pipeline.mining.local import mine_local
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.tally import Tally
from pipeline.stages.config import BuildConfig
from pipeline.stages.mine import supported_by
from tests.interpreters import make_venv, python_or_skip, stand_in
from validation.sandbox.interpreter import probe

RUNNING = sys.version_info[:2]
ITEM = '''
from dataclasses import dataclass


@dataclass
class _Item[KEY, VAL]:
    """One entry of a cache."""

    key: KEY
    value: VAL
'''
BATCHED = ledger_class("BatchedLedger", extra_method='''
def in_pairs(self) -> list[tuple]:
    """The entries two at a time."""
    return list(itertools.batched(self.batchedledger_entries, 2))
''')


def _files() -> dict[str, str]:
    return {
        "README.md": "a ledger cache",
        "books/fresh.py": ledger_module("FreshLedger"),
        # 3.12: a generic class (and the dataclass that once ended the whole mine), a type statement the
        # class needs through its slice, an f-string nesting its own quotes
        "books/generic.py": ITEM + HELPER + ledger_class("GenericLedger").replace("class GenericLedger:",
                                                                                   "class GenericLedger[T]:"),
        "books/aliased.py": "type Label = str\n" + HELPER + ledger_class("AliasedLedger").replace(
            "def add(self, label: str,", "def add(self, label: Label,"),
        "books/quoted.py": HELPER + ledger_class("QuotedLedger", extra_method='''
def describe(self) -> str:
    """The entries as text."""
    return f"{", ".join(f"{name}={amount}" for name, amount in self.quotedledger_entries)}"
'''),
        "books/batched.py": "import itertools\n" + HELPER + BATCHED,
        # 3.13: a type parameter with a default
        "books/defaults.py": HELPER + ledger_class("DefaultLedger").replace("class DefaultLedger:",
                                                                              "class DefaultLedger[T = int]:"),
        "books/broken.py": "def broken(:\n    pass\n",
    }


def _make_repository(root):
    repo = make_repo(root / "repos" / "books")
    files = _files()
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    (repo / "books" / "nul.py").write_bytes(ledger_module("NulLedger").encode() + b"\nMARK = '\x00'\n")
    (repo / "books" / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\n"
                                              + ledger_module("CafeLedger").encode() + b"\nNAME = 'caf\xe9'\n")
    with open(repo / "books" / "generated.py", "w") as out:  # 5 MB of generated constants
        for index in range(230_000):
            out.write(f"VALUE_{index:07d} = {index}\n")
    os.symlink("loop_b.py", repo / "books" / "loop_a.py")
    os.symlink("loop_a.py", repo / "books" / "loop_b.py")
    os.symlink(".", repo / "books" / "cycle")
    commit(repo, "2025-03-01", {})
    os.symlink(".", root / "repos" / "again")  # a loop in the folder being searched for repositories
    return repo


def _by_class(rejections: list[Rejection]) -> dict[str, Rejection]:
    return {r.evidence["class_name"] or r.evidence["path"]: r for r in rejections}


def _expect_newer(rejected: dict[str, Rejection], name: str, construct: str, version: tuple[int, int]) -> None:
    if version > RUNNING:
        assert rejected[name].reason.value == "unsupported_syntax", rejected[name]
        assert construct in rejected[name].detail and f"needs Python {version[0]}.{version[1]}" in rejected[name].detail


@pytest.mark.slow
def test_a_repository_of_odd_files_is_mined_to_the_end(tmp_path, monkeypatch):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    repo = _make_repository(tmp_path)
    assert (repo / "books" / "generated.py").stat().st_size > 5_000_000
    result = CliRunner().invoke(app, ["mine", "--local", str(tmp_path / "repos")])
    assert result.exit_code == 0, result.output
    assert "repositories 1 " in result.output  # the looped folder did not find the repository twice
    store = ArtifactStore(tmp_path / "artifacts")
    run_id = next(line for line in result.output.splitlines() if line.startswith("run ")).split()[1].rstrip(":")
    # What this interpreter can read and run is mined like any class; what needs a newer one is rejected.
    newer = {"GenericLedger": ("type parameter list (PEP 695)", (3, 12)),
             "AliasedLedger": ("type alias statement (PEP 695)", (3, 12)),
             "QuotedLedger": ("(PEP 701)", (3, 12)), "BatchedLedger": ("itertools.batched", (3, 12)),
             "DefaultLedger": ("type parameter default (PEP 696)", (3, 13))}
    mined = sorted(c.class_name for _, c in store.iter_records(run_id, "mine", Candidate))
    assert mined == sorted(["FreshLedger", *(name for name, (_, version) in newer.items() if version <= RUNNING)])
    rejected = _by_class([r for _, r in store.iter_records(run_id, "rejections", Rejection)])
    for name, (construct, version) in newer.items():
        _expect_newer(rejected, name, construct, version)
    _expect_newer(rejected, "_Item", "type parameter list (PEP 695)", (3, 12))
    assert rejected["books/broken.py"].reason.value == "syntax_error"
    assert rejected["books/nul.py"].reason.value == "syntax_error" and "null byte" in rejected["books/nul.py"].detail
    latin = rejected["books/latin.py"]
    assert latin.reason.value == "source_unreadable" and "not UTF-8" in latin.detail and "declares iso-8859-1" in latin.detail
    assert rejected["books/generated.py"].reason.value == "too_large"
    for link in ("books/loop_a.py", "books/loop_b.py"):
        assert rejected[link].reason.value == "source_unreadable" and "symbolic link" in rejected[link].detail
    assert ("unsupported_syntax" in result.output) == any(version > RUNNING for _, version in newer.values())


def test_the_mine_uses_the_version_its_pools_interpreter_gave(tmp_path):
    """A class needing 3.12's standard library is kept when the pool's interpreter answered 3.12 (here a
    stand-in answering the probe), and rejected when it answered this process's version."""
    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2025-03-01", {"README.md": "a ledger cache", "books/batched.py": "import itertools\n" + HELPER + BATCHED})
    class AskedPool:
        interpreter = probe(stand_in(tmp_path / "python3.12", (3, 12, 9)))

    def mine(pool):
        config = MineConfig(local=tmp_path / "repos")
        return list(mine_local(config.local, config, load_domains(settings.domain_registry_path()), Tally(),
                               supported=supported_by(pool)))

    kept = [i.class_name for i in mine(AskedPool()) if isinstance(i, MinedClass)]
    assert kept == ["BatchedLedger"]

    class OwnPool:
        interpreter = probe(make_venv(tmp_path / "venv"))

    if RUNNING < (3, 12):
        assert [i.reason.value for i in mine(OwnPool()) if isinstance(i, Rejection)] == ["unsupported_syntax"]


@pytest.mark.slow
def test_a_configured_newer_interpreter_makes_a_candidate_of_what_needs_it(tmp_path, monkeypatch):
    python = python_or_skip((3, 12))
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2025-03-01", {"README.md": "a ledger cache", "books/batched.py": "import itertools\n" + HELPER + BATCHED})
    result = CliRunner().invoke(app, ["mine", "--local", str(tmp_path / "repos"), "--sandbox-python", python])
    assert result.exit_code == 0, result.output
    assert "CPython 3.12" in result.output
    store = ArtifactStore(tmp_path / "artifacts")
    run_id = next(line for line in result.output.splitlines() if line.startswith("run ")).split()[1].rstrip(":")
    candidates = [c for _, c in store.iter_records(run_id, "mine", Candidate)]
    assert [c.class_name for c in candidates] == ["BatchedLedger"]
    assert candidates[0].requires_python == "3.12" and "itertools.batched" in candidates[0].test_code + candidates[0].solution_code


def test_a_class_whose_candidate_cannot_be_built_costs_that_class_only(tmp_path, monkeypatch):
    from pipeline.stages import mine as stage

    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2025-03-01", {"README.md": "a ledger cache", "books/a.py": ledger_module("OddLedger"),
                                "books/b.py": ledger_module("FineLedger")})
    real = stage.build_candidate

    def build(mined, **kwargs):
        if mined.class_name == "OddLedger":
            raise IndexError("a corner of the analysis nobody foresaw")
        return real(mined, **kwargs)

    monkeypatch.setattr(stage, "build_candidate", build)
    store = ArtifactStore(tmp_path / "artifacts")
    with BuildConfig().sandbox_pool(1) as pool:
        work = stage.mine_one(store, "run-1", "local:books", MineConfig(local=tmp_path / "repos"),
                              load_domains(settings.domain_registry_path()), pool=pool)
    assert work.rejected == {RejectReason.INTERNAL_ERROR: 1} and len(work.kept) == 1
    odd = next(r for _, r in store.iter_records("run-1", "rejections", Rejection))
    assert "IndexError: a corner" in odd.detail and odd.evidence["class_name"] == "OddLedger"

