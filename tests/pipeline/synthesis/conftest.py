"""One sandbox pool per session for the synthesis tests that run code."""

import pytest


@pytest.fixture(scope="session")
def sandbox_pool():
    sandbox = pytest.importorskip("validation.sandbox")
    with sandbox.SandboxPool(jobs=1) as pool:
        yield pool
