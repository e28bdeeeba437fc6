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

KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "AZURE_API_KEY", "MISTRAL_API_KEY")
STARTUP_KEYS = {name: os.environ[name] for name in KEY_VARIABLES if os.environ.get(name)}


@pytest.fixture
def startup_keys() -> dict[str, str]:
    """Provider keys set before the tests started (a fixture, not an import: every test folder has a module
    named `conftest`, and which one `import conftest` finds depends on the order folders were collected)."""
    return dict(STARTUP_KEYS)


@pytest.fixture(autouse=True)
def _offline_litellm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    for name in KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
