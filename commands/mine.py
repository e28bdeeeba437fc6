"""`classeval-pro mine`: mine fresh classes into a run and print what was kept and why the rest was not."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from core.domains import load_domains
from core.errors import InputError
from core.records import content_hash
from core.settings import Settings
from core.store import ArtifactStore, atomic_write_text
from pipeline.mining.snapshot import sources_state
from pipeline.stages.config import load_config
from pipeline.stages.driver import RunContext, ThreadExecutor, run_stage
from pipeline.stages.mine import MineStage, finish_mining, mining_configured

console = Console(emoji=False)


def candidate_summary(mined, candidate) -> dict[str, str]:  # noqa: ANN001 - MinedClass, Candidate
    """The `--json` object of one kept class."""
    return {"candidate_id": candidate.candidate_id, "repository": mined.repository, "path": mined.path,
            "class_name": mined.class_name, "licence": mined.licence, "first_commit": mined.first_commit,
            "first_commit_date": mined.first_commit_date, "domain": mined.domain}


def mine_command(
    local: Annotated[Optional[Path], typer.Option("--local", help="Folder holding git repositories to mine.")] = None,
    github: Annotated[bool, typer.Option("--github", help="Mine GitHub too (GITHUB_TOKEN from the environment).")] = False,
    since: Annotated[Optional[str], typer.Option(help="Cut-off date (YYYY-MM-DD); default 2025-01-01.")] = None,
    domains: Annotated[Optional[list[str]], typer.Option("--domains", help="Keep only these domains (repeatable).")] = None,
    limit: Annotated[Optional[int], typer.Option(min=1, help="Stop after this many kept classes.")] = None,
    json_file: Annotated[Optional[Path], typer.Option("--json", help="Write the kept classes to this JSON file.")] = None,
    config: Annotated[Optional[Path], typer.Option(help="TOML build configuration; its [mine] section is the base.")] = None,
    run_id: Annotated[Optional[str], typer.Option(help="Run to write into; default derives from the settings.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Sandbox workers for test synthesis.")] = 2,
    sandbox_python: Annotated[Optional[Path], typer.Option(
        "--sandbox-python", help="Interpreter that runs the mined code's tests (default: the configuration's "
        "sandbox_python, else this one); classes needing a newer Python are rejected unsupported_syntax.")] = None,
) -> None:
    """Mine classes first committed after the cut-off into a run's `mine/` folder, with every rejection."""
    build = load_config(config)
    if sandbox_python is not None:
        build = build.model_copy(update={"sandbox_python": sandbox_python})
    updates: dict[str, object] = {}
    if local is not None:
        updates["local"] = local.resolve()
    if github:
        updates["github"] = True
    if since is not None:
        try:
            updates["since"] = date.fromisoformat(since)
        except ValueError:
            raise InputError(f"--since {since!r}: not a date (YYYY-MM-DD)") from None
    if domains:
        updates["domains"] = tuple(domains)
    if limit is not None:
        updates["limit"] = limit
    mine = build.mine.model_copy(update=updates)
    resolved = Settings.from_environment()
    if not mining_configured(mine, resolved):
        raise InputError("nothing to mine: give --local DIR, or --github with GITHUB_TOKEN set")
    registry = load_domains(resolved.domains)
    unknown = set(mine.domains) - set(registry.names)
    if unknown:
        raise InputError(f"--domains: unknown domain(s) {sorted(unknown)}")
    # The repositories' state is part of the id: after a pull, the repositories already mined at their old
    # heads would otherwise be found done and nothing new mined.
    sources = sources_state(mine, github_token=bool(resolved.token()))
    run_id = run_id or "mine-" + content_hash(mine.model_dump(mode="json"), sources, length=10)
    store = ArtifactStore(resolved.artifacts)
    ctx = RunContext(store, run_id, build.model_copy(update={"mine": mine, "jobs": jobs}), resolved)
    stage = MineStage()
    with build.sandbox_pool(jobs) as pool:
        console.print(f"sandbox interpreter: {pool.interpreter.label} ({pool.interpreter.executable})")
        run_stage(stage, ctx, ThreadExecutor(pool=pool))
    result = stage.result or finish_mining(store, run_id, stage.items(ctx), mine)  # finished by an earlier run
    summary = result.tally.summary()
    console.print(f"run {run_id}: {store.runs / run_id}")
    console.print(f"repositories {summary['repositories']}  classes seen {summary['classes_seen']}  kept {summary['kept']}")
    for reason, count in summary["rejected"].items():
        console.print(f"  rejected {reason:<22} {count:>6}")
    if json_file is not None:
        rows = [candidate_summary(m, c) for m, c in result.kept]
        atomic_write_text(json_file, json.dumps(rows, indent=2) + "\n")
        console.print(f"wrote {len(rows)} kept class(es) to {json_file}")
