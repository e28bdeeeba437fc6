"""The `[models]` section of the build configuration: which stages use a model, which model per role,
where it is served, and the run's budget. The defaults keep every stage offline: no model, key or network.

API keys are not settings: litellm reads them from its usual environment variables, so they never enter a
configuration file, a record or a log.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.errors import InputError
from core.layout import Stage
from models.client import Role

Backend = Literal["offline", "model"]
MODEL_STAGES = (Stage.ENHANCE, Stage.COMPOSE)


class BudgetConfig(BaseModel):
    """Per-run spending limits; when one is reached no new call is made and the build ends cleanly."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    max_cost_usd: float | None = Field(default=None, ge=0, description="Most dollars a run may spend (known prices).")
    max_calls: int | None = Field(default=None, ge=0, description="Most model calls a run may make (cache hits are free).")


class ModelsConfig(BaseModel):
    """Model backends of the model-driven stages. Unknown keys are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    backend: Backend = Field(default="offline", description="Backend of enhance and compose unless set per stage.")
    enhance_backend: Backend | None = Field(default=None, description="Backend of enhance; None = `backend`.")
    compose_backend: Backend | None = Field(default=None, description="Backend of compose; None = `backend`.")
    model: str | None = Field(default=None, description="litellm model for every role not set below.")
    enhancer: str | None = Field(default=None, description="Model that writes enhanced skeletons.")
    composer: str | None = Field(default=None, description="Model that writes composed skeletons.")
    test_writer: str | None = Field(default=None, description="Model that writes tests from a skeleton.")
    reference_writer: str | None = Field(default=None, description="Model that implements a skeleton.")
    api_base: str | None = Field(default=None, description="Server address for every role (a proxy, vLLM, Ollama).")
    temperature: float = Field(default=0.0, ge=0, le=2, description="Sampling temperature of every call.")
    max_tokens: int | None = Field(default=None, ge=1, description="Cap on an answer's tokens.")
    feedback_rounds: int = Field(default=2, ge=0, le=10,
                                 description="Rounds of gate findings sent back to the test writer.")
    min_methods: int = Field(default=5, ge=1, description="Fewest methods (besides __init__) a skeleton must have.")
    max_concurrency: int = Field(default=4, ge=1, description="Concurrent calls per model.")
    max_retries: int = Field(default=4, ge=0, description="Retries of a transient failure (429, 5xx, timeout).")
    timeout_s: float = Field(default=120.0, gt=0, description="Seconds before a call times out.")
    cache: bool = Field(default=True, description="Answer from the response cache (false: ask again, as --no-cache).")
    budget: BudgetConfig = Field(default_factory=BudgetConfig, description="Per-run spending limits.")

    def backend_for(self, stage: str) -> Backend:
        chosen = {Stage.ENHANCE: self.enhance_backend, Stage.COMPOSE: self.compose_backend}.get(stage)
        return chosen or self.backend

    @property
    def uses_models(self) -> bool:
        return any(self.backend_for(stage) == "model" for stage in MODEL_STAGES)

    def model_for(self, role: Role) -> str:
        """The model of a role, or an error naming the setting to add."""
        chosen = getattr(self, role.value, None) or self.model
        if not chosen:
            raise ValueError(f"[models]: no model for role {role.value}: set `model` or `{role.value}` "
                             "(or pass --model)")
        return chosen

    def run_identity(self) -> dict[str, Any]:
        """The settings that change what a run produces (part of its id). The budget and the cache switch
        are left out so that raising the budget, or asking again, resumes the same run; so is the server
        address (the cache, too, assumes a model answers the same wherever it is served)."""
        return self.model_dump(mode="json", exclude={"budget", "cache", "api_base", "max_concurrency", "max_retries",
                                                        "timeout_s"})


def with_model_options(models: ModelsConfig, *, backend: Backend | None = None, model: str | None = None,
                       enhance_model: str | None = None, compose_model: str | None = None,
                       test_model: str | None = None, reference_model: str | None = None,
                       api_base: str | None = None, max_cost_usd: float | None = None, max_calls: int | None = None,
                       no_cache: bool = False) -> ModelsConfig:
    """The section with the `build` command's options applied over it (an option given wins)."""
    update: dict[str, Any] = {}
    if backend is not None:
        update.update(backend=backend, enhance_backend=None, compose_backend=None)
    for field, value in (("model", model), ("enhancer", enhance_model), ("composer", compose_model),
                         ("test_writer", test_model), ("reference_writer", reference_model), ("api_base", api_base)):
        if value is not None:
            update[field] = value
    if model is not None:  # --model M: every role, unless a role's own option is given too
        for field, own in (("enhancer", enhance_model), ("composer", compose_model),
                           ("test_writer", test_model), ("reference_writer", reference_model)):
            update[field] = own or model
    budget = models.budget.model_copy(update={k: v for k, v in (("max_cost_usd", max_cost_usd),
                                                                ("max_calls", max_calls)) if v is not None})
    update["budget"] = budget
    if no_cache:
        update["cache"] = False
    return ModelsConfig.model_validate({**models.model_dump(), **update,
                                        "budget": budget.model_dump()})


def apply_build_options(config, **options: Any):
    """The build configuration with `build`'s model options applied, checked before any work starts: a
    model stage without a model for one of its roles is an input error naming the setting to add."""
    backend = options.get("backend")
    if backend is not None and backend not in ("offline", "model"):
        raise InputError(f"--backend must be 'offline' or 'model', not {backend!r}")
    models = with_model_options(config.models, **options)
    needed = [Role.TEST_WRITER, Role.REFERENCE_WRITER]
    needed += [Role.ENHANCER] if models.backend_for(Stage.ENHANCE) == "model" else []
    needed += [Role.COMPOSER] if models.backend_for(Stage.COMPOSE) == "model" else []
    if models.uses_models:
        for role in needed:
            try:
                models.model_for(role)
            except ValueError as exc:
                raise InputError(str(exc)) from None
    return config.model_copy(update={"models": models})
