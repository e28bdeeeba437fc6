"""Command-line commands of the release stage: `classeval-pro publish` and `classeval-pro release verify`.

Registered on the main app in pipeline/cli.py. Errors are InputErrors: the main entry point prints them
as one line and exits non-zero.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from rich.console import Console

release_app = typer.Typer(help="Inspect and check releases.", no_args_is_help=True)
console = Console()
err_console = Console(stderr=True)


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
    from pipeline.release.publish import publish

    result = publish(release, repo, endpoint=endpoint, create=create)
    console.print(result.message, highlight=False, soft_wrap=True)


@release_app.command("verify")
def verify_command(
    release: Annotated[str, typer.Argument(metavar="RELEASE", help=RELEASE_HELP)],
) -> None:
    """Check every file and task of a release against its manifest.json; exit 1 if anything differs
    (exit 2 when the release does not exist or the version is malformed)."""
    from pipeline import settings
    from pipeline.release.manifest import verify_release
    from pipeline.release.naming import resolve_release
    from pipeline.store import ArtifactStore

    path = resolve_release(release, ArtifactStore(settings.artifacts_dir())).folder
    problems = verify_release(path)
    for problem in problems:
        err_console.print(f"[red]error[/red] {problem}", highlight=False, soft_wrap=True)
    if problems:
        raise typer.Exit(1)
    console.print(f"{path}: every file and task matches manifest.json", highlight=False, soft_wrap=True)
