"""The build command runs the Prefect flow end to end (temporary server, no network) and resumes.

Runs the console script in a subprocess, as a user would, with seeds and artifacts in a temporary folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "pipeline"))
from corpus_fixture import REGISTRY_TWO_DOMAINS, COUNTER_SOURCE, COUNTER_TESTS, write_seed  # noqa: E402

CLI = [sys.executable, "-c", "from pipeline.cli import main; main()"]


def _build(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "build", *args], env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "domains.toml").write_text(REGISTRY_TWO_DOMAINS)
    write_seed(seeds, "Algo_DataStruct", "counter", COUNTER_SOURCE, COUNTER_TESTS, "Counter")
    return {**os.environ, "CLASSEVAL_PRO_SEEDS": str(seeds), "CLASSEVAL_PRO_ARTIFACTS": str(tmp_path / "artifacts")}


def test_build_writes_the_run_and_a_rerun_resumes_it(env: dict[str, str], tmp_path: Path):
    first = _build(env)
    assert first.returncode == 0, first.stderr
    runs = list((tmp_path / "artifacts" / "runs").iterdir())
    assert len(runs) == 1
    run = runs[0]
    seed_record = run / "seeds" / "Algo_DataStruct__counter.json"
    assert json.loads(seed_record.read_text())["class_name"] == "Counter"
    funnel = json.loads((run / "funnel.json").read_text())
    assert funnel["run_id"] == run.name and funnel["stages"]["seeds"]["received"] == 1
    written = seed_record.stat().st_mtime_ns

    second = _build(env)
    assert second.returncode == 0, second.stderr
    assert [p.name for p in (tmp_path / "artifacts" / "runs").iterdir()] == [run.name]
    assert seed_record.stat().st_mtime_ns == written  # resumed: the finished record was not rewritten
    assert (tmp_path / "artifacts" / ".prefect" / "prefect.db").is_file()  # Prefect kept to the artifact tree


def test_a_broken_seed_stops_the_build_before_prefect_starts(env: dict[str, str], tmp_path: Path):
    seeds = Path(env["CLASSEVAL_PRO_SEEDS"])
    write_seed(seeds, "Math_Stats", "broken", "class Broken(:\n", "from broken import Broken\ndef test_x(): pass\n", "Broken")
    result = _build(env)
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error:") and "broken.py" in result.stderr
    assert not (tmp_path / "artifacts" / ".prefect" / "prefect.db").exists()
