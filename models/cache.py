"""The persistent response cache: rerunning a build asks no model a question it has already answered.

litellm no longer offers a disk cache (its `Cache(type="disk")` is refused), so the cache is ours: one JSON
file per answer under `<cache_dir>/<key[:2]>/<key>.json`, written atomically (`ContentFiles`, as the
stages' results and the judges' verdicts are kept). The key covers exactly what
changes the answer: the model name, the messages, the sampling parameters and the `api_base` when one is
set (the same name behind another address is another server: an answer from a local test server was once
served to a run meant for the real provider). It leaves out the role and the prompt's name (the messages
already carry the prompt's text).

A read that fails (a truncated or hand-edited file, a field missing) logs a warning and counts as a miss:
a broken cache entry costs one call again, never a crash or a wrong answer.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from core.content_files import ContentFiles
from core.model_calls import ModelRequest
from core.records import content_hash

log = logging.getLogger(__name__)


class CachedAnswer(BaseModel):
    """What is stored for one answer: its text and what the original call consumed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    model: str
    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None


def cache_key(model: str, messages: tuple[dict[str, str], ...], parameters: dict[str, Any],
              api_base: str | None = None) -> str:
    """Digest of what changes an answer: the model, the messages, the sampling parameters (None values
    dropped, so adding an unset parameter later does not invalidate the cache) and the server address
    (left out when unset, so answers cached from the provider's default address keep their keys)."""
    used = {name: value for name, value in sorted(parameters.items()) if value is not None}
    key: dict[str, Any] = {"model": model, "messages": [dict(m) for m in messages], "parameters": used}
    if api_base:
        key["api_base"] = api_base.rstrip("/")
    return content_hash(key, length=32)


def request_key(request: ModelRequest) -> str:
    """The cache key of a request (`cache_key` of its model, messages, answer parameters and server)."""
    return cache_key(request.model, request.messages, request.answer_parameters(), request.api_base)


class ResponseCache:
    """Answers on disk, keyed by `cache_key` (core/content_files.py)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.files = ContentFiles(self.directory)

    def _path(self, key: str) -> Path:
        return self.files.path(key)

    def get(self, key: str) -> CachedAnswer | None:
        path = self._path(key)
        try:
            data = self.files.read(key)
            if data is None:
                return None
            entry = CachedAnswer.model_validate_json(data)
        except (OSError, ValueError, ValidationError) as exc:
            log.warning("model cache entry %s is unreadable, asking the model again: %s", path, exc)
            return None
        if entry.key != key:
            log.warning("model cache entry %s holds key %s, asking the model again", path, entry.key)
            return None
        return entry

    def put(self, entry: CachedAnswer) -> None:
        self.files.write(entry.key, json.dumps(entry.model_dump(mode="json"), indent=2) + "\n")
