"""Missing docstrings written by a model through the model client, against the chat emulator; an unusable
answer leaves the class rejected as undocumented."""

from __future__ import annotations

import json
import re

import pytest
from git_fixtures import commit, make_repo
from mining_fixtures import ledger_module

from core import settings
from core.domains import load_domains
from core.records import RejectReason
from models.client import ModelClient
from pipeline.mining.docstrings import insert_docstrings, parse_docstrings
from pipeline.mining.examine import undocumented_methods
from pipeline.mining.extract import parse_module
from pipeline.mining.local import mine_local
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.tally import Tally
from pipeline.stages.mine import make_documenter
from tests.emulators.chat import ChatEmulator, offline_litellm

pytestmark = pytest.mark.slow  # litellm's first import alone takes seconds on a busy machine


def test_parse_and_insert():
    assert parse_docstrings("no json here", ["a"]) == "the answer is not one JSON object"
    assert parse_docstrings('{"a": ""}', ["a"]) == "no docstring for a"
    assert parse_docstrings('```json\n{"a": "Say \\"hi\\"."}\n```', ["a"]) == {"a": "Say 'hi'."}
    code = ledger_module("Bare", documented=False)
    unit = parse_module(code).classes[0]
    missing = undocumented_methods(unit)
    filled = insert_docstrings(code, "Bare", {m: f"Does {m}." for m in missing})
    assert undocumented_methods(parse_module(filled).classes[0]) == []
    assert filled.count('"""Does add."""') == 1 and "def _clean" in filled


def _respond(call):
    asked = re.search(r"These methods have no docstring: (.*)\.", call.messages[-1]["content"]).group(1).split(", ")
    if call.model == "garbage":
        return "Sure! Here are some docstrings for you."
    return "```json\n" + json.dumps({m: f"Explain {m} plainly." for m in asked}) + "\n```"


@pytest.mark.parametrize("model", ["writer", "garbage"])
def test_a_fresh_undocumented_class_gets_model_docstrings(model, tmp_path, monkeypatch):
    offline_litellm(monkeypatch)
    repo = make_repo(tmp_path / "repos" / "books")
    commit(repo, "2025-05-05", {"books/bare.py": ledger_module("BareLedger", documented=False),
                                "README.md": "a ledger cache"})
    with ChatEmulator(_respond) as emulator:
        config = MineConfig(local=tmp_path / "repos", docstring_model=f"openai/{model}",
                            docstring_api_base=emulator.base_url)
        documenter = make_documenter(config, client=ModelClient(None, max_retries=0, timeout_s=10.0))
        items = list(mine_local(config.local, config, load_domains(settings.domain_registry_path()), Tally(),
                                documenter=documenter))
        [call] = emulator.calls
    assert call.role == "enhancer" and call.prompt == "mine_docstrings@1"
    [item] = items
    if model == "writer":
        assert isinstance(item, MinedClass) and item.docstrings_by == "openai/writer"
        assert '"""Explain total plainly."""' in item.slice_code
        assert undocumented_methods(parse_module(item.slice_code).classes[0]) == []
    else:
        assert item.reason is RejectReason.UNDOCUMENTED and "unusable model answer" in item.detail
        assert item.evidence["raw_answer"].startswith("Sure!")
