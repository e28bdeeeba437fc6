"""Run by test_mapped_retries.py in its own process (Prefect reads its settings from the environment at
import): the driver's per-item task mapped over four ids of a fake stage whose work fails for a passing
reason on chosen attempts. Prints every call as JSON lines: id, last_attempt."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from core import settings

settings.configure_offline_environment(Path(sys.argv[1]))

from contextlib import nullcontext  # noqa: E402

from prefect import flow, unmapped  # noqa: E402 - after the environment is set

from core.settings import Settings  # noqa: E402
from core.store import ArtifactStore  # noqa: E402
from flows import mapped  # noqa: E402
from pipeline.stages.config import BuildConfig  # noqa: E402
from pipeline.stages.driver import RunContext, TransientFailure  # noqa: E402

calls: list[tuple[str, bool]] = []


class FakeGate:
    """A stage whose one-item work fails for a passing reason on chosen attempts."""

    stage = "gate"

    def needs_pool(self, ctx):  # noqa: ANN001, ANN201
        return False

    def open(self, ctx, pool):  # noqa: ANN001, ANN201
        return nullcontext()

    def run_one(self, ctx, item, kit, *, last_attempt):  # noqa: ANN001, ANN201
        calls.append((item, last_attempt))
        attempts = sum(1 for c, _ in calls if c == item)
        if item == "flaky" and attempts == 1:
            raise TransientFailure("worker lost once")
        if item == "broken" and not last_attempt:
            raise TransientFailure("worker lost every time")
        if item == "bad-input":
            raise ValueError("not transient: never retried")
        return True


@flow(name="retry-probe")
def probe(ids: list[str]) -> list[str]:
    ctx = RunContext(ArtifactStore(Path(sys.argv[1])), "run-probe", BuildConfig(),
                     Settings.from_environment().with_artifacts(Path(sys.argv[1])))
    futures = mapped.stage_item.map(unmapped(FakeGate()), unmapped(ctx), ids)
    results = []
    for future in futures:
        try:
            results.append(future.result()[0])
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results.append(f"failed: {type(exc).__name__}")
    return results


if __name__ == "__main__":
    print(json.dumps({"results": probe(["fine", "flaky", "broken", "bad-input"]), "calls": calls}))
