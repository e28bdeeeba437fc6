"""Model-client tests talk to the local chat emulator through the real litellm: a fake key, no network.

Provider keys present when the tests start are kept aside (`STARTUP_KEYS`) for the one test marked `live`;
every other test sees `OPENAI_API_KEY=test-key`, so no test can reach a real provider by accident.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# `tests.emulators.chat` is imported from the checkout: make that work under a bare `pytest` too.
PROJECT_ROOT = str(Path(__file__).resolve().parents[3])
if PROJECT_ROOT not in sys.path:
    sys.path.insert(0, PROJECT_ROOT)

from tests.emulators.chat import PROVIDER_KEYS, offline_litellm  # noqa: E402

STARTUP_KEYS = {name: os.environ[name] for name in PROVIDER_KEYS if os.environ.get(name)}


@pytest.fixture
def startup_keys() -> dict[str, str]:
    """Provider keys set before the tests started (a fixture, not an import: every test folder has a module
    named `conftest`, and which one `import conftest` finds depends on the order folders were collected)."""
    return dict(STARTUP_KEYS)


@pytest.fixture(autouse=True)
def _offline_litellm(monkeypatch: pytest.MonkeyPatch) -> None:
    offline_litellm(monkeypatch)
