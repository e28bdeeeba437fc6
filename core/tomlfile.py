"""Reading a TOML file into a pydantic model, with errors that name the file and the field."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from core.errors import InputError

M = TypeVar("M", bound=BaseModel)


def read_toml(path: Path, what: str) -> dict:
    """The TOML table of `path`; a missing or malformed file is an InputError naming it (`what` names the
    file's role: "configuration file", "ends file")."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: {what} not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None


def load_toml_model(path: Path, model: type[M], what: str) -> M:
    """Parse `path` as TOML and validate it as `model`; `what` names the file's role in the messages
    ("configuration file", "domain registry"). Only the first validation error is reported: one line."""
    data = read_toml(path, what)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise InputError(f"{path}: field {where}: {first['msg']}") from None
