"""A real Prefect server for scheduled builds, started on loopback when none is configured.

Why not Prefect's temporary server: it cannot schedule ("Cannot schedule flows on an ephemeral server") and
it dies with the process that started it. `classeval-pro serve` needs a server whose scheduler creates the
runs, so it uses `PREFECT_API_URL` when set and otherwise starts `prefect server start` itself.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.errors import InputError

HEALTH_TIMEOUT_S = 180.0  # a fresh server takes about 13 s on an idle machine, far more on a busy one


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def is_healthy(api_url: str, timeout_s: float = 2.0, client: Any = None) -> bool:
    """Whether the API answers its health check. Pass a long-lived `httpx.Client` when asking repeatedly:
    each client loads the system's CA certificates for its TLS context, which a watch asking every few
    seconds paid for each time (a tenth of the build process's CPU during the gate)."""
    import httpx

    try:
        url = f"{api_url.rstrip('/')}/health"
        answer = client.get(url, timeout=timeout_s) if client is not None else httpx.get(url, timeout=timeout_s)
        return answer.status_code == 200
    except httpx.HTTPError:
        return False


@dataclass
class PrefectServer:
    """A `prefect server start` process of ours; `stop()` ends it and its children."""

    process: subprocess.Popen[bytes]
    api_url: str
    log: Path

    def wait_healthy(self, timeout_s: float = HEALTH_TIMEOUT_S) -> None:
        """Return once the API answers; stop the server and raise `InputError` if it exits or stays silent."""
        deadline = time.monotonic() + timeout_s
        try:
            while not is_healthy(self.api_url):
                if self.process.poll() is not None:
                    raise InputError(f"the Prefect server exited with {self.process.returncode} before answering; "
                                     f"see {self.log}")
                if time.monotonic() > deadline:
                    raise InputError(f"the Prefect server at {self.api_url} did not answer within {timeout_s:.0f} s; "
                                     f"see {self.log}")
                time.sleep(0.5)
        except BaseException:  # a Ctrl-C while it starts too: it is in its own session, nothing else would stop it
            self.stop()
            raise

    def stop(self, timeout_s: float = 30.0) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=timeout_s)


PR_SET_PDEATHSIG = 1  # linux/prctl.h
_LIBC = ctypes.CDLL(None, use_errno=True)  # loaded here: the child between fork and exec must not import


def _end_with_parent() -> None:
    """In the server's process before exec: SIGTERM it when the thread that started it ends (its process
    killed with SIGKILL cannot stop the server itself, and a server in its own session would live on)."""
    _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def launch_build_server(home: Path) -> PrefectServer | None:
    """Start the server a build reports to, without waiting for it to answer, and put its address in
    `PREFECT_API_URL` (before Prefect is imported); None when `PREFECT_API_URL` names one already.

    Why apart from `build_server`: a server takes seconds to answer (about 8 s on a busy machine with its
    database made), which a rebuild that reuses everything spends mostly waiting; started first, it comes
    up while the command checks its inputs and imports Prefect. Stopped at exit (see `build_server`) or by
    the caller when no build follows.
    """
    if os.environ.get("PREFECT_API_URL"):
        return None
    # With its services: task runs reported from Dask workers reach the database through the server's
    # task run recorder (without it, an API-only server kept no task run of theirs).
    server = launch_server(home, extra_env={"PREFECT_UI_ENABLED": "false"})
    # Stopped at exit, not when the build ends: Prefect's own exit handlers (registered later, so run
    # earlier) still send the run's last logs and events to it, which a server stopped first turned into
    # "Error logging to API" and error dumps.
    atexit.register(server.stop)
    os.environ["PREFECT_API_URL"] = server.api_url
    return server


@contextmanager
def build_server(home: Path, launched: PrefectServer | None = None) -> Iterator[str]:
    """The Prefect API a build reports to: `PREFECT_API_URL` when it is set (and no server was `launched`),
    else a server of the build's own (`launched`, or started here) until the process exits, once it answers.

    Why not the temporary server Prefect starts by itself: it is a plain child process in the build's
    process group, so a Ctrl-C in a terminal (SIGINT to the whole group) killed it at the moment the build
    began to stop, and the build's last state reports then retried a dead server until the server watch
    gave up (exit 1, dozens of error dumps). This one runs in its own session and is stopped at exit,
    after the build has finished stopping.
    """
    server = launched or launch_build_server(home)
    if server is None:
        yield os.environ["PREFECT_API_URL"]
        return
    try:
        server.wait_healthy()
        yield server.api_url
    finally:
        os.environ.pop("PREFECT_API_URL", None)


def _prefect_command() -> str:
    beside = Path(sys.executable).with_name("prefect")
    found = str(beside) if beside.is_file() else shutil.which("prefect")
    if not found:
        raise InputError("the `prefect` command is not installed beside this Python; reinstall classeval-pro")
    return found


def start_server(home: Path, *, host: str = "127.0.0.1", port: int | None = None,
                 extra_env: dict[str, str] | None = None, timeout_s: float = HEALTH_TIMEOUT_S,
                 services: bool = True) -> PrefectServer:
    """Start `prefect server start` on `host` with its database under `home`; wait until it answers
    (`launch_server`, then `PrefectServer.wait_healthy`). `services`: False runs only the API (a build
    needs no scheduler)."""
    server = launch_server(home, host=host, port=port, extra_env=extra_env, services=services)
    server.wait_healthy(timeout_s)
    return server


def launch_server(home: Path, *, host: str = "127.0.0.1", port: int | None = None,
                  extra_env: dict[str, str] | None = None, services: bool = True) -> PrefectServer:
    """Start `prefect server start` on `host` with its database under `home`, without waiting for it.

    Its own session and process group: stopping it also stops the web server processes it starts, and a
    terminal's Ctrl-C (sent to the foreground process group) does not reach it, so the process that
    started it can still report to it while it stops, and then stops it itself.
    """
    home.mkdir(parents=True, exist_ok=True)
    port = port or free_port(host)
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    api_url = f"http://{host}:{port}/api"
    # The UI asks `/ui-settings` where the API is; unset, Prefect derives it from PREFECT_SERVER_API_PORT
    # (4200 by default), not from `--port`, and the UI of a server on another port could not connect.
    env.update({"PREFECT_HOME": str(home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "DO_NOT_TRACK": "1",
                "PREFECT_UI_ENABLED": env.get("PREFECT_UI_ENABLED", "true"), "PREFECT_SERVER_UI_API_URL": api_url,
                **(extra_env or {})})
    env.pop("PREFECT_UI_API_URL", None)  # the older name of the same setting would compete with ours
    log = home / "server.log"
    with log.open("ab") as out:
        process = subprocess.Popen([_prefect_command(), "server", "start", "--host", host, "--port", str(port),
                                    *([] if services else ["--no-services"])],
                                   env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                   preexec_fn=_end_with_parent)
    return PrefectServer(process, api_url, log)
