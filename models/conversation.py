"""Asking a writer for code: one prompt, one repair prompt when the answer breaks the contract, then give up.

A `Conversation` belongs to one candidate in the making: it remembers every answer used (model, prompt,
cache key), which the candidate's generator record lists, and the raw answers of a failed step, which
its rejection keeps as evidence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.records import RejectReason
from models.answers import BadAnswer
from models.client import ModelAnswer, ModelCallFailed, ModelClient, ModelRequest, Role
from models.config import ModelsConfig
from models.prompts import load_prompt

REPAIR_PROMPT = "answer_repair"


class WriterRejected(Exception):
    """A step's answers were unusable (after the repair prompt) or the model could not be reached."""

    def __init__(self, reason: RejectReason, detail: str, raw_answers: list[str]) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail
        self.raw_answers = raw_answers


@dataclass
class Conversation:
    client: ModelClient
    models: ModelsConfig
    answers: list[dict[str, Any]] = field(default_factory=list)

    def _ask(self, role: Role, prompt_ref: str, messages: tuple[dict[str, str], ...]) -> ModelAnswer:
        request = ModelRequest(role=role, model=self.models.model_for(role), prompt=prompt_ref, messages=messages,
                               temperature=self.models.temperature, max_tokens=self.models.max_tokens,
                               api_base=self.models.api_base)
        try:
            answer = self.client.complete(request)
        except ModelCallFailed as exc:
            raise WriterRejected(RejectReason.MODEL_FAILED, str(exc), []) from exc
        # What the candidate records: enough to find the answer in the cache and to reproduce the request.
        # Whether it came from the cache, and its cost, vary between runs: they belong to the run's usage.
        self.answers.append({"role": role.value, "model": answer.model, "prompt": answer.prompt,
                             "cache_key": answer.cache_key})
        return answer

    def ask_code(self, role: Role, template: str, values: Mapping[str, object], parse: Callable[[str], Any],
                 what: str) -> tuple[Any, str]:
        """`parse(answer)` of the writer's answer, asking once more (quoting the problem) if it raises
        BadAnswer. Returns the parsed value and the raw answer it came from."""
        prompt = load_prompt(template)
        messages = prompt.render(**values)
        first = self._ask(role, prompt.ref, messages)
        try:
            return parse(first.text), first.text
        except BadAnswer as bad:
            repair = load_prompt(REPAIR_PROMPT)
            follow_up = messages + ({"role": "assistant", "content": first.text},) + repair.render(
                problem=bad.detail, class_name=what)
            try:
                second = self._ask(role, repair.ref, follow_up)
            except WriterRejected as failed:
                raise WriterRejected(bad.reason, bad.detail, [first.text]) from failed
            try:
                return parse(second.text), second.text
            except BadAnswer as again:
                raise WriterRejected(again.reason, again.detail, [first.text, second.text]) from None

    def ask_text(self, role: Role, template: str, values: Mapping[str, object]) -> str:
        prompt = load_prompt(template)
        return self._ask(role, prompt.ref, prompt.render(**values)).text

    def used_prompts(self) -> list[str]:
        return sorted({a["prompt"] for a in self.answers})
