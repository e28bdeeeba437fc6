"""The solver's side of the model client: prompts rendered from the evaluation's template files and sent
with role `solver`, so the client's cache, budget, cost accounting and headers apply as for every stage."""

from __future__ import annotations

from models.client import ModelRequest, Role
from models.prompts import load_prompt
from pipeline.evaluation.strategies import PROMPTS_DIR, Ask


def model_asker(client, model: str, *, temperature: float = 0.0, api_base: str | None = None) -> Ask:
    """`ask(prompt name, values)` for the strategies: one request per call, answered from the cache when the
    same model, messages and parameters were asked before (the sample index is part of the prompt, so the
    n samples of a task are n cached answers, not one)."""
    def ask(name: str, values: dict[str, object]) -> tuple[str, str, bool, float | None]:
        template = load_prompt(name, PROMPTS_DIR)
        answer = client.complete(ModelRequest(role=Role.SOLVER, model=model, prompt=template.ref,
                                              messages=template.render(**values), temperature=temperature,
                                              api_base=api_base))
        return answer.text, template.ref, answer.cached, answer.cost_usd

    return ask
