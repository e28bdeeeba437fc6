"""The model client: the one place that calls a model, through litellm.

Every model-driven step (enhancer, composer, test and reference writers, judges, the evaluation's solver)
asks its question as a `ModelRequest` and gets a `ModelAnswer`. In between, the client:

- answers from the on-disk response cache when it can (a rerun makes zero calls; a hit is free);
- asks the run's `Budget` before a call reaches the network, and refuses with `BudgetExhausted`;
- limits concurrent calls per model (a provider's rate limit is per model, and a local server has a few
  slots);
- retries 429s, timeouts, 5xx and connection failures with backoff, honouring `Retry-After` (litellm's own
  retries are off, `num_retries=0`, so that waiting is done once and visibly);
- names the role and prompt in the headers `X-Classeval-Role` / `X-Classeval-Prompt` (litellm's
  `extra_headers`), so a proxy or gateway can attribute spend;
- records tokens and cost per call; a model litellm has no price for costs "unknown" (None), never 0.

litellm is imported on the first real call, with `LITELLM_LOCAL_MODEL_COST_MAP` set so that importing it
does not fetch a price map from the internet. API keys come from litellm's usual environment variables
(`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, ...); they are never part of a request record, cache entry or log.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import Field

from core.model_calls import ModelError, ModelRequest, Role
from core.records import Record
from models.budget import Budget, BudgetExhausted
from models.cache import CachedAnswer, ResponseCache, request_key
from models.retry import delay_before_retry, is_retryable, status_of
from models.usage import UsageLedger, UsageSummary

__all__ = ["Budget", "BudgetExhausted", "ModelAnswer", "ModelCallFailed", "ModelClient", "ModelError",
           "ModelRequest", "Role", "ROLE_HEADER", "PROMPT_HEADER"]

log = logging.getLogger(__name__)

ROLE_HEADER = "X-Classeval-Role"
PROMPT_HEADER = "X-Classeval-Prompt"


class ModelCallFailed(ModelError):
    """A call failed for good: a non-transient error, or a transient one that outlasted every retry."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class ModelAnswer(Record):
    """A model's answer and what it cost. A cached answer cost nothing now (`cost_usd` 0.0); its token
    figures are those of the call that first produced it."""

    text: str = Field(description="The answer's text (the first choice's message content).")
    model: str = Field(description="The litellm model name asked.")
    role: Role = Field(description="The role it was asked for.")
    prompt: str = Field(description="'<prompt name>@<version>' of the prompt used.")
    cache_key: str = Field(description="Key of this answer in the response cache.")
    cached: bool = Field(description="True when served from the cache without a call.")
    prompt_tokens: int | None = Field(default=None, description="Prompt tokens, as the server reported.")
    completion_tokens: int | None = Field(default=None, description="Completion tokens, as the server reported.")
    cost_usd: float | None = Field(default=None, description="Dollars this answer cost; None = unknown price.")


