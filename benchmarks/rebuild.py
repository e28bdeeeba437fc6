"""A rebuild with unchanged inputs against the first build, measured in the same run (target: under 5%).

    .venv/bin/python benchmarks/rebuild.py [--domains Game_Sim] [--config build.toml] [--resumed] [--log F]

Both builds run `classeval-pro build` as a user would (a subprocess, stderr piped), into a fresh artifacts
folder on a copy of the bundled seeds of the chosen domains (default: one domain, so the first build takes
minutes rather than the default build's three quarters of an hour; pass `--domains all` for the whole
corpus). The second build has the same inputs, so it names the same finished run: it must say
"already released", change no file of the run or the release, and take a small share of the first
build's time. It prints both times and their ratio, and whether every file was left byte-identical.

With `--resumed` it also times a third build of a copy of the run whose done markers from validate on, judge
records and release records were removed: the cost of resuming a run interrupted after validation (it
prints how many gate reports were written again; the release is made again in an empty releases folder).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from commands.main import main; main()"]


def _snapshot(folder: Path) -> dict[Path, tuple[int, bytes]]:
    return {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.rglob("*") if p.is_file()}


def _build(env: dict[str, str], *args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    result = subprocess.run([*CLI, "build", *args], env=env, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"build failed (exit {result.returncode}):\n{result.stderr[-3000:]}")
    return elapsed, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domains", default="Game_Sim", help="comma-separated domains of the corpus, or 'all'")
    parser.add_argument("--config", type=Path, help="a TOML build configuration (default: the defaults)")
    parser.add_argument("--resumed", action="store_true", help="also time resuming a run stopped in validation")
    parser.add_argument("--log", type=Path, help="write the first build's stderr (its progress lines) here")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="rebuild-bench-"))
    seeds = work / "seeds"
    shutil.copytree(ROOT / "seeds", seeds, ignore=shutil.ignore_patterns("__pycache__"))
    if args.domains != "all":
        keep = set(args.domains.split(","))
        for folder in seeds.iterdir():
            if folder.is_dir() and folder.name not in keep:
                shutil.rmtree(folder)
    artifacts = work / "artifacts"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "HF_"))}
    env |= {"CLASSEVAL_PRO_SEEDS": str(seeds), "CLASSEVAL_PRO_ARTIFACTS": str(artifacts)}
    extra = ["--config", str(args.config)] if args.config else []
    try:
        first, result = _build(env, *extra)
        if args.log:
            args.log.write_text(result.stderr)
        print(f"first build:  {first:8.1f} s  ({result.stdout.strip().splitlines()[-1]})")
        before = _snapshot(artifacts / "runs") | _snapshot(artifacts / "releases")
        second, result = _build(env, *extra)
        untouched = (_snapshot(artifacts / "runs") | _snapshot(artifacts / "releases")) == before
        print(f"rebuild:      {second:8.1f} s  ({result.stdout.strip()})")
        print(f"ratio:        {second / first:8.2%} of the first build (target: under 5%); "
              f"files of the run and release {'byte-identical and untouched' if untouched else 'CHANGED'}")
        if args.resumed:
            [run] = list((artifacts / "runs").iterdir())
            resumed = artifacts / "runs" / "run-resumed"
            shutil.copytree(run, resumed, ignore=shutil.ignore_patterns(
                "release*", "validate.done.json", "repair.done.json", "judge*", "rejections", "funnel.json"))
            shutil.rmtree(artifacts / "releases")
            reports = _snapshot(resumed / "validate")
            third, result = _build(env, *extra, "--run-id", "run-resumed")
            rewritten = sum(1 for p, v in _snapshot(resumed / "validate").items() if reports.get(p) != v)
            print(f"resumed:      {third:8.1f} s  ({third / first:.2%} of the first build; gate reports written "
                  f"again: {rewritten} of {len(reports)}; judge and release ran again)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
