"""Command-line commands of the release stage: `classeval-pro publish`, `classeval-pro release verify`,
`classeval-pro release diff` and `classeval-pro release faithful`.

Registered on the main app in commands/main.py. Errors are InputErrors: the main entry point prints them
as one line and exits non-zero.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from core import settings
from core.errors import InputError
from core.settings import Settings
from core.store import ArtifactStore, atomic_write_text
from pipeline.release.dataset_io import load_release, read_split
from pipeline.release.diff import diff_rows
from pipeline.release.faithful_check import summary
from pipeline.release.manifest import verify_release
from pipeline.release.naming import resolve_release
from pipeline.release.publish import publish
from pipeline.stages.driver import ThreadExecutor, command_context, run_stage
from pipeline.stages.inputs import FaithfulOnInputs
from validation.policy import GatePolicy
from validation.sandbox import SandboxPool

release_app = typer.Typer(help="Inspect and check releases.", no_args_is_help=True)
console = Console(emoji=False)
err_console = Console(stderr=True, emoji=False)


RELEASE_HELP = "A release: its version (e.g. 2026.12.0) or its folder (artifacts/releases/<version>)."


def publish_command(
    release: Annotated[str, typer.Argument(metavar="RELEASE", help=RELEASE_HELP)],
    repo: Annotated[str, typer.Option("--repo", help="Hugging Face dataset repository, ORG/NAME.")],
    create: Annotated[bool, typer.Option("--create", help="Create the repository (private) if it does not exist.")] = False,
    endpoint: Annotated[Optional[str], typer.Option(help="Hub URL; default HF_ENDPOINT or huggingface.co.")] = None,
) -> None:
    """Upload a release to the Hugging Face Hub and tag it with its version (token from HF_TOKEN).

    Publishing a version that is already tagged there changes nothing.
    """
    result = publish(release, repo, Settings.from_environment(), endpoint=endpoint, create=create)
    console.print(result.message, highlight=False, soft_wrap=True)


@release_app.command("verify")
def verify_command(
    release: Annotated[str, typer.Argument(metavar="RELEASE", help=RELEASE_HELP)],
) -> None:
    """Check every file and task of a release against its manifest.json; exit 1 if anything differs
    (exit 2 when the release does not exist or the version is malformed)."""
    path = resolve_release(release, ArtifactStore(settings.artifacts_dir())).folder
    problems = verify_release(path)
    for problem in problems:
        err_console.print(f"[red]error[/red] {problem}", highlight=False, soft_wrap=True)
    if problems:
        raise typer.Exit(1)
    console.print(f"{path}: every file and task matches manifest.json", highlight=False, soft_wrap=True)


@release_app.command("diff")
def diff_command(
    release: Annotated[str, typer.Argument(metavar="RELEASE", help=RELEASE_HELP)],
    json_path: Annotated[Optional[str], typer.Option("--json", help="Write the diff and its rows as JSON to this file.")] = None,
) -> None:
    """List what a release added and changed against the previous one (its `diff.json`): each task's id,
    class, origin, source date and source."""
    import json

    ref = resolve_release(release, ArtifactStore(settings.artifacts_dir()))
    try:
        diff = json.loads((ref.folder / "diff.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{ref.folder / 'diff.json'}: unreadable ({exc}); the release is damaged") from None
    tasks = [t for split in sorted((ref.folder / "data").glob("*.parquet")) for t in read_split(split)]
    rows = diff_rows(diff, tasks)
    console.print(f"{ref.version} against {diff.get('previous_version') or 'no earlier release'}: added "
                  f"{len(diff.get('added', []))}, changed {len(diff.get('changed', []))}, removed "
                  f"{len(diff.get('removed', []))}, unchanged {diff.get('unchanged', 0)}", highlight=False, soft_wrap=True)
    for row in rows:
        console.print(f"  {row['change']:<8} {row['task_id']}  {row['class_name']}  {row['origin']}  "
                      f"{row['source_date'] or 'undated'}  {row['source']}", highlight=False, soft_wrap=True, markup=False)
    for task_id in diff.get("removed", []):
        console.print(f"  removed  {task_id}", highlight=False)
    if json_path:
        atomic_write_text(Path(json_path), json.dumps({**diff, "rows": rows}, indent=2) + "\n")


@release_app.command("faithful")
def faithful_command(
    release: Annotated[str, typer.Argument(metavar="RELEASE", help=RELEASE_HELP)],
    jobs: Annotated[int, typer.Option(min=1, help="Tasks checked at the same time (sandbox workers).")] = 2,
    json_path: Annotated[Optional[str], typer.Option("--json", help="Write the summary as JSON to this file.")] = None,
) -> None:
    """Run faithful variants of every task's reference (changed only where its skeleton is silent) against
    its tests; exit 1 if a test of any task fails one (an over-specified task), 0 when none does."""
    import json

    path = resolve_release(release, ArtifactStore(settings.artifacts_dir())).folder
    tasks = load_release(path)
    policy = GatePolicy()
    with SandboxPool(jobs=jobs, limits=policy.limits()) as pool:
        reports = run_stage(FaithfulOnInputs(tasks, policy), command_context(Settings.from_environment()),
                            ThreadExecutor(jobs=jobs, pool=pool))
    figures = summary(list(zip(tasks, reports)))
    console.print(f"{path}: {figures['checked']} of {figures['tasks']} tasks checked, {figures['failing']} fail a "
                  f"faithful variant", highlight=False, soft_wrap=True)
    for kind, row in figures["per_kind"].items():
        console.print(f"  {kind}: {row['tasks_failing']} of {row['tasks_with_places']} tasks with such a place fail",
                      highlight=False)
    for task in figures["failing_tasks"]:
        console.print(f"  {task['task_id']} {task['class_name']} ({task['origin']}): "
                      + "; ".join(f"{v['kind']}: {', '.join(t.split('::')[-1] for t in v['failing_tests'][:3])}"
                                  for v in task["variants"]), highlight=False, soft_wrap=True)
    for task in figures["not_checked"]:
        err_console.print(f"[yellow]not checked[/yellow] {task['task_id']}: its tests do not pass as released",
                          highlight=False)
    if json_path:
        atomic_write_text(Path(json_path), json.dumps(figures, indent=2) + "\n")
    if figures["failing"] or figures["not_checked"]:
        raise typer.Exit(1)
