"""ClassEval-format files become SeedClass records; malformed entries are named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from commands.main import main
from core.errors import InputError
from core.records import SeedClass
from pipeline.corpus.classeval import module_name_for, read_classeval_file

ENTRY = {
    "task_id": "ClassEval_900",
    "skeleton": "class TallyBook:\n    def add(self, n):\n        pass\n",
    "test": (
        "import unittest\n\nclass TallyBookTestAdd(unittest.TestCase):\n"
        "    def test_add(self):\n        book = TallyBook()\n        book.add(3)\n        self.assertEqual(book.total, 3)\n"
    ),
    "solution_code": "class TallyBook:\n    def __init__(self):\n        self.total = 0\n\n    def add(self, n):\n        self.total += n\n",
    "import_statement": ["import math"],
    "class_name": "TallyBook",
    "class_description": "Keeps a running tally.",
    "class_constructor": "",
    "fields": ["self.total"],
    "test_classes": ["TallyBookTestAdd"],
    "methods_info": [],
}


def test_a_classeval_file_becomes_seed_classes(tmp_path: Path):
    path = tmp_path / "mini.json"
    path.write_text(json.dumps([ENTRY]))
    [seed] = read_classeval_file(path)
    assert seed.seed_id == "ClassEval/ClassEval_900" and seed.name == "tally_book"
    assert seed.source.startswith("import math\n\nclass TallyBook:")
    assert seed.tests.splitlines()[:2] == ["from tally_book import *", "import math"]
    assert "class TallyBookTestAdd(unittest.TestCase)" in seed.tests
    assert seed.description == "Keeps a running tally."


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"a": 1}, "expected a JSON list"),
        ([{**ENTRY, "solution_code": ""}], "mini.json[0]: missing or empty field(s) solution_code"),
        ([ENTRY, {**ENTRY, "import_statement": 5}], "mini.json[1] (ClassEval_900): field import_statement"),
        ([ENTRY, "oops"], "mini.json[1]: expected an object"),
    ],
)
def test_malformed_files_name_the_entry_and_field(tmp_path: Path, payload, message: str):
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(payload))
    with pytest.raises(InputError) as info:
        read_classeval_file(path)
    assert message in str(info.value)


def test_module_names_are_snake_case_identifiers():
    assert module_name_for("HTTPRequestParser") == "http_request_parser"
    assert module_name_for("TestRunner") == "m_test_runner"  # pytest would collect a test_* module


def test_import_command_writes_one_record_per_task(tmp_path: Path, monkeypatch, capsys):
    path = tmp_path / "mini.json"
    path.write_text(json.dumps([ENTRY]))
    out = tmp_path / "out"
    monkeypatch.setattr("sys.argv", ["classeval-pro", "import-classeval", str(path), "--out", str(out)])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 0
    assert SeedClass.from_json((out / "ClassEval_900.json").read_text()).class_name == "TallyBook"
    assert "imported 1 class(es)" in capsys.readouterr().out
