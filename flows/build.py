"""The build flow: Prefect sequences the stages of pipeline/stages.py and nothing else.

Tasks receive and return ids and paths, never large records, so Prefect's cache keys stay deterministic
and the artifact tree stays the source of truth. Stages that are not built yet are absent, not faked.
"""

from __future__ import annotations

from pathlib import Path

from prefect import flow, task
from pydantic import BaseModel

from pipeline import settings, stages
from pipeline.config import BuildConfig
from pipeline.funnel import Funnel
from pipeline.store import ArtifactStore


class BuildSummary(BaseModel):
    """What a build did, printed by the CLI."""

    run_id: str
    run_dir: Path
    funnel: Funnel


@task(name="seeds", retries=0)
def seeds_task(artifacts: Path, run_id: str, config: BuildConfig):
    store = ArtifactStore(artifacts)
    return stages.stage_seeds(store, run_id, stages.load_seed_records(config))


@flow(name="classeval-pro-build", log_prints=False)
def build_flow(config: BuildConfig, run_id: str | None = None) -> BuildSummary:
    """Run every built stage in order, writing the funnel after each so an interrupted run shows progress."""
    artifacts = settings.artifacts_dir()
    store = ArtifactStore(artifacts)
    seeds = stages.load_seed_records(config)
    run_id = run_id or stages.default_run_id(config, seeds)
    store.write_run_file(run_id, "config.json", config.model_dump_json(indent=2) + "\n")
    funnel = Funnel(run_id=run_id)
    funnel = funnel.with_stage(stages.SEEDS_STAGE, seeds_task(artifacts, run_id, config))
    store.write_run_file(run_id, "funnel.json", funnel.to_json() + "\n")
    return BuildSummary(run_id=run_id, run_dir=store.runs / run_id, funnel=funnel)
