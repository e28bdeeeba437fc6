"""A real Prefect server for scheduled builds, started on loopback when none is configured.

Why not Prefect's temporary server: it cannot schedule ("Cannot schedule flows on an ephemeral server") and
it dies with the process that started it. `classeval-pro serve` needs a server whose scheduler creates the
runs, so it uses `PREFECT_API_URL` when set and otherwise starts `prefect server start` itself.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
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

    def stop(self, timeout_s: float = 30.0) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=timeout_s)


def _prefect_command() -> str:
    beside = Path(sys.executable).with_name("prefect")
    found = str(beside) if beside.is_file() else shutil.which("prefect")
    if not found:
        raise InputError("the `prefect` command is not installed beside this Python; reinstall classeval-pro")
    return found


def start_server(home: Path, *, host: str = "127.0.0.1", port: int | None = None,
                 extra_env: dict[str, str] | None = None, timeout_s: float = HEALTH_TIMEOUT_S) -> PrefectServer:
    """Start `prefect server start` on `host` with its database under `home`; wait until it answers.

    Its own process group, so that stopping it also stops the web server processes it starts.
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
        process = subprocess.Popen([_prefect_command(), "server", "start", "--host", host, "--port", str(port)],
                                   env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = PrefectServer(process, api_url, log)
    deadline = time.monotonic() + timeout_s
    while not is_healthy(server.api_url):
        if process.poll() is not None:
            raise InputError(f"the Prefect server exited with {process.returncode} before answering; see {log}")
        if time.monotonic() > deadline:
            server.stop()
            raise InputError(f"the Prefect server at {server.api_url} did not answer within {timeout_s:.0f} s; see {log}")
        time.sleep(0.5)
    return server
