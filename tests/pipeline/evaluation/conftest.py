"""Evaluation tests: one sandbox pool for the folder, the model client against the local chat emulator
with a fake key (no network), and a small task built the way a release builds it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# `tests.emulators.chat` and `eval_fixtures` are imported from the checkout under a bare `pytest` too.
PROJECT_ROOT = str(Path(__file__).resolve().parents[3])
for entry in (PROJECT_ROOT, str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1] / "release")):
    if entry not in sys.path:
        sys.path.insert(0, entry)

from eval_fixtures import FAST  # noqa: E402

from tests.emulators.chat import offline_litellm  # noqa: E402
from validation.sandbox import SandboxPool  # noqa: E402


@pytest.fixture(autouse=True)
def _offline_litellm(monkeypatch: pytest.MonkeyPatch) -> None:
    offline_litellm(monkeypatch)


@pytest.fixture(scope="session")
def pool() -> Iterator[SandboxPool]:
    with SandboxPool(jobs=2, limits=FAST.limits()) as sandbox:
        yield sandbox
