"""Per-record tasks are retried on their own, and only for passing failures: a record that failed once is
retried and succeeds, one that keeps failing gets a last attempt that writes its outcome as data, and any
other error is not retried. Runs Prefect's real task engine in a child process, against the session's
Prefect server (shared with the serve test, so no server of its own starts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from build_workspace import inherited_environment

pytestmark = pytest.mark.slow  # the session's Prefect server starts unless another test started it


def test_a_transient_failure_is_retried_per_record_and_the_last_attempt_is_marked(tmp_path: Path, prefect_server):
    probe = Path(__file__).with_name("retry_probe.py")
    result = subprocess.run([sys.executable, str(probe), str(tmp_path)], env={**inherited_environment(), "PREFECT_API_URL": prefect_server.api_url}, text=True,
                            capture_output=True, timeout=600, cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["results"] == ["fine", "flaky", "broken", "failed: ValueError"]
    calls = [tuple(c) for c in out["calls"]]
    assert [c for c in calls if c[0] == "fine"] == [("fine", False)]
    assert [c for c in calls if c[0] == "flaky"] == [("flaky", False), ("flaky", False)]
    assert [c for c in calls if c[0] == "broken"] == [("broken", False), ("broken", False), ("broken", True)]
    assert [c for c in calls if c[0] == "bad-input"] == [("bad-input", False)]
