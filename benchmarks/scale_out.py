"""Candidates through the gate per second with 1 and 2 Dask workers, measured in the same run.

    .venv/bin/python benchmarks/scale_out.py [--tasks 12] [--jobs 1] [--mutation]

The bundled seeds (repeated under new ids to reach --tasks) are written as one run's candidates; then the
build's per-candidate gate tasks (flows/mapped.py) run over them on a Dask LocalCluster of 1 worker process,
then of 2, each on a fresh copy of the run (nothing resumed). Each worker has its own sandbox pool of
--jobs workers and runs --jobs candidates at a time. The time is the mapped gate alone (cluster and Prefect
start-up excluded). The machine's other load slows both runs only roughly alike, so read the ratio, not the
absolute rates; on one machine 2 workers can at best use its cores, so the ratio says how well the
per-record tasks spread (what more machines would scale), capped by the cores this machine has free.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RUN_ID = "run-scale-out"


def _write_candidates(store, count: int) -> list[str]:  # noqa: ANN001
    from core import settings
    from core.domains import load_domains
    from pipeline.corpus.inputs import seed_to_candidate
    from pipeline.corpus.seeds import load_corpus

    seeds = load_corpus(settings.seeds_dir(), load_domains(settings.domain_registry_path())).seeds
    ids = []
    for index in range(count):
        candidate = seed_to_candidate(seeds[index % len(seeds)])
        # The same class under a new id per copy: a run holds each candidate once.
        copy = candidate.model_copy(update={"candidate_id": f"{candidate.candidate_id}-{index}"})
        store.write(RUN_ID, "enhance", copy.candidate_id, copy)
        ids.append(copy.candidate_id)
    return ids


def _gate_flow():  # noqa: ANN202 - a Prefect flow, made after the environment is set
    from prefect import flow, unmapped
    from prefect.futures import wait

    from flows.mapped import gate_task
    from flows.pools import end_worker_builds

    @flow(name="scale-out-gate", validate_parameters=False)
    def gate_all(artifacts: Path, ids: list[str], config) -> float:  # noqa: ANN001
        started = time.perf_counter()
        futures = gate_task.map(unmapped(artifacts), unmapped(RUN_ID), ids, unmapped(config))
        wait(futures)
        for future in futures:
            future.result()
        seconds = time.perf_counter() - started
        end_worker_builds()
        return seconds

    return gate_all


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=1, help="sandbox workers (and records at a time) per Dask worker")
    parser.add_argument("--mutation", action="store_true", help="include the mutation run (slower)")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="scale-out-"))
    os.environ["CLASSEVAL_PRO_ARTIFACTS"] = str(scratch / "template")
    from core import settings

    settings.configure_offline_environment(scratch / "prefect")
    from core.store import ArtifactStore
    from flows.runners import RunnerKind, share_api_with_workers, task_runner
    from pipeline.stages.config import BuildConfig

    config = BuildConfig.model_validate({"jobs": args.jobs, "gate": {"run_mutation": args.mutation}})
    ids = _write_candidates(ArtifactStore(scratch / "template"), args.tasks)
    share_api_with_workers(RunnerKind.DASK, None)
    gate_all = _gate_flow()
    rates = {}
    try:
        for workers in (1, 2):
            artifacts = scratch / f"workers-{workers}"
            shutil.copytree(scratch / "template", artifacts)
            runner = task_runner(RunnerKind.DASK, jobs=args.jobs, dask_workers=workers)
            seconds = gate_all.with_options(task_runner=runner)(artifacts, ids, config)
            gated = len(list((artifacts / "runs" / RUN_ID / "validate").glob("*.json")))
            assert gated == len(ids), (gated, len(ids))
            rates[workers] = gated / seconds
            print(f"{workers} Dask worker(s): {gated} candidates in {seconds:.1f} s = {rates[workers]:.3f} candidates/s",
                  flush=True)
        print(f"2 workers / 1 worker: {rates[2] / rates[1]:.2f}x ({os.cpu_count()} cores here, load average "
              f"{os.getloadavg()[0]:.1f})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
