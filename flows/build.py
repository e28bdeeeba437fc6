"""The build flow: Prefect sequences the stages of pipeline/stages.py and nothing else.

Prefect's result cache is off (NO_CACHE): resuming is the artifact tree's job, and hashing a configuration
or a callback for cache keys would only produce warnings.

Tasks receive and return paths, ids and small counts, never large records, so the artifact tree stays the
source of truth and a rerun of the same run id resumes from it (each stage skips what is already written).
Stages that are not built yet (model-driven generation) are absent, not faked; mining runs when `[mine]` names
a source (a local folder, or GitHub with a token).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NO_CACHE
from pydantic import BaseModel

from pipeline import settings, stages
from pipeline.config import BuildConfig
from pipeline.funnel import Funnel, StageCount
from pipeline.mining.stage import mining_configured
from pipeline.store import ArtifactStore


class BuildSummary(BaseModel):
    """What a build did, printed by the CLI."""

    run_id: str
    run_dir: Path
    funnel: Funnel
    release_version: str | None = None
    release_path: Path | None = None
    release_message: str = ""


@task(name="seeds", cache_policy=NO_CACHE)
def seeds_task(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    return stages.stage_seeds(ArtifactStore(artifacts), run_id, stages.load_seed_records(config))


@task(name="enhance", cache_policy=NO_CACHE)
def enhance_task(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    return stages.stage_enhance(ArtifactStore(artifacts), run_id, stages.load_seed_records(config), config)


@task(name="compose", cache_policy=NO_CACHE)
def compose_task(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    return stages.stage_compose(ArtifactStore(artifacts), run_id, stages.load_seed_records(config), config)


@task(name="mine", cache_policy=NO_CACHE)
def mine_task(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    return stages.stage_mine(ArtifactStore(artifacts), run_id, config)


@task(name="validate", cache_policy=NO_CACHE)
def validate_task(artifacts: Path, run_id: str, config: BuildConfig,
                  progress: Callable[[int, int], None] | None = None) -> tuple[StageCount, StageCount]:
    return stages.stage_validate(ArtifactStore(artifacts), run_id, config, progress)


@task(name="judge", cache_policy=NO_CACHE)
def judge_task(artifacts: Path, run_id: str, config: BuildConfig) -> StageCount:
    return stages.stage_judge(ArtifactStore(artifacts), run_id, config)


@task(name="release", cache_policy=NO_CACHE)
def release_task(artifacts: Path, run_id: str, config: BuildConfig, funnel: Funnel):
    return stages.stage_release(ArtifactStore(artifacts), run_id, stages.load_seed_records(config), funnel, config)


@flow(name="classeval-pro-build", log_prints=False, validate_parameters=False)
def build_flow(config: BuildConfig, run_id: str | None = None,
               progress: Callable[[str, int, int], None] | None = None) -> BuildSummary:
    """Run every built stage in order, saving the funnel after each so an interrupted run shows how far it got.

    `progress(stage, done, total)` is called as the long stages advance (the CLI draws a bar with it).
    """
    artifacts = settings.artifacts_dir()
    store = ArtifactStore(artifacts)
    run_id = run_id or stages.default_run_id(config, stages.load_seed_records(config))
    store.write_run_file(run_id, "config.json", config.model_dump_json(indent=2) + "\n")
    funnel = Funnel(run_id=run_id)

    def record(name: str, count: StageCount) -> None:
        nonlocal funnel
        funnel = funnel.with_stage(name, count)
        store.write_run_file(run_id, "funnel.json", funnel.to_json() + "\n")
        if progress:
            progress(name, count.received, count.received)

    record(stages.SEEDS_STAGE, seeds_task(artifacts, run_id, config))
    record(stages.ENHANCE_STAGE, enhance_task(artifacts, run_id, config))
    record(stages.COMPOSE_STAGE, compose_task(artifacts, run_id, config))
    if mining_configured(config.mine):  # a local folder or GitHub with a token
        record(stages.MINE_STAGE, mine_task(artifacts, run_id, config))
    gate_progress = (lambda done, total: progress(stages.VALIDATE_STAGE, done, total)) if progress else None
    gate, repair = validate_task(artifacts, run_id, config, gate_progress)
    record(stages.VALIDATE_STAGE, gate)
    record(stages.REPAIR_STAGE, repair)
    if config.judges.enabled:  # after the gate, on its survivors only; before release
        record(stages.JUDGE_STAGE, judge_task(artifacts, run_id, config))
    result = release_task(artifacts, run_id, config, funnel)
    funnel = result.funnel
    store.write_run_file(run_id, "funnel.json", funnel.to_json() + "\n")
    return BuildSummary(run_id=run_id, run_dir=store.runs / run_id, funnel=funnel,
                        release_version=result.version, release_path=result.path, release_message=result.message)
