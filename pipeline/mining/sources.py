"""Where the mine stage finds classes: the `Source` protocol and the registry of sources, in order.

A source is named by its registry key, which is also the prefix of the stage's items
("<source>:<repository>", e.g. "local:books" or "github:acme/ledgers") and the key of its part of the run
id's snapshot (`snapshot.py`). The registry's order is the order the stage lists repositories in, and the
stage keeps the first `[mine] limit` classes in that order, so a new source goes last: put between two
others it would change which classes an existing configuration keeps.

To add one: a module in this folder with a class following `Source` (no base class needed), and one line
in `REGISTRY`. The configuration says which sources are asked for (`requested`); a source that needs the
access token (`needs_token`) is used only when one is set.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import date
from typing import Any, Protocol

from core.analysis.python_need import Supported
from core.domains import DomainRegistry
from core.errors import InputError
from core.records import JsonValue, Rejection
from core.registry import Registry
from core.settings import Settings
from pipeline.mining.examine import Documenter
from pipeline.mining.records import MineConfig, MinedClass
from pipeline.mining.tally import Tally


class Source(Protocol):
    """What the mine stage and the run id need of a source of repositories."""

    needs_token: bool
    """Used only when the environment holds the access token (`GITHUB_TOKEN`): without one the build does
    not mine it and the run id does not name it."""

    def requested(self, config: MineConfig) -> bool:
        """Whether `[mine]` asks for this source."""
        ...

    def connect(self, config: MineConfig, settings: Settings) -> Any:
        """The handle `repositories` and `mine` read through (an API client), or None when none is needed
        or the token is missing."""
        ...

    def repositories(self, config: MineConfig, registry: DomainRegistry, client: Any) -> list[str]:
        """The repositories to mine, by the name that follows the item's prefix, in a stable order (the
        stage keeps the first classes in it). Raises `InputError` when the source cannot be read at all
        (a missing folder, no client)."""
        ...

    def mine(self, name: str, config: MineConfig, registry: DomainRegistry, tally: Tally, *, client: Any,
             documenter: Documenter | None, supported: Supported | None) -> Iterator[MinedClass | Rejection]:
        """Every class of one repository, kept or rejected, each dated by the first commit that holds it
        (`MinedClass.first_commit`, `first_commit_date`, `found_by`; a class older than `[mine] since` is
        a `not_fresh` rejection). Must not raise for one unreadable file or class: reject it
        (`source_unreadable`); a passing outage of a remote source raises `GithubUnavailable`, which the
        stage retries."""
        ...

    def state(self, config: MineConfig, *, today: date) -> JsonValue:
        """What the source holds now, as JSON, for the run id: what changes when the repositories move on
        (their heads) or, for a source that cannot be asked cheaply, the day."""
        ...


REGISTRY: Registry = Registry("mining source", {
    "local": "pipeline.mining.local:LocalGit",
    "github": "pipeline.mining.github_source:GithubSearch",
})


def source(name: str) -> Source:
    """The source registered under `name`."""
    return REGISTRY.load(name)()


def requested_sources(config: MineConfig) -> list[tuple[str, Source]]:
    """(name, source) of every source `[mine]` asks for, in the registry's order."""
    return [(name, found) for name in REGISTRY if (found := source(name)).requested(config)]


def active_sources(config: MineConfig, *, token: bool) -> list[tuple[str, Source]]:
    """The requested sources that can be read: those needing the token only when it is set."""
    return [(name, found) for name, found in requested_sources(config) if token or not found.needs_token]


def item_source(item_id: str, config: MineConfig) -> tuple[Source, str]:
    """The source of a stage item and the repository's name in it."""
    kind, _, name = item_id.partition(":")
    found = source(kind) if kind in REGISTRY else None
    if found is None or not found.requested(config):
        raise InputError(f"mine item {item_id!r}: not a repository of the configured sources")
    return found, name


def connect_all(config: MineConfig, settings: Settings, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The client of every requested source: `given`'s (a test's emulator) or the source's own."""
    given = given or {}
    return {name: given[name] if given.get(name) is not None else found.connect(config, settings)
            for name, found in requested_sources(config)}
