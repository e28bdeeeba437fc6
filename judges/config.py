"""The `[judges]` section of the build configuration: which panel judges the gate's survivors, by what rule.

With no `models` the panel is the three offline judges (specification, consistency, adequacy) under the
`unanimous` rule: the embedded default, needing no model, key or network. With `models` (litellm names,
e.g. `openai/gpt-4.1`), each model is one judge scoring the six criteria of the rubric prompt, and the
rule defaults to `majority` (two of three).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pipeline.errors import InputError
from judges.rules import DecisionRule

DEFAULT_PROMPT = "judge_rubric"


class JudgesConfig(BaseModel):
    """Settings of the judge stage. Unknown keys are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = Field(default=True, description="Run the judge stage (off: every gate survivor is released).")
    models: tuple[str, ...] = Field(default=(), description="litellm model names, one judge each; empty = the "
                                    "offline panel.")
    rule: str | None = Field(default=None, description="'majority', 'unanimous' or 'quorum:K'; default unanimous "
                             "for the offline panel, majority for a model panel.")
    prompt: str = Field(default=DEFAULT_PROMPT, description="Rubric prompt template under judges/prompts/.")
    temperature: float = Field(default=0.0, ge=0, le=2, description="Sampling temperature of model judges.")
    max_tokens: int | None = Field(default=1500, ge=1, description="Answer length limit of model judges.")
    api_base: str | None = Field(default=None, description="OpenAI-compatible server for every model judge "
                                 "(a local vLLM, say); None = litellm's default for the provider.")
    jobs: int = Field(default=4, ge=1, description="Candidates judged at the same time by model panels.")
    min_mutation_score: float = Field(default=0.5, ge=0, le=1,
                                      description="Adequacy judge: lowest acceptable mutation score.")
    max_vacuous_share: float = Field(default=0.0, ge=0, le=1,
                                     description="Adequacy judge: highest share of tests passing on the skeleton.")

    @field_validator("rule")
    @classmethod
    def _known_rule(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                DecisionRule.parse(value)
            except InputError as exc:
                raise ValueError(str(exc)) from None
        return value

    @property
    def backend(self) -> str:
        return "litellm" if self.models else "offline"

    def decision_rule(self) -> DecisionRule:
        return DecisionRule.parse(self.rule or ("majority" if self.models else "unanimous"))
