"""The domain registry: a TOML file parsed into a strict schema.

Domains are data, not code, so a maintainer adds one with a registry entry and a seeds folder. The schema
refuses unknown keys and duplicate names so that a typo is an error at load time rather than a domain that
silently never gets seeds.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.tomlfile import load_toml_model


class Domain(BaseModel):
    """One registry entry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="Folder name under seeds/; letters, digits and underscores.")
    description: str = Field(min_length=1, description="One sentence saying what belongs in the domain.")
    keywords: tuple[str, ...] = Field(min_length=1, description="Search keywords for mining repositories.")
    composable_with: tuple[str, ...] = Field(default=(), description="Domains the composer may pair it with; empty = any.")

    @field_validator("name")
    @classmethod
    def _name_is_identifier(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", value):
            raise ValueError(f"domain name {value!r} must be letters, digits and underscores, starting with a letter")
        return value


class DomainRegistry(BaseModel):
    """All domains, in registry order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    domain: tuple[Domain, ...] = Field(min_length=1)

    @field_validator("domain")
    @classmethod
    def _unique_names(cls, value: tuple[Domain, ...]) -> tuple[Domain, ...]:
        seen: set[str] = set()
        for entry in value:
            if entry.name in seen:
                raise ValueError(f"domain {entry.name!r} is listed twice")
            seen.add(entry.name)
        known = {entry.name for entry in value}
        for entry in value:
            unknown = set(entry.composable_with) - known
            if unknown:
                raise ValueError(f"domain {entry.name!r}: composable_with names unknown domains {sorted(unknown)}")
        return value

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.domain)

    def get(self, name: str) -> Domain:
        for entry in self.domain:
            if entry.name == name:
                return entry
        raise KeyError(name)


def load_domains(path: Path) -> DomainRegistry:
    """Parse the registry; any problem is an `InputError` naming the file."""
    return load_toml_model(path, DomainRegistry, "domain registry")
