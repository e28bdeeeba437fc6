"""The `[judges]` section of the build configuration: which panel judges the gate's survivors, by what rule.

The panel has two layers. The deterministic checks (the offline specification, consistency and adequacy
judges) always run first, under `unanimous`: the embedded default, needing no model, key or network. With
`models` (litellm names, e.g. `openai/gpt-4.1`), each model is one judge scoring the six criteria of the
rubric prompt, on the candidates the checks accepted, and `rule` (default `majority`, two of three) is the
model panel's; the checks stay `unanimous`. `offline = false` drops the checks (allowed with models only,
and warned about: a model judge can miss or be talked out of what a check measures).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from core.errors import InputError
from core.records import Layer
from judges.rules import DecisionRule

DEFAULT_PROMPT = "judge_rubric"
CHECKS_OFF_WARNING = ("the deterministic checks are off ([judges] offline = false): only the model panel judges, "
                      "and a docstring example the reference contradicts can reach a release")


class JudgesConfig(BaseModel):
    """Settings of the judge stage. Unknown keys are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = Field(default=True, description="Run the judge stage (off: every gate survivor is released).")
    offline: bool = Field(default=True, description="Run the deterministic checks first, as a filter before any "
                          "model (off: the model panel judges alone; needs models, and is warned about).")
    models: tuple[str, ...] = Field(default=(), description="litellm model names, one judge each, voting on the "
                                    "candidates the checks accepted; empty = the checks alone.")
    rule: str | None = Field(default=None, description="'majority', 'unanimous' or 'quorum:K': the model panel's "
                             "rule (default majority); with no models, the checks' (default unanimous).")
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

    @model_validator(mode="after")
    def _someone_judges(self) -> JudgesConfig:
        if self.enabled and not self.offline and not self.models:
            raise ValueError("offline = false needs models: with neither the checks nor a model panel nothing "
                             "judges (set enabled = false to release gate survivors unjudged)")
        return self

    @property
    def layers(self) -> tuple[Layer, ...]:
        """The layers that judge, in order."""
        return (Layer.CHECKS,) * self.offline + (Layer.MODELS,) * bool(self.models)

    @property
    def warnings(self) -> list[str]:
        return [CHECKS_OFF_WARNING] if self.enabled and not self.offline else []

    def checks_rule(self) -> DecisionRule:
        """The checks' rule: `unanimous` in front of a model panel (a filter: any rejection stops the
        candidate), the configured rule when the checks judge alone."""
        return DecisionRule.parse(self.rule if self.rule and not self.models else "unanimous")

    def decision_rule(self) -> DecisionRule:
        """The model panel's rule (the checks' when there are no models)."""
        return DecisionRule.parse(self.rule or "majority") if self.models else self.checks_rule()
