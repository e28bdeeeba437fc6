"""Model names and keys checked before the first call, so a typo or a missing key is one line and exit 2.

Without this, a keyless run reached the provider, whose refusal (or the failed connection, on a machine
without network) came back as a server error and was retried like a transient one: `eval` retried five
times, `judge` for 131 s and then held every task without saying why. A name without a provider prefix
(`referance`, a typo of a baseline) took 18 s to reach litellm's "LLM Provider NOT provided".

The check needs no litellm import (3 s): a litellm name is `provider/model`, and the providers below read
their key from one environment variable. Which of those variables are set (their names, never their values)
comes from the command's resolved settings (`Settings.model_keys`); nothing here reads the environment. Providers not listed (ollama, vLLM, Bedrock, Vertex, ...) take
their credentials in other ways and are left to litellm. With `api_base` (a local server, a proxy) the key
is the server's business and is not checked.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Sequence

from core.errors import InputError

# provider prefix -> the environment variables litellm reads its key from (any one suffices)
PROVIDER_KEYS: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "azure": ("AZURE_API_KEY",),
    "gemini": ("GEMINI_API_KEY",),
    "mistral": ("MISTRAL_API_KEY",),
    "groq": ("GROQ_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",),
    "together_ai": ("TOGETHERAI_API_KEY", "TOGETHER_API_KEY"),
    "openrouter": ("OPENROUTER_API_KEY",),
    "cohere": ("COHERE_API_KEY",),
    "xai": ("XAI_API_KEY",),
}


def check_model(name: str, keys: Collection[str], *, api_base: str | None = None, baselines: Sequence[str] = (),
                option: str = "--model") -> None:
    """Raise InputError (exit 2) for a name litellm cannot route or a provider whose key is not among `keys`
    (the names of the key variables that are set)."""
    if name in baselines:
        return
    provider, slash, model = name.partition("/")
    if not slash or not provider or not model:
        close = difflib.get_close_matches(name, baselines, n=1, cutoff=0.6)
        known = f"not a baseline ({', '.join(baselines)}) and " if baselines else ""
        hint = f"; did you mean {close[0]}?" if close else ""
        raise InputError(f"{option} {name}: {known}not a litellm name provider/model (e.g. openai/gpt-4o){hint}")
    if api_base:
        return
    variables = PROVIDER_KEYS.get(provider)
    if variables and not any(v in keys for v in variables):
        raise InputError(f"{option} {name}: {' or '.join(variables)} is not set (the {provider} key); set it, or "
                         "give --api-base for a server that needs none")


def check_models(names: Iterable[str], keys: Collection[str], *, api_base: str | None = None,
                 baselines: Sequence[str] = (), option: str = "--model") -> None:
    """`check_model` for every configured name, in order (the first problem is the one reported)."""
    for name in names:
        check_model(name, keys, api_base=api_base, baselines=baselines, option=option)
