"""Shared by the flow tests (fixtures in conftest.py): a two-seed corpus with a small configuration (one enhanced candidate per seed,
one composed pair, no mutation run), so that the whole chain runs in about a minute, and one uninterrupted
reference build per session that other builds are compared with."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from core import settings

CLI = [sys.executable, "-c", "from commands.main import main; main()"]
SEEDS = ("Math_Stats/histogram", "Game_Sim/sandpile_grid")  # a pair with a link: each drop's topplings binned
CONFIG = """
[enhance]
candidates_per_seed = 1
max_features = 1
[compose]
max_pairs = 1
[gate]
run_mutation = false
"""


def make_workspace(root: Path) -> tuple[dict[str, str], Path]:
    """A corpus of SEEDS under `root`, the small configuration, and the environment that points a build at
    them (artifacts under `root/artifacts`)."""
    seeds = root / "seeds"
    seeds.mkdir(parents=True)
    shutil.copy(settings.PROJECT_ROOT / "seeds" / "domains.toml", seeds / "domains.toml")
    for seed in SEEDS:
        shutil.copytree(settings.PROJECT_ROOT / "seeds" / seed, seeds / seed, ignore=shutil.ignore_patterns("__pycache__"))
    config = root / "build.toml"
    config.write_text(CONFIG)
    env = {**inherited_environment(), "CLASSEVAL_PRO_SEEDS": str(seeds), "CLASSEVAL_PRO_ARTIFACTS": str(root / "artifacts")}
    return env, config


def inherited_environment() -> dict[str, str]:
    """This process's environment for a child, less the Prefect and Hugging Face settings that an in-process
    CLI test left in os.environ (they would point the child at another artifact tree: the child derives
    its own from CLASSEVAL_PRO_ARTIFACTS or its arguments)."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "HF_"))}


def run_build(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "build", *args], env=env, capture_output=True, text=True, timeout=900)


def released_tasks(artifacts: Path) -> dict[str, list[dict]]:
    """Release version -> its ClassEval export, for comparing what two builds released."""
    releases = artifacts / "releases"
    return {p.name: json.loads((p / "classeval.json").read_text())
            for p in sorted(releases.iterdir()) if p.is_dir() and not p.name.startswith(".")} if releases.is_dir() else {}


POLL_S = 0.2
WAIT_S = 600


def start_build(env: dict[str, str], config: Path, log: Path | None = None, *extra: str,
                sigint_ignored: bool = False) -> subprocess.Popen[str]:
    """The build, its stderr (progress lines: "<step>: started", ...) in `log` when given, else a pipe.

    In a process group of its own, as a shell's foreground job is, so that a test can send a signal to the
    whole group the way a terminal's Ctrl-C does (`os.killpg`) without signalling itself. `sigint_ignored`:
    started as a shell without job control starts a background job, SIGINT set to ignored."""
    stderr = log.open("w") if log else subprocess.PIPE
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored else None
    return subprocess.Popen([*CLI, "build", "--config", str(config), *extra], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=stderr, start_new_session=True, preexec_fn=ignore)


def started(log: Path, step: str) -> Callable[[], bool]:
    return lambda: log.is_file() and f" {step}: started" in log.read_text()


def wait_for(process: subprocess.Popen[str], ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not ready():
        if process.poll() is not None:
            raise AssertionError(f"the build ended before {what}")
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(POLL_S)
