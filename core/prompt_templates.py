"""Prompt templates as versioned files, so that a prompt change is a reviewed diff with a new version.

A template is a TOML file `<name>.toml`:

    version = "1"                     # bump on every change of wording: it is part of each answer's record
    description = "what it asks for"
    [[messages]]
    role = "system"
    content = '''You write ...'''
    [[messages]]
    role = "user"
    content = '''... $class_name ... $skeleton ...'''

Placeholders are `$name` / `${name}` (`string.Template`), not `{name}`: prompts quote Python code and JSON,
whose braces would otherwise need escaping; `$$` is a literal dollar. Rendering refuses a missing value and
a value the template does not use (a misspelt placeholder would otherwise send a prompt with a hole in it).

Every asker of a model reads its prompts this way, each from its own folder: the model stages' in
`models/prompts/` (models/prompts.py), the judges' in `judges/prompts/`, the solver's in
`pipeline/evaluation/prompts/`. It lives in the base layer so that the judges need nothing above it.
"""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.errors import InputError
from core.tomlfile import load_toml_model

_CHAT_ROLES = frozenset({"system", "user", "assistant"})


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    role: str
    content: str = Field(min_length=1)

    @field_validator("role")
    @classmethod
    def _known_role(cls, value: str) -> str:
        if value not in _CHAT_ROLES:
            raise ValueError(f"role must be one of {sorted(_CHAT_ROLES)}, got {value!r}")
        return value


class _PromptFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str = Field(min_length=1, pattern=r"^[A-Za-z0-9._-]+$")
    description: str = ""
    messages: tuple[_Message, ...] = Field(min_length=1)


class PromptTemplate:
    """A loaded template: `render(**values)` gives the chat messages, `ref` names it in records and headers."""

    def __init__(self, name: str, version: str, messages: tuple[tuple[str, str], ...], path: Path,
                 description: str = "") -> None:
        self.name = name
        self.version = version
        self.description = description
        self.path = path
        self._messages = messages
        self._templates = tuple((role, string.Template(content)) for role, content in messages)
        self.placeholders = frozenset(
            ident for _, template in self._templates for ident in template.get_identifiers())

    @property
    def ref(self) -> str:
        return f"{self.name}@{self.version}"

    def render(self, **values: object) -> tuple[dict[str, str], ...]:
        missing = sorted(self.placeholders - set(values))
        unused = sorted(set(values) - self.placeholders)
        if missing or unused:
            problems = ([f"no value for ${', $'.join(missing)}"] if missing else []) + (
                [f"values not in the template: {', '.join(unused)}"] if unused else [])
            raise InputError(f"{self.path}: prompt {self.ref}: {'; '.join(problems)}")
        return tuple({"role": role, "content": template.substitute({k: str(v) for k, v in values.items()})}
                     for role, template in self._templates)


@lru_cache(maxsize=64)
def _load(path: Path) -> PromptTemplate:
    parsed = load_toml_model(path, _PromptFile, "prompt file")
    template = PromptTemplate(path.stem, parsed.version, tuple((m.role, m.content) for m in parsed.messages),
                              path, parsed.description)
    for role, content in template._messages:
        try:
            string.Template(content).substitute({k: "" for k in template.placeholders})
        except ValueError as exc:  # a stray '$' that is not a placeholder
            raise InputError(f"{path}: {role} message: {exc} (write $$ for a literal dollar)") from None
    return template


def load_prompt(name: str, directory: Path) -> PromptTemplate:
    """The template `<directory>/<name>.toml`."""
    if not name or "/" in name or name.startswith("."):
        raise InputError(f"prompt name {name!r} is not a file name")
    return _load(Path(directory).resolve() / f"{name}.toml")
