"""Throughput of the validation gate against the straightforward way, measured in the same run.

    .venv/bin/python benchmarks/gate_throughput.py [--tasks 60] [--jobs 2] [--full 10]

The same N tasks (the bundled seeds, repeated to reach N) go through:

(a) a fresh `python -m coverage run --branch -m pytest` process per task, then `python -m coverage json`
    for the line coverage (the way ClassEval-style harnesses do it), `--jobs` tasks at a time; (a') the same
    with pytest's plugin auto-loading off (this environment's third-party plugins cost a lot per start);
(b) the gate's sandbox doing the same checks (pass + line/branch coverage) in warm workers, `--jobs` at a
    time, pool start-up included.

The ways run interleaved in chunks so that other load on the machine slows them alike. It prints tasks
per second of each and the ratios; then the cost of the robustness runs (another hash seed
with a shuffled order, and clock/user/hostname moved) against running the suite three times from scratch;
then the full gate (robustness, interaction, vacuous run, mutation) per task on `--full` distinct tasks.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core import settings  # noqa: E402
from core.domains import load_domains  # noqa: E402
from core.records import Candidate  # noqa: E402
from pipeline.corpus.inputs import seed_to_candidate  # noqa: E402
from pipeline.corpus.seeds import load_corpus  # noqa: E402
from pipeline.stages.driver import ThreadExecutor, command_context, run_stage  # noqa: E402
from pipeline.stages.inputs import GateOnInputs  # noqa: E402
from validation.gate import test_file_name  # noqa: E402
from validation.policy import GatePolicy  # noqa: E402
from validation.sandbox import SandboxJob, SandboxPool  # noqa: E402


def load_tasks(n: int) -> tuple[list[Candidate], int]:
    corpus = load_corpus(settings.seeds_dir(), load_domains(settings.domain_registry_path()))
    unique = [seed_to_candidate(s) for s in corpus.seeds]
    if not unique:
        raise SystemExit("no valid seeds to benchmark with")
    return [unique[i % len(unique)] for i in range(max(n, 1))], len(unique)


def fresh_process(candidate: Candidate, autoload: bool = True) -> tuple[bool, float | None]:
    """(a): the straightforward way, in a temporary folder with a fresh interpreter per step."""
    with tempfile.TemporaryDirectory(prefix="bench-fresh-") as folder:
        module = f"{candidate.module_name}.py"
        Path(folder, module).write_text(candidate.solution_code, encoding="utf-8")
        Path(folder, test_file_name(candidate.module_name)).write_text(candidate.test_code, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith("COV")}
        if not autoload:
            env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        run = subprocess.run([sys.executable, "-m", "coverage", "run", "--branch", f"--include={module}", "-m",
                              "pytest", "-q", "-p", "no:cacheprovider", test_file_name(candidate.module_name)],
                             cwd=folder, env=env, capture_output=True, timeout=300)
        report = subprocess.run([sys.executable, "-m", "coverage", "json", "-q", "-o", "cov.json"], cwd=folder,
                                env=env, capture_output=True, timeout=300)
        line = None
        if report.returncode == 0:
            totals = json.loads(Path(folder, "cov.json").read_text())["totals"]
            line = totals["covered_lines"] / max(1, totals["num_statements"])
        return run.returncode == 0, line


def sandbox_run(pool: SandboxPool, candidate: Candidate, **extra: object) -> tuple[bool, float | None, float]:
    """(b): one warm-worker run with coverage of the solution."""
    module = f"{candidate.module_name}.py"
    files = {module: candidate.solution_code, test_file_name(candidate.module_name): candidate.test_code}
    started = time.perf_counter()
    result = pool.run(SandboxJob(files=files, test_file=test_file_name(candidate.module_name), **extra))  # type: ignore[arg-type]
    elapsed = time.perf_counter() - started
    summary = (result.coverage or {}).get("summary") or {}
    line = summary["covered_lines"] / max(1, summary["num_statements"]) if summary else None
    ok = result.status == "completed" and bool(result.tests) and all(t.outcome == "passed" for t in result.tests)
    return ok, line, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=60, help="N tasks (seeds repeated to reach it; >= 50)")
    parser.add_argument("--jobs", type=int, default=2, help="tasks at a time in both ways")
    parser.add_argument("--chunk", type=int, default=10, help="tasks per turn when interleaving the ways")
    parser.add_argument("--full", type=int, default=10, help="distinct tasks for the full-gate figure (0: skip)")
    args = parser.parse_args()
    tasks, distinct = load_tasks(args.tasks)
    print(f"{len(tasks)} tasks ({distinct} distinct seeds), {args.jobs} at a time, {os.cpu_count()} CPUs")

    # The two ways run interleaved, a chunk of tasks each in turn, so that a machine shared with other work
    # slows both alike; (a') is (a) without pytest's third-party plugin auto-loading, a stronger baseline.
    fresh: list[tuple[bool, float | None]] = []
    warm: list[tuple[bool, float | None, float]] = []
    fresh_seconds = bare_seconds = warm_seconds = 0.0
    started = time.perf_counter()
    pool = SandboxPool(jobs=args.jobs)
    with ThreadPoolExecutor(args.jobs) as executor:
        warm_seconds += time.perf_counter() - started  # pool start-up is part of (b)'s cost
        for first in range(0, len(tasks), args.chunk):
            chunk = tasks[first:first + args.chunk]
            t0 = time.perf_counter()
            fresh += list(executor.map(fresh_process, chunk))
            t1 = time.perf_counter()
            list(executor.map(lambda c: fresh_process(c, autoload=False), chunk))
            t2 = time.perf_counter()
            warm += list(executor.map(lambda c: sandbox_run(pool, c, coverage_file=f"{c.module_name}.py"), chunk))
            t3 = time.perf_counter()
            fresh_seconds, bare_seconds, warm_seconds = (fresh_seconds + t1 - t0, bare_seconds + t2 - t1,
                                                         warm_seconds + t3 - t2)
    with pool:
        fresh_rate, bare_rate, warm_rate = (len(tasks) / fresh_seconds, len(tasks) / bare_seconds,
                                            len(tasks) / warm_seconds)
        print(f"(a)  fresh `coverage run -m pytest` + `coverage json` per task: {fresh_seconds:7.1f} s, "
              f"{fresh_rate:6.2f} tasks/s, {sum(ok for ok, _ in fresh)} passed")
        print(f"(a') the same with PYTEST_DISABLE_PLUGIN_AUTOLOAD=1:             {bare_seconds:7.1f} s, "
              f"{bare_rate:6.2f} tasks/s")
        print(f"(b)  gate sandbox, pass + line/branch coverage, warm workers:    {warm_seconds:7.1f} s, "
              f"{warm_rate:6.2f} tasks/s, {sum(ok for ok, _, _ in warm)} passed  (pool start-up included)")
        print(f"ratio (b)/(a): {warm_rate / fresh_rate:.2f}x   ratio (b)/(a'): {warm_rate / bare_rate:.2f}x")
        agree = sum(1 for (ok_a, line_a), (ok_b, line_b, _) in zip(fresh, warm)
                    if ok_a == ok_b and line_a is not None and line_b is not None and abs(line_a - line_b) < 1e-9)
        print(f"same pass/fail and line coverage in both ways: {agree}/{len(tasks)}")

        # Robustness: what the gate adds for a stable suite (one plain run in a warm worker with the hash
        # seed, the order, the clock, the user and the hostname changed) vs three fresh runs.
        sample = tasks[: min(len(tasks), distinct, 20)]
        robust = [sandbox_run(pool, candidate, profile="varied", shuffle_seed=1)[2] for candidate in sample]
        per_fresh = bare_seconds * args.jobs / len(tasks)  # seconds of one fresh run (a'), per task
        mean_robust = sum(robust) / len(robust)
        print(f"robustness run per task (hash seed + shuffled order + clock/user/hostname): {mean_robust:.2f} s "
              f"vs three fresh runs (a') from scratch {3 * per_fresh:.2f} s ({3 * per_fresh / mean_robust:.1f}x cheaper)")

    if args.full:
        full_tasks = tasks[: min(args.full, distinct)]
        seconds: dict[bool, float] = {}
        for deleting in (False, True, False, True):  # interleaved: other load slows both alike
            policy = GatePolicy(method_deletion=deleting)
            started = time.perf_counter()
            with SandboxPool(jobs=args.jobs) as gate_pool:  # the gate stage's items, through the driver
                reports = run_stage(GateOnInputs(full_tasks, policy), command_context(settings.Settings.from_environment()),
                                    ThreadExecutor(jobs=args.jobs, pool=gate_pool))
            full_seconds = time.perf_counter() - started
            seconds[deleting] = seconds.get(deleting, 0.0) + full_seconds
            mutants = sum((r.evidence.get("mutation") or {}).get("mutants", 0) for r in reports)
            print(f"full gate (base + coverage + interaction, 2 robustness runs, vacuous run, up to "
                  f"{GatePolicy().max_mutants} mutants{', method deletions' if deleting else ''}): {len(full_tasks)} "
                  f"tasks in {full_seconds:.1f} s = {full_seconds / len(full_tasks):.2f} s/task wall at {args.jobs} jobs "
                  f"({mutants} mutants run, {sum(r.passed for r in reports)} passed)")
        print(f"method deletions cost {seconds[True] / seconds[False]:.2f}x the full gate without them")

if __name__ == "__main__":
    main()
