"""`classeval-pro domains` reads the registry; a new domain needs no code change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from commands.main import main
from tests.pipeline.corpus_fixture import BUNDLED_REGISTRY, COUNTER_SOURCE, COUNTER_TESTS, write_seed


def _run(monkeypatch, *args: str) -> int:
    monkeypatch.setattr("sys.argv", ["classeval-pro", *args])
    with pytest.raises(SystemExit) as info:
        main()
    return info.value.code


def test_domains_lists_the_eleven_bundled_domains(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    assert _run(monkeypatch, "domains") == 0
    out = capsys.readouterr().out
    assert "11 domains" in out
    for name in ("Algo_DataStruct", "Finance_Ecommerce", "Utils_Tools"):
        assert name in out


def test_a_twelfth_domain_is_one_registry_entry_and_a_seeds_folder(tmp_path: Path, monkeypatch, capsys):
    root = tmp_path / "seeds"
    root.mkdir()
    shutil.copy(BUNDLED_REGISTRY, root / "domains.toml")
    with (root / "domains.toml").open("a") as registry:
        registry.write('\n[[domain]]\nname = "Science_Lab"\ndescription = "Lab instruments."\nkeywords = ["lab"]\n')
    write_seed(root, "Science_Lab", "counter", COUNTER_SOURCE, COUNTER_TESTS, "Counter")
    monkeypatch.setenv("CLASSEVAL_PRO_SEEDS", str(root))
    monkeypatch.setenv("COLUMNS", "200")
    assert _run(monkeypatch, "domains") == 0
    out = capsys.readouterr().out
    assert "12 domains" in out
    row = next(line for line in out.splitlines() if "Science_Lab" in line)
    assert " 1 " in row


def test_a_broken_registry_is_one_line_and_exit_2(tmp_path: Path, monkeypatch, capsys):
    registry = tmp_path / "domains.toml"
    registry.write_text("[[domain]]\nname = 'X'\n")
    monkeypatch.setenv("CLASSEVAL_PRO_DOMAINS", str(registry))
    assert _run(monkeypatch, "domains") == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and str(registry) in err and "\n" not in err
