"""A rebuild with unchanged inputs against the first build, measured in the same run (target: under 5%).

    .venv/bin/python benchmarks/rebuild.py [--domains Game_Sim] [--config build.toml] [--resumed] [--log F]
    .venv/bin/python benchmarks/rebuild.py --new-class [--domains all]

With `--new-class` it measures what a monthly rebuild costs instead: the first build also mines a local
repository holding one fresh class; then one new commit adds a second fresh class and the same command
builds again (a new run: the repository's head is part of its id), and last a commit that adds no class
(a new run with nothing new). The rebuilds reuse the first build's results (core/results.py) and drop
what its release holds before the gate. It prints each build's time (wall, and CPU: on a shared machine the
wall time measures the others' load too), its ratio to the first (targets: at
most 10% and 5%), the results reused per stage, whether the second release holds exactly the new class's
tasks, the third build's reason for making none, and the first build's time spent keeping results.

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
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from commands.main import main; main()"]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "pipeline" / "mining"))  # the tests' fixture repositories and classes

from git_fixtures import commit, make_repo  # noqa: E402
from mining_fixtures import ledger_module  # noqa: E402
from test_rebuild_release import SHELF  # noqa: E402

from pipeline.release.dataset_io import read_split, split_file  # noqa: E402
from core.results import reuse_sentence  # noqa: E402


def _snapshot(folder: Path) -> dict[Path, tuple[int, bytes]]:
    return {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.rglob("*") if p.is_file()}


CPU: list[float] = []  # each build's CPU seconds (its processes and theirs), in order


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _build(env: dict[str, str], *args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Wall seconds and the result of one build; its CPU seconds go to `CPU` (on a shared machine the wall
    time also measures the others' load; CPU time much less so)."""
    start, cpu = time.perf_counter(), _cpu()
    result = subprocess.run([*CLI, "build", *args], env=env, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    CPU.append(_cpu() - cpu)
    if result.returncode != 0:
        sys.exit(f"build failed (exit {result.returncode}):\n{result.stderr[-3000:]}")
    return elapsed, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--domains", default="Game_Sim", help="comma-separated domains of the corpus, or 'all'")
    parser.add_argument("--config", type=Path, help="a TOML build configuration (default: the defaults)")
    parser.add_argument("--resumed", action="store_true", help="also time resuming a run stopped in validation")
    parser.add_argument("--log", type=Path, help="write the first build's stderr (its progress lines) here")
    parser.add_argument("--new-class", action="store_true",
                        help="time rebuilds after a mined repository gained one class, then nothing (default domains: all)")
    args = parser.parse_args()
    if args.new_class and args.domains == "Game_Sim" and "--domains" not in sys.argv:
        args.domains = "all"

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
        if args.new_class:
            _new_class(work, env, artifacts, args)
            return
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


def _reused(run_dir: Path) -> str:
    return reuse_sentence(run_dir) or "none"


def _stage_times(stdout: str) -> str:
    """The stages' wall times a `build --profile` printed, the slowest first."""
    times = [(float(line.split()[-1]), line.split(" (stage wall time)")[0].strip()) for line in stdout.splitlines()
             if "(stage wall time)" in line]
    return ", ".join(f"{name} {seconds:.1f} s" for seconds, name in sorted(times, reverse=True))


def _run_dir(stdout: str) -> Path:
    line = next(line for line in stdout.splitlines() if line.startswith("run "))
    return Path(line.split(": ", 1)[1].strip())


def _new_class(work: Path, env: dict[str, str], artifacts: Path, args: argparse.Namespace) -> None:
    """The first build with a mined repository, a rebuild after it gained a class, one after nothing new."""
    repos = work / "repos"
    repo = make_repo(repos / "books")
    commit(repo, "2025-03-02", {"books/ledger.py": ledger_module("FreshLedger"), "README.md": "a ledger cache"})
    config = work / "build.toml"
    base = args.config.read_text() if args.config else ""
    config.write_text(f"{base}\n[mine]\nlocal = {str(repos)!r}\n")
    first, result = _build(env, "--config", str(config), "--profile")
    if args.log:
        args.log.write_text(result.stderr)
    keeping = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith(("reuse", "keep", "keys"))]
    print(f"first build:   {first:8.1f} s  ({result.stdout.strip().splitlines()[-1]})")
    print(f"  its time keeping results (summed over threads): {'; '.join(keeping) or 'not shown'}")
    print(f"  reused: {_reused(_run_dir(result.stdout))}")
    print(f"  stages: {_stage_times(result.stdout)}")
    releases = set((artifacts / "releases").iterdir())

    commit(repo, "2025-04-06", {"books/shelf.py": SHELF})
    second, result = _build(env, "--config", str(config), "--profile")
    print(f"new class:     {second:8.1f} s  {second / first:7.2%} of the first (target: at most 10%); CPU time "
          f"{CPU[-1]:.1f} s, {CPU[-1] / CPU[0]:.2%} of the first's {CPU[0]:.1f} s")
    print(f"  reused: {_reused(_run_dir(result.stdout))}")
    print(f"  stages: {_stage_times(result.stdout)}")
    new = sorted(set((artifacts / "releases").iterdir()) - releases)
    if len(new) != 1:
        print(f"  released: {len(new)} new releases ({result.stdout.strip().splitlines()[-1]})")
    else:
        tasks = read_split(new[0] / split_file(new[0].name))
        others = [t.class_name for t in tasks if "shelf" not in t.provenance.model_dump_json().lower()]
        print(f"  released {new[0].name}: {len(tasks)} tasks, "
              f"{'every one from the new class' if not others else f'{len(others)} not from the new class: {others}'}"
              f" ({', '.join(sorted(t.class_name for t in tasks))})")
    releases = set((artifacts / "releases").iterdir())

    commit(repo, "2025-05-01", {"README.md": "a ledger cache, and a shelf"})
    third, result = _build(env, "--config", str(config), "--profile")
    made = sorted(set((artifacts / "releases").iterdir()) - releases)
    print(f"nothing new:   {third:8.1f} s  {third / first:7.2%} of the first (target: at most 5%); CPU time "
          f"{CPU[-1]:.1f} s, {CPU[-1] / CPU[0]:.2%} of the first's")
    print(f"  reused: {_reused(_run_dir(result.stdout))}")
    print(f"  stages: {_stage_times(result.stdout)}")
    print(f"  {'released ' + made[0].name if made else 'no release'}: "
          f"{next((line for line in result.stdout.splitlines() if line.startswith(('no new release', 'release 2'))), '')}")


if __name__ == "__main__":
    main()
