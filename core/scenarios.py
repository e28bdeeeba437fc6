"""Call scenarios: what a generated test does, as data.

A scenario builds one instance and calls methods on it in order; a few steps bind a second object (a
restored snapshot) that later steps use. Scenarios are plain JSON so that the sandbox driver can run them
without importing pipeline code, and so that they sort and hash the same on every machine.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

MAIN = "obj"
"""Variable name of the instance under test inside scenarios (the renderer picks a readable name)."""
CLASS = "@cls"
"""Step target meaning "call on the class itself" (classmethods and staticmethods)."""


@dataclass(frozen=True)
class Arg:
    """One argument: a literal (canonical source text), a bound variable, or a no-argument method call."""

    literal: str | None = None
    var: str | None = None
    call: tuple[str, str] | None = None  # (variable, method): `var.method()`

    def to_json(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items() if v is not None}

    @staticmethod
    def from_json(data: dict) -> Arg:
        return Arg(literal=data.get("literal"), var=data.get("var"), call=tuple(data["call"]) if "call" in data else None)


@dataclass(frozen=True)
class Step:
    """One call: `target.method(*args, **kwargs)`; `bind` names the result for later steps."""

    target: str
    method: str
    args: tuple[Arg, ...] = ()
    kwargs: tuple[tuple[str, Arg], ...] = ()
    bind: str | None = None

    def to_json(self) -> dict:
        data: dict = {"target": self.target, "method": self.method, "args": [a.to_json() for a in self.args]}
        if self.kwargs:
            data["kwargs"] = [[k, v.to_json()] for k, v in self.kwargs]
        if self.bind:
            data["bind"] = self.bind
        return data

    @staticmethod
    def from_json(data: dict) -> Step:
        return Step(
            target=data["target"],
            method=data["method"],
            args=tuple(Arg.from_json(a) for a in data.get("args", [])),
            kwargs=tuple((k, Arg.from_json(v)) for k, v in data.get("kwargs", [])),
            bind=data.get("bind"),
        )


@dataclass(frozen=True)
class Scenario:
    """A fresh instance (constructor arguments) and the steps run on it."""

    ctor_args: tuple[Arg, ...] = ()
    ctor_kwargs: tuple[tuple[str, Arg], ...] = ()
    steps: tuple[Step, ...] = ()
    title: str | None = None  # a test-name hint from the feature that made it, e.g. "undo_restores_state"
    origin: str = "walk"
    focus: tuple[str, ...] = field(default=())  # methods the scenario is about (feature methods)

    def to_json(self) -> dict:
        return {
            "ctor_args": [a.to_json() for a in self.ctor_args],
            "ctor_kwargs": [[k, v.to_json()] for k, v in self.ctor_kwargs],
            "steps": [s.to_json() for s in self.steps],
            "title": self.title,
            "origin": self.origin,
            "focus": list(self.focus),
        }

    @staticmethod
    def from_json(data: dict) -> Scenario:
        return Scenario(
            ctor_args=tuple(Arg.from_json(a) for a in data.get("ctor_args", [])),
            ctor_kwargs=tuple((k, Arg.from_json(v)) for k, v in data.get("ctor_kwargs", [])),
            steps=tuple(Step.from_json(s) for s in data.get("steps", [])),
            title=data.get("title"),
            origin=data.get("origin", "walk"),
            focus=tuple(data.get("focus", [])),
        )

    def key(self) -> str:
        """Canonical text of what the scenario does (title and origin excluded): equal keys run the same."""
        data = self.to_json()
        data.pop("title")
        data.pop("origin")
        data.pop("focus")
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def with_steps(self, steps: tuple[Step, ...] | list[Step], *, title: str | None = None, origin: str | None = None,
                   focus: tuple[str, ...] = ()) -> Scenario:
        return Scenario(self.ctor_args, self.ctor_kwargs, tuple(steps), title, origin or self.origin, focus)


def call(method: str, *args: str, target: str = MAIN, bind: str | None = None) -> Step:
    """Shorthand: a step whose arguments are literal source texts."""
    return Step(target=target, method=method, args=tuple(Arg(literal=a) for a in args), bind=bind)
