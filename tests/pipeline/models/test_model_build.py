"""The build's stages on the model backend, against the scripted strong model, on two bundled seeds.

In process (the stage functions, without Prefect) for the cache and the records; through the console
script for the budget stop, the exit code and the printed summary. Both run the real sandbox and gate; the
judge panel is off (it has its own tests; here every gate survivor is released).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scripted_models import StrongModel

from core import settings
from core.layout import Stage
from core.records import Candidate, Rejection, RejectReason
from core.settings import Settings
from core.store import ArtifactStore
from models.config import ModelsConfig
from models.run_state import USAGE_FILE, read_stop, read_usage
from pipeline.stages.config import BuildConfig
from pipeline.stages.driver import Driver, RunContext
from pipeline.stages.gate import GateStage
from pipeline.stages.release import ReleaseStage
from pipeline.stages.repair import RepairStage
from pipeline.stages.runs import finished_outcome
from pipeline.stages.seeds import SeedsStage, default_run_id, load_seed_records
from pipeline.stages.synthesis import generating_stage
from tests.emulators.chat import ChatEmulator

pytestmark = pytest.mark.slow

SEEDS = ("Math_Stats/histogram", "Utils_Tools/unit_converter")
CONFIG = """
jobs = 1
[compose]
max_pairs = 1
[gate]
run_mutation = false
[judges]
enabled = false
[models]
backend = "model"
model = "openai/strong-1"
api_base = "{api_base}"
"""


@pytest.fixture
def seeds_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    shutil.copy(settings.PROJECT_ROOT / "seeds" / "domains.toml", seeds / "domains.toml")
    for seed in SEEDS:
        shutil.copytree(settings.PROJECT_ROOT / "seeds" / seed, seeds / seed, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("CLASSEVAL_PRO_SEEDS", str(seeds))
    return seeds


def _build_in_process(artifacts: Path, config: BuildConfig):
    store = ArtifactStore(artifacts)
    resolved = Settings.from_environment()
    run_id = default_run_id(config, load_seed_records(config, resolved)[1], resolved)
    driver = Driver(RunContext(store, run_id, config, resolved.with_artifacts(artifacts)))  # every stage in threads of this process
    driver.run(SeedsStage())
    for stage in (Stage.ENHANCE, Stage.COMPOSE):
        driver.run(generating_stage(stage, config))  # the model backend
    driver.run(GateStage())
    driver.run(RepairStage())
    driver.run(ReleaseStage(driver.funnel))
    return store, run_id, finished_outcome(store, run_id)


def _config(api_base: str) -> BuildConfig:
    from validation.policy import GatePolicy

    return BuildConfig(jobs=1, compose={"max_pairs": 1}, gate=GatePolicy(run_mutation=False), judges={"enabled": False},
                       models=ModelsConfig(backend="model", model="openai/strong-1", api_base=api_base))


def test_model_build_makes_calls_once_and_the_cache_rebuilds_the_same_release(tmp_path: Path, seeds_dir: Path) -> None:
    strong = StrongModel()
    with ChatEmulator(strong) as server:
        store, run_id, first = _build_in_process(tmp_path / "a", _config(server.base_url))
        calls_first = list(server.calls)
        assert first.version is not None, first.message
        # Same cache, fresh runs and releases: every answer comes from the cache.
        shutil.copytree(tmp_path / "a" / "cache" / "models", tmp_path / "b" / "cache" / "models")
        _, run_b, second = _build_in_process(tmp_path / "b", _config(server.base_url))
        assert len(server.calls) == len(calls_first), [(c.role, c.prompt, c.last_user_message[:300]) for c in server.calls[len(calls_first):]] + [(c.role, c.prompt) for c in calls_first]  # zero calls the second time
    # Every request named its role and prompt.
    assert all(c.role and c.prompt and "@" in c.prompt for c in calls_first)
    prompts = [c.prompt for c in calls_first]
    assert prompts.count("reference_feedback@1") == 1 and prompts.count("tests_feedback@1") == 1
    # The same release: the same tasks, byte for byte.
    assert sorted(first.released) == sorted(second.released) and len(first.released) == 2
    for task_id in first.released:
        assert (store.release_dir(first.version) / "classeval.json").read_text() == \
            (ArtifactStore(tmp_path / "b").release_dir(second.version) / "classeval.json").read_text()
    # The accepted candidates record model, prompts and cache keys; they passed the gate the model path ran.
    candidates = [c for stage in ("enhance", "compose") for _, c in store.iter_records(run_id, stage, Candidate)]
    assert {c.class_name for c in candidates} >= {"Histogram"} and len(candidates) == 2
    histogram = next(c for c in candidates if c.class_name == "Histogram")
    parameters = histogram.generator.parameters
    assert histogram.generator.model == "openai/strong-1"
    assert parameters["reference_fixed"] is True and parameters["feedback_rounds"] == 1
    keys = {a["cache_key"] for a in parameters["answers"]}
    assert keys and all((tmp_path / "a" / "cache" / "models" / k[:2] / f"{k}.json").is_file() for k in keys)
    # The weak enhancer's attempt is a rejection with its raw answers; the build went on.
    rejections = [r for _, r in store.iter_records(run_id, "rejections", Rejection) if r.stage == "enhance"]
    assert [(r.reason, r.evidence["class_name"]) for r in rejections] == [(RejectReason.TOO_SMALL, "UnitConverter")]
    assert len(rejections[0].evidence["raw_answers"]) == 2
    # Usage: per run, in the run folder and the manifest.
    usage_a, usage_b = read_usage(store.runs / run_id), read_usage(ArtifactStore(tmp_path / "b").runs / run_b)
    assert usage_a.total().calls == len(calls_first) and usage_a.total().cache_hits == 0
    assert usage_b.total().calls == 0 and usage_b.total().cache_hits == len(calls_first)
    assert usage_a.total().cost_label() == "unknown price"
    manifest = json.loads((store.release_dir(first.version) / "manifest.json").read_text())
    assert manifest["model_usage"]["total"]["calls"] == len(calls_first)
    assert set(manifest["model_usage"]["by_role"]) == {"enhancer", "composer", "test_writer", "reference_writer"}


CLI = [sys.executable, "-c", "from commands.main import main; main()"]


def test_budget_stops_the_build_cleanly_and_a_raised_budget_resumes(tmp_path: Path, seeds_dir: Path) -> None:
    env = {**os.environ, "CLASSEVAL_PRO_ARTIFACTS": str(tmp_path / "artifacts"), "OPENAI_API_KEY": "test-key"}
    strong = StrongModel()
    with ChatEmulator(strong) as server:
        config = tmp_path / "build.toml"
        config.write_text(CONFIG.format(api_base=server.base_url))

        def build(*options: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([*CLI, "build", "--config", str(config), *options], env=env, capture_output=True,
                                  text=True, timeout=900)

        stopped = build("--max-calls", "2")
        assert stopped.returncode == 0, stopped.stderr[-3000:]
        assert len(server.calls) == 2
        assert "stopped: budget exhausted" in stopped.stdout and "max_calls=2" in stopped.stdout
        assert "Raise [models.budget]" in stopped.stdout and "no release yet" in stopped.stdout
        [run] = list((tmp_path / "artifacts" / "runs").iterdir())
        stop = read_stop(run)
        assert stop is not None and sum(len(v) for v in stop.not_done.values()) >= 1
        assert not (run / "enhance.done.json").exists() or not (run / "compose.done.json").exists()

        same = build("--max-calls", "2")  # the per-run budget is spent: nothing new is asked
        assert same.returncode == 0 and len(server.calls) == 2

        resumed = build("--max-calls", "100")
        assert resumed.returncode == 0, resumed.stderr[-3000:]
        total_calls = len(server.calls)
    assert [p.name for p in (tmp_path / "artifacts" / "runs").iterdir()] == [run.name]  # the same run resumed
    assert read_stop(run) is None and (run / "enhance.done.json").is_file() and (run / "compose.done.json").is_file()
    assert "stopped" not in resumed.stdout and "model usage" in resumed.stdout
    usage = read_usage(run)
    assert usage.total().calls == total_calls  # no answer was asked for twice
    assert "reference_writer" in resumed.stdout and "unknown price" in resumed.stdout
    assert (run / USAGE_FILE).is_file()
    releases = sorted((tmp_path / "artifacts" / "releases").iterdir())
    released = [t for r in releases for t in json.loads((r / "classeval.json").read_text())]
    assert {t["class_name"] for t in released} == {"Histogram", next(c for _, _, c in strong.seen if c not in
                                                                     ("Histogram", "UnitConverter"))}
