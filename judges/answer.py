"""Reading a model judge's answer under the judge answer contract (documented in docs/validation.md).

The contract: one JSON object, bare or inside a fenced ``json`` block,

    {"verdict": "accept" | "reject",
     "criteria": {"<name>": {"pass": true | false, "note": "..."}, ...}}

Every criterion the prompt asked for must be present with a boolean ``pass``; unknown keys (at any level)
are ignored. Anything else is a `BadJudgeAnswer`: the model judge retries once and then abstains, so a
malformed answer can never become a silent accept or reject.

The verdict and the criteria must agree: "accept" with a failed criterion (or "reject" with every criterion
passed) is contradictory and is a bad answer too, because either half could be the model's real view.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.records import Decision, Finding

NOTE_LIMIT = 500  # characters of a criterion's note kept in the Verdict
_FENCE = re.compile(r"```[ \t]*(json)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)


class BadJudgeAnswer(ValueError):
    """The answer does not follow the contract; the message says what is wrong (it is shown to the model
    on the retry)."""


@dataclass(frozen=True)
class JudgeAnswer:
    """A contract-abiding answer: the decision and one finding per criterion asked for, in that order."""

    decision: Decision
    findings: tuple[Finding, ...]


def _json_candidates(text: str) -> list[str]:
    """The texts that may hold the JSON object: fenced blocks first (``json`` ones before bare ones), then
    the whole answer, then the span from its first '{' to its last '}' (prose around a bare object)."""
    fenced = _FENCE.findall(text)
    out = [body for tag, body in fenced if tag] + [body for tag, body in fenced if not tag]
    stripped = text.strip()
    out.append(stripped)
    start, end = stripped.find("{"), stripped.rfind("}")
    if 0 <= start < end:
        out.append(stripped[start:end + 1])
    return out


def _load_object(text: str) -> dict:
    for candidate in _json_candidates(text):
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    raise BadJudgeAnswer("no JSON object found (expected one object, optionally in a ```json block)")


def parse_answer(text: str, criteria: Sequence[str]) -> JudgeAnswer:
    """The decision and findings in `text`, or `BadJudgeAnswer` naming the first contract breach."""
    data = _load_object(text)
    verdict = data.get("verdict")
    if not isinstance(verdict, str) or verdict.strip().lower() not in ("accept", "reject"):
        raise BadJudgeAnswer(f'"verdict" must be "accept" or "reject", got {json.dumps(verdict)[:60]}')
    decision = Decision(verdict.strip().lower())
    given = data.get("criteria")
    if not isinstance(given, dict):
        raise BadJudgeAnswer('"criteria" must be an object mapping each criterion name to {"pass": ..., "note": ...}')
    findings = []
    for name in criteria:
        entry = given.get(name)
        if not isinstance(entry, dict) or not isinstance(entry.get("pass"), bool):
            raise BadJudgeAnswer(f'criterion "{name}" is missing or has no boolean "pass"')
        note = entry.get("note", "")
        findings.append(Finding(criterion=name, ok=entry["pass"],
                                note=(note if isinstance(note, str) else json.dumps(note))[:NOTE_LIMIT]))
    failed = [f.criterion for f in findings if not f.ok]
    if decision is Decision.ACCEPT and failed:
        raise BadJudgeAnswer(f'"verdict" is "accept" but criteria {failed} did not pass')
    if decision is Decision.REJECT and not failed:
        raise BadJudgeAnswer('"verdict" is "reject" but every criterion passed')
    return JudgeAnswer(decision, tuple(findings))
