"""The persistent response cache: rerunning a build asks no model a question it has already answered.

litellm no longer offers a disk cache (its `Cache(type="disk")` is refused), so the cache is ours: one JSON
file per answer under `<cache_dir>/<key[:2]>/<key>.json`, written atomically. The key covers exactly what
changes the answer: the model name, the messages and the sampling parameters. It leaves out the role and
the prompt's name (the messages already carry the prompt's text) and the `api_base` (the same model behind
another address, e.g. a proxy, answers the same; and a test server's port changes on every run).

A read that fails (a truncated or hand-edited file, a field missing) logs a warning and counts as a miss:
a broken cache entry costs one call again, never a crash or a wrong answer.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from pipeline.records import content_hash
from pipeline.store import atomic_write_text

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


def cache_key(model: str, messages: tuple[dict[str, str], ...], parameters: dict[str, Any]) -> str:
    """Digest of what changes an answer: the model, the messages, the sampling parameters (None values
    dropped, so adding an unset parameter later does not invalidate the cache)."""
    used = {name: value for name, value in sorted(parameters.items()) if value is not None}
    return content_hash({"model": model, "messages": [dict(m) for m in messages], "parameters": used}, length=32)


class ResponseCache:
    """Answers on disk, keyed by `cache_key`."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> CachedAnswer | None:
        path = self._path(key)
        if not path.is_file():
            return None
        try:
            entry = CachedAnswer.model_validate_json(path.read_bytes())
        except (OSError, ValueError, ValidationError) as exc:
            log.warning("model cache entry %s is unreadable, asking the model again: %s", path, exc)
            return None
        if entry.key != key:
            log.warning("model cache entry %s holds key %s, asking the model again", path, entry.key)
            return None
        return entry

    def put(self, entry: CachedAnswer) -> None:
        atomic_write_text(self._path(entry.key), json.dumps(entry.model_dump(mode="json"), indent=2) + "\n")
