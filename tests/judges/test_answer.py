"""The judge answer contract: what parses, and every way an answer can break it."""

from __future__ import annotations

import json

import pytest

from core.records import Decision
from judges.answer import BadJudgeAnswer, parse_answer

CRITERIA = ("spec_clear", "tests_match_spec")


def _answer(verdict="reject", **passes) -> str:
    passes = {"spec_clear": True, "tests_match_spec": False, **passes}
    return json.dumps({"verdict": verdict, "criteria": {k: {"pass": v, "note": f"{k} note"} for k, v in passes.items()}})


def test_a_fenced_json_answer_with_prose_and_unknown_keys_parses():
    body = json.loads(_answer())
    body["confidence"] = 0.9
    body["criteria"]["spec_clear"]["extra"] = "ignored"
    text = "Here is my review.\n```json\n" + json.dumps(body) + "\n```\nThanks."
    answer = parse_answer(text, CRITERIA)
    assert answer.decision is Decision.REJECT
    assert [(f.criterion, f.ok, f.note) for f in answer.findings] == [
        ("spec_clear", True, "spec_clear note"), ("tests_match_spec", False, "tests_match_spec note")]


def test_a_bare_object_inside_prose_parses():
    text = "My verdict: " + _answer("accept", tests_match_spec=True) + " (end)"
    assert parse_answer(text, CRITERIA).decision is Decision.ACCEPT


@pytest.mark.parametrize(("text", "message"), [
    ("I think it is fine.", "no JSON object"),
    ("[1, 2]", "no JSON object"),
    (json.dumps({"verdict": "maybe", "criteria": {}}), '"verdict" must be'),
    (json.dumps({"verdict": "accept"}), '"criteria" must be an object'),
    (json.dumps({"verdict": "accept", "criteria": {"spec_clear": {"pass": True}}}), 'criterion "tests_match_spec"'),
    (json.dumps({"verdict": "accept", "criteria": {"spec_clear": {"pass": "yes"}, "tests_match_spec": {"pass": True}}}),
     'criterion "spec_clear"'),
    (_answer("accept"), "did not pass"),
    (_answer("reject", tests_match_spec=True), "every criterion passed"),
])
def test_answers_that_break_the_contract_are_bad_answers(text, message):
    with pytest.raises(BadJudgeAnswer, match=message):
        parse_answer(text, CRITERIA)
