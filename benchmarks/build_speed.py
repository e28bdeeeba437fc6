"""Wall time of the build's stages on a fixed sub-corpus, with one gate setting against its baseline.

    .venv/bin/python benchmarks/build_speed.py [--domains Game_Sim Text_NLP] [--gate-only N]
    .venv/bin/python benchmarks/build_speed.py --compare faithful   # faithful variants on against off

`--compare schemata` (the default) times the mutant-schema runner against the old one; `--compare faithful`
times the gate with its faithful variants (validation/faithful/) against the gate without them, and says
how many tasks each released (the variants reject over-specified candidates, so the releases differ).

The stages run as the build runs them (the stage objects of `pipeline/stages/`, without Prefect) in a
temporary artifacts folder: seeds, enhance and compose once (they do not depend on the mutation runner),
then the gate (with its repair round), the judges and the release twice on the same candidates, once with
`GatePolicy(mutant_schemata=False)` (each mutant executed from its own source, pytest's full failure report:
the runner before schemata) and once with the default (one schema module per task). It prints the wall
time of every stage, candidates per second through the gate, the per-step totals of `build --profile`,
and the ratios. `--gate-only N` skips synthesis and gates the first N seeds of the domains instead (a
minute rather than a quarter of an hour). The machine's load average is printed before and after: on a
shared machine the two runs see different load; rerun to see the spread.
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

from core.layout import Stage  # noqa: E402
from core.settings import Settings  # noqa: E402
from core.store import ArtifactStore  # noqa: E402
from core.timing import format_profile, reset_times, step_times  # noqa: E402
from pipeline.stages.config import BuildConfig  # noqa: E402
from pipeline.stages.driver import Driver, RunContext, run_stage  # noqa: E402
from pipeline.stages.gate import GateStage
from pipeline.stages.judge import JudgeStage
from pipeline.stages.release import ReleaseStage
from pipeline.stages.repair import RepairStage
from pipeline.stages.runs import finished_outcome
from pipeline.stages.seeds import SeedsStage, default_run_id, load_seed_records
from pipeline.stages.synthesis import SynthesisStage

DOMAINS = ("Game_Sim", "Text_NLP")
# --compare NAME -> (GatePolicy field, label of the baseline (field False), label of the default (field True))
COMPARISONS = {"schemata": ("mutant_schemata", "old runner", "schemata"),
               "faithful": ("faithful_variants", "no variants", "faithful")}


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _timed(label: str, walls: dict[str, float], work):  # noqa: ANN001, ANN202
    started = time.perf_counter()
    result = work()
    walls[label] = time.perf_counter() - started
    print(f"  {label:<10} {walls[label]:8.1f} s", flush=True)
    return result


def _gate_and_release(artifacts: Path, run_id: str, config: BuildConfig) -> tuple[dict[str, float], int, str]:
    store = ArtifactStore(artifacts)
    walls: dict[str, float] = {}
    reset_times()
    driver = Driver(RunContext(store, run_id, config, Settings.from_environment().with_artifacts(artifacts)))  # threads of this process
    gate = _timed("validate", walls, lambda: driver.run(GateStage()))[Stage.VALIDATE]
    _timed("repair", walls, lambda: driver.run(RepairStage()))
    if config.judges.enabled:  # as the build does: the release takes the judges' survivors only
        _timed("judge", walls, lambda: driver.run(JudgeStage()))
    _timed("release", walls, lambda: driver.run(ReleaseStage(driver.funnel)))
    outcome = finished_outcome(store, run_id)
    print(f"  {outcome.message}")
    return walls, gate.received, format_profile(step_times())


def _gate_only(seeds: int, domains: tuple[str, ...], jobs: int) -> None:
    from pipeline.corpus.inputs import seed_to_candidate
    from pipeline.stages.driver import ThreadExecutor, command_context
    from pipeline.stages.inputs import GateOnInputs
    from validation.policy import GatePolicy
    from validation.sandbox import SandboxPool

    config = BuildConfig(domains=domains)
    settings = Settings.from_environment()
    candidates = [seed_to_candidate(s) for s in load_seed_records(config, settings)[1]][:seeds]
    seconds: dict[bool, float] = {}
    outcomes: dict[bool, list[tuple]] = {}
    with SandboxPool(jobs=jobs) as pool:
        for schemata in (False, True):
            reset_times()
            started = time.perf_counter()
            reports = run_stage(GateOnInputs(candidates, GatePolicy(mutant_schemata=schemata)),
                                command_context(settings, config), ThreadExecutor(jobs=jobs, pool=pool))
            seconds[schemata] = time.perf_counter() - started
            outcomes[schemata] = [(r.passed, r.mutation_score) for r in reports]
            print(f"{'schemata' if schemata else 'old runner'}: {len(candidates)} seeds through the gate in "
                  f"{seconds[schemata]:.1f} s (load {_load()})")
            print(format_profile(step_times()))
    print(f"gate ratio old/new: {seconds[False] / seconds[True]:.2f}x; same pass and mutation score per seed: "
          f"{outcomes[False] == outcomes[True]}")


def _same_tasks(first: Path, second: Path) -> bool:
    """Whether two artifact folders released the same tasks, row for row (the manifests differ: they record
    the configuration, which names the mutation runner)."""
    import pandas as pd

    def rows(artifacts: Path) -> list[dict]:
        files = sorted((artifacts / "releases").glob("*/data/*.parquet"))
        return [row for f in files for row in pd.read_parquet(f).to_dict("records")]

    return repr(rows(first)) == repr(rows(second))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--gate-only", type=int, default=0, metavar="N", help="gate N seeds only, both runners")
    parser.add_argument("--compare", choices=sorted(COMPARISONS), default="schemata",
                        help="the gate setting timed against its baseline")
    args = parser.parse_args()
    domains = tuple(args.domains)
    print(f"domains {', '.join(domains)}; {args.jobs} jobs; {os.cpu_count()} CPUs; load {_load()}")
    if args.gate_only:
        _gate_only(args.gate_only, domains, args.jobs)
        return
    with tempfile.TemporaryDirectory(prefix="build-speed-") as folder:
        base = Path(folder) / "synthesis"
        os.environ["CLASSEVAL_PRO_ARTIFACTS"] = str(base)
        config = BuildConfig(domains=domains, jobs=args.jobs)
        store = ArtifactStore(base)
        resolved = Settings.from_environment()
        run_id = default_run_id(config, load_seed_records(config, resolved)[1], resolved)
        walls: dict[str, float] = {}
        print("synthesis (shared by both runs):")
        ctx = RunContext(store, run_id, config, Settings.from_environment().with_artifacts(store.root))
        _timed("seeds", walls, lambda: run_stage(SeedsStage(), ctx))
        _timed("enhance", walls, lambda: run_stage(SynthesisStage(Stage.ENHANCE), ctx))
        _timed("compose", walls, lambda: run_stage(SynthesisStage(Stage.COMPOSE), ctx))
        print(format_profile(step_times()))
        field, old_label, new_label = COMPARISONS[args.compare]
        results = {}
        for setting in (False, True):
            label = new_label if setting else old_label
            copy = Path(folder) / label.replace(" ", "-")
            shutil.copytree(base, copy)
            os.environ["CLASSEVAL_PRO_ARTIFACTS"] = str(copy)
            gated = config.model_copy(update={"gate": config.gate.model_copy(update={field: setting})})
            print(f"{label} (load {_load()}):")
            results[setting] = _gate_and_release(copy, run_id, gated)
            print(results[setting][2])
        (old, count, _), (new, _, _) = results[False], results[True]
        for name, mine in ((old_label, old), (new_label, new)):
            total = sum(walls.values()) + sum(mine.values())
            print(f"{name:<11}: build {total:7.1f} s, gate {count / mine['validate']:.2f} candidates/s, "
                  f"{_released(Path(folder) / name.replace(' ', '-'))} tasks released")
        if args.compare == "schemata":
            same = _same_tasks(Path(folder) / "old-runner", Path(folder) / "schemata")
            print(f"same released tasks (every row of the release's data files) with both runners: {same}")
        print(f"ratio {old_label}/{new_label}: gate {old['validate'] / new['validate']:.2f}x, whole build "
              f"{(sum(walls.values()) + sum(old.values())) / (sum(walls.values()) + sum(new.values())):.2f}x "
              f"(load now {_load()})")


def _released(artifacts: Path) -> int:
    import pandas as pd

    return sum(len(pd.read_parquet(f)) for f in sorted((artifacts / "releases").glob("*/data/*.parquet")))


if __name__ == "__main__":
    main()
