"""Typed build configuration, read from an optional TOML file; every field has a working default.

The defaults are the embedded offline build: bundled seeds, offline backends, a fixed RNG seed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.errors import InputError
from pipeline.records import content_hash


class BuildConfig(BaseModel):
    """Settings of one build. Unknown keys are refused so that a misspelt setting is not silently ignored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rng_seed: int = Field(default=20250101, description="Seed of every random choice in the build.")
    domains: tuple[str, ...] = Field(default=(), description="Restrict to these domains; empty = all.")
    backend: str = Field(default="offline", description="'offline' (embedded default) or 'litellm'.")
    model: str | None = Field(default=None, description="litellm model name when backend = 'litellm'.")
    jobs: int = Field(default=2, ge=1, description="Parallel sandbox workers.")

    def fingerprint(self) -> str:
        """Digest of the settings, part of the default run id so that changed settings start a new run."""
        return content_hash(self.model_dump(mode="json"), length=10)


def load_config(path: Path | None) -> BuildConfig:
    """Read a TOML configuration file (or return the defaults); errors name the file and field."""
    if path is None:
        return BuildConfig()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: configuration file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    try:
        return BuildConfig.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(f"{path}: field {'.'.join(map(str, err['loc']))}: {err['msg']}") from None
