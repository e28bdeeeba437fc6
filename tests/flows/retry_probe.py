"""Run by test_mapped_retries.py in its own process (Prefect reads its settings from the environment at
import): the per-candidate gate task mapped over three ids, with the gate replaced by a fake that fails
for a passing reason on chosen attempts. Prints every call as JSON lines: id, last_attempt."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pipeline import settings

settings.configure_offline_environment(Path(sys.argv[1]))

from prefect import flow, unmapped  # noqa: E402 - after the environment is set

from flows import mapped  # noqa: E402
from pipeline import per_record  # noqa: E402
from pipeline.config import BuildConfig  # noqa: E402

calls: list[tuple[str, bool]] = []


def fake_gate_one(store, run_id, candidate_id, config, pool, *, last_attempt):  # noqa: ANN001
    calls.append((candidate_id, last_attempt))
    attempts = sum(1 for c, _ in calls if c == candidate_id)
    if candidate_id == "flaky" and attempts == 1:
        raise per_record.TransientFailure("worker lost once")
    if candidate_id == "broken" and not last_attempt:
        raise per_record.TransientFailure("worker lost every time")
    if candidate_id == "bad-input":
        raise ValueError("not transient: never retried")
    return True


per_record.gate_one = fake_gate_one
mapped._pool = lambda config: None


@flow(name="retry-probe")
def probe(ids: list[str]) -> list[str]:
    futures = mapped.gate_task.map(unmapped(Path(sys.argv[1])), unmapped("run-probe"), ids, unmapped(BuildConfig()))
    results = []
    for future in futures:
        try:
            results.append(future.result())
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results.append(f"failed: {type(exc).__name__}")
    return results


if __name__ == "__main__":
    print(json.dumps({"results": probe(["fine", "flaky", "broken", "bad-input"]), "calls": calls}))
