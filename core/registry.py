"""Registries of plug-ins: per kind, one explicit map of name -> "module:attr", loaded on first use, refusing
a second entry under a name it holds.

A plug-in kind (feature transform, faithful-variant kind, judge, mining source, export format) keeps its
registry beside the protocol its plug-ins follow, so adding one is one new file plus one registration line
there. Why strings and not registration at import time (a decorator in each plug-in's file): the map is the
one place a reader finds every plug-in of a kind and their order (the kind's canonical order, which
records and releases depend on), and nothing is imported until it is used.

A `Registry` is a read-only mapping of name -> target in registration order, so `list(registry)` is the
canonical order and `name in registry` asks whether a name is known. `register` adds a plug-in from outside
(a test's toy plug-in, a maintainer's own); `registered` does so for the length of a `with` block.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any


class Registry(Mapping[str, str]):
    """The plug-ins of one kind: name -> "module:attr", in registration order."""

    def __init__(self, kind: str, entries: Mapping[str, str] = ()) -> None:
        self.kind = kind
        self._entries: dict[str, str] = {}
        for name, target in dict(entries).items():
            self.register(name, target)

    def __getitem__(self, name: str) -> str:
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def register(self, name: str, target: str) -> None:
        """Add a plug-in. A name already held is refused: two plug-ins under one name would make which one a
        record names depend on the order modules were imported in."""
        if name in self._entries:
            raise ValueError(f"{self.kind} {name!r} is registered already (as {self._entries[name]})")
        module, _, attr = target.partition(":")
        if not module or not attr:
            raise ValueError(f"{self.kind} {name!r}: target {target!r} is not 'module:attr'")
        self._entries[name] = target

    def unregister(self, name: str) -> None:
        del self._entries[name]

    @contextmanager
    def registered(self, name: str, target: str) -> Iterator[None]:
        """`name` registered for the length of the block (a test's toy plug-in)."""
        self.register(name, target)
        try:
            yield
        finally:
            self.unregister(name)

    def load(self, name: str) -> Any:
        """The object registered under `name`, imported on first use."""
        try:
            module, _, attr = self._entries[name].partition(":")
        except KeyError:
            raise KeyError(f"unknown {self.kind} {name!r}; known: {', '.join(self._entries)}") from None
        return getattr(importlib.import_module(module), attr)