def _litellm():
    """Import litellm on first use, keeping it offline and quiet (see the module docstring)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True  # else every error prints a banner of links to stderr
    return litellm


def _tokens(response: Any) -> tuple[int | None, int | None]:
    usage = getattr(response, "usage", None)
    if usage is None:
        return None, None
    prompt, completion = getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)
    return (prompt if isinstance(prompt, int) else None), (completion if isinstance(completion, int) else None)


def _cost(litellm: Any, response: Any) -> float | None:
    """The call's price from litellm's local price map; None when the model is not in it. litellm raises for
    unmapped models (and may raise for odd responses): either way the price is unknown, not zero."""
    try:
        cost = litellm.completion_cost(completion_response=response)
    except Exception as exc:  # noqa: BLE001 - any failure to price means "unknown price"
        log.debug("no price for %s: %s", getattr(response, "model", "?"), exc)
        return None
    return float(cost) if isinstance(cost, int | float) and cost == cost else None


def _answer_text(response: Any) -> str:
    try:
        content = response.choices[0].message.content
    except (AttributeError, IndexError, TypeError):
        return ""
    return content if isinstance(content, str) else ""


class ModelClient:
    """Thread-safe: one client serves every worker of a run, sharing its cache, budget and usage ledger."""

    def __init__(self, cache_dir: Path | None, *, use_cache: bool = True, budget: Budget | None = None,
                 max_concurrency: int = 4, max_retries: int = 4, timeout_s: float = 120.0,
                 backoff_s: float = 1.0, sleep: Callable[[float], None] = time.sleep) -> None:
        """`use_cache=False` (`--no-cache`) skips reading the cache but still writes fresh answers to it.
        `sleep` is the waiting function between retries (tests pass a recorder)."""
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be >= 1, got {max_concurrency}")
        self.cache = ResponseCache(cache_dir) if cache_dir is not None else None
        self.use_cache = use_cache
        self.budget = budget if budget is not None else Budget()
        self.max_concurrency = max_concurrency
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.backoff_s = backoff_s
        self._sleep = sleep
        self._ledger = UsageLedger()
        self._slots: dict[str, threading.BoundedSemaphore] = {}
        self._slots_lock = threading.Lock()

    def _slot(self, model: str) -> threading.BoundedSemaphore:
        with self._slots_lock:
            if model not in self._slots:
                self._slots[model] = threading.BoundedSemaphore(self.max_concurrency)
            return self._slots[model]

    def complete(self, request: ModelRequest) -> ModelAnswer:
        """The model's answer to `request`, from the cache or from one call (retried while transient).

        Raises BudgetExhausted when the budget allows no new call (nothing is sent), ModelCallFailed when
        the call fails for good.
        """
        key = request_key(request)
        role = request.role.value
        if self.cache is not None and self.use_cache and (hit := self.cache.get(key)) is not None:
            self._ledger.add(role, request.model, cache_hits=1)
            return ModelAnswer(text=hit.text, model=request.model, role=request.role, prompt=request.prompt,
                               cache_key=key, cached=True, prompt_tokens=hit.prompt_tokens,
                               completion_tokens=hit.completion_tokens, cost_usd=0.0)
        self.budget.reserve(f"{role} call to {request.model} ({request.prompt})")  # raises BudgetExhausted
        with self._slot(request.model):
            response = self._call_with_retries(request)
        litellm = _litellm()
        text = _answer_text(response)
        prompt_tokens, completion_tokens = _tokens(response)
        cost = _cost(litellm, response)
        self.budget.charge(cost)
        self._ledger.add(role, request.model, calls=1, prompt_tokens=prompt_tokens or 0,
                         completion_tokens=completion_tokens or 0, priced_cost_usd=cost or 0.0,
                         unpriced_calls=int(cost is None))
        if self.cache is not None:
            self.cache.put(CachedAnswer(key=key, model=request.model, text=text, prompt_tokens=prompt_tokens,
                                        completion_tokens=completion_tokens, cost_usd=cost))
        return ModelAnswer(text=text, model=request.model, role=request.role, prompt=request.prompt, cache_key=key,
                           cached=False, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                           cost_usd=cost)

    def _call_with_retries(self, request: ModelRequest) -> Any:
        litellm = _litellm()
        arguments: dict[str, Any] = {
            "model": request.model,
            "messages": [dict(m) for m in request.messages],
            "temperature": request.temperature,
            "timeout": self.timeout_s,
            "num_retries": 0,  # retries are ours (below): litellm's would not honour Retry-After
            "max_retries": 0,  # nor would the OpenAI SDK's
            "extra_headers": {ROLE_HEADER: request.role.value, PROMPT_HEADER: request.prompt},
        }
        if request.max_tokens is not None:
            arguments["max_tokens"] = request.max_tokens
        if request.api_base is not None:
            arguments["api_base"] = request.api_base
        attempt = 0
        while True:
            try:
                return litellm.completion(**arguments)
            except Exception as exc:  # noqa: BLE001 - classified below; anything unexpected fails the call
                status = status_of(exc)
                if not is_retryable(exc) or attempt >= self.max_retries:
                    self._ledger.add(request.role.value, request.model, failures=1)
                    tried = f" after {attempt + 1} attempt(s)" if is_retryable(exc) else ""
                    raise ModelCallFailed(
                        f"{request.role.value} call to {request.model} ({request.prompt}) failed{tried}: "
                        f"{type(exc).__name__}: {_short(exc)}", status=status) from exc
                delay = delay_before_retry(exc, attempt, self.backoff_s)
                log.warning("%s call to %s: %s (status %s); retrying in %.1fs", request.role.value,
                            request.model, type(exc).__name__, status, delay)
                self._sleep(delay)
                attempt += 1

    def usage(self) -> UsageSummary:
        """Calls, cache hits, failures, tokens and cost per (role, model) since this client was made."""
        return self._ledger.summary(budget_refused=self.budget.refused)


def _short(exc: BaseException, limit: int = 300) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + "..."
