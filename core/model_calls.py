"""Asking a model, as the askers see it: the request, the role it is asked in, the error a call that gave
no answer raises, and the protocol of a client. The client itself (litellm, the response cache, the
budget, retries) is models/client.py; it lives above the base, so the judges, which import only
the base layer, are handed one (`ModelAsker`) by the stage that runs them.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field


class Role(str, Enum):
    """Why a model is asked: the header value a proxy attributes spend to."""

    ENHANCER = "enhancer"
    COMPOSER = "composer"
    TEST_WRITER = "test_writer"
    REFERENCE_WRITER = "reference_writer"
    JUDGE = "judge"
    SOLVER = "solver"


class ModelRequest(BaseModel):
    """One question to one model."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role = Field(description="What the answer is for; sent as X-Classeval-Role.")
    model: str = Field(min_length=1, description="litellm model name, e.g. 'openai/gpt-4o' or 'ollama/llama3'.")
    prompt: str = Field(min_length=1, description="'<prompt name>@<version>'; sent as X-Classeval-Prompt.")
    messages: tuple[dict[str, str], ...] = Field(min_length=1, description="Chat messages (role, content).")
    temperature: float = Field(default=0.0, ge=0.0, description="Sampling temperature.")
    max_tokens: int | None = Field(default=None, ge=1, description="Cap on the answer's length, if any.")
    api_base: str | None = Field(default=None, description="Server address (a local vLLM, a proxy); None = provider default.")

    def answer_parameters(self) -> dict[str, Any]:
        """The parameters that change the answer (and so belong to the cache key)."""
        return {"temperature": self.temperature, "max_tokens": self.max_tokens}


class ModelError(Exception):
    """A call gave no answer: the base of the model client's errors (a refused budget, a call that failed
    after every retry). An asker that cannot go on without the answer says so in its record."""


class Answer(Protocol):
    @property
    def text(self) -> str: ...


class ModelAsker(Protocol):
    """A model client: the answer to one request, or a `ModelError`."""

    def complete(self, request: ModelRequest) -> Answer: ...
