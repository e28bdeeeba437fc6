"""`classeval-pro serve`: scheduled rebuilds against a real Prefect server (registered in commands/main.py)."""

from __future__ import annotations

import os
import shlex
import signal
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from core.errors import InputError
from core.stopping import EXIT_CODES
from flows.server import is_healthy, start_server
from pipeline.stages.config import load_config

console = Console(stderr=True, emoji=False)


def _check_schedule(cron: str | None, interval: float | None) -> None:
    if (cron is None) == (interval is None):
        raise InputError("give exactly one schedule: --cron \"MIN HOUR DAY MONTH WEEKDAY\" or --interval SECONDS")
    if cron is not None:
        from prefect.client.schemas.schedules import CronSchedule

        try:
            CronSchedule(cron=cron)
        except ValueError as exc:
            raise InputError(f"--cron {cron!r} is not a valid cron expression: {exc}") from None


def serve_command(
    cron: Annotated[Optional[str], typer.Option(help="Cron schedule of the rebuilds, e.g. \"0 3 1 * *\" (03:00 UTC on the 1st).")] = None,
    interval: Annotated[Optional[float], typer.Option(min=1, help="Rebuild every N seconds instead (for trying a schedule out).")] = None,
    publish: Annotated[Optional[str], typer.Option(help="Push each new release to this Hub dataset repository (ORG/NAME; needs HF_TOKEN).")] = None,
    config: Annotated[Optional[Path], typer.Option(help="TOML build configuration; defaults are the offline build.")] = None,
    name: Annotated[str, typer.Option(help="Deployment name shown in the Prefect UI.")] = "scheduled",
    port: Annotated[int, typer.Option(help="Port of the Prefect server started when PREFECT_API_URL is not set.")] = 4200,
) -> None:
    """Serve the build as a Prefect deployment on a schedule, until interrupted (Ctrl-C or SIGTERM stops it).

    Uses the Prefect server at PREFECT_API_URL, or starts one on 127.0.0.1:PORT (UI at http://127.0.0.1:PORT)
    with its database under the artifacts folder. Runs go one at a time; each resumes or extends the
    artifact tree like `classeval-pro build`.
    """
    if publish is not None and (publish.count("/") != 1 or not all(publish.split("/"))):
        raise InputError(f"--publish {publish!r} must be ORG/NAME")
    load_config(config)  # a broken configuration ends here, not in the first scheduled run
    server = None
    api_url = os.environ.get("PREFECT_API_URL")
    if api_url:
        if not is_healthy(api_url, timeout_s=10):
            raise InputError(f"PREFECT_API_URL={api_url} does not answer its health check")
    else:
        console.print(f"starting a Prefect server on 127.0.0.1:{port} (about 15 s)...")
        server = start_server(Path(os.environ["PREFECT_HOME"]), port=port)
        api_url = os.environ["PREFECT_API_URL"] = server.api_url  # before Prefect reads its settings
        console.print(f"Prefect UI: {server.api_url.removesuffix('/api')}")
    _check_schedule(cron, interval)
    _announce(api_url, name, cron, interval)
    received: list[signal.Signals] = []

    def stop(signum: int, _frame) -> None:
        # Prefect's runner stops cleanly on SIGTERM but can hang on SIGINT (asyncio's own Ctrl-C handling):
        # a Ctrl-C is turned into the SIGTERM that the runner handles, and remembered for the exit code.
        received.append(signal.Signals(signum))
        os.kill(os.getpid(), signal.SIGTERM)  # to the handler Prefect's runner installed when it started

    # Prefect reads PREFECT_API_URL when it is imported: only now that it is set (and it costs about a second).
    from flows.schedule import say, serve_schedule  # imports Prefect

    # Installed, not assumed (a background start inherits SIGINT ignored); SIGTERM is Prefect's to handle.
    signal.signal(signal.SIGINT, stop)
    try:
        serve_schedule(name=name, cron=cron, interval_s=interval, config_path=config, publish_repo=publish)
    except (SystemExit, KeyboardInterrupt):
        pass  # how the runner ends on some signals; it returns on others
    finally:
        if server is not None:
            server.stop()
    # The runner serves until a signal stops it: SIGINT was turned into SIGTERM above, else it was SIGTERM.
    cause = received[0] if received else signal.SIGTERM
    say(f"stopped by {cause.name}; a run it interrupted resumes with the next one")
    raise typer.Exit(EXIT_CODES[cause])


def _announce(api_url: str, name: str, cron: str | None, interval: float | None) -> None:
    """What serve does, and the command that starts a run by hand, spelled so that it works as printed
    from another shell (which has no PREFECT_API_URL)."""
    prefect = Path(sys.executable).with_name("prefect")
    deployment = f"classeval-pro-scheduled-build/{name}"
    when = f"on the cron schedule {cron!r} (UTC)" if cron else f"every {interval:g} s"
    console.print(f"serving the build as deployment {deployment!r} {when}; one line per run when it starts "
                  f"and when it ends; Ctrl-C stops", highlight=False, soft_wrap=True, markup=False)
    console.print(f"start a run now from another shell: PREFECT_API_URL={shlex.quote(api_url)} "
                  f"{shlex.quote(str(prefect))} deployment run {shlex.quote(deployment)}",
                  highlight=False, soft_wrap=True, markup=False)
