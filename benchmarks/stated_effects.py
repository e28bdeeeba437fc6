"""Which oracle runs of a ClassEval-format file, or of the bundled seeds, observe an effect no docstring
states (`pipeline/synthesis/stated_effects.py`).

    .venv/bin/python benchmarks/stated_effects.py CLASSEVAL.json [--limit N] [--jobs 1]
    .venv/bin/python benchmarks/stated_effects.py --seeds seeds [--limit N]

Each task is imported as the seed import does it (the skeleton's docstrings merged into the solution; a seed
of the corpus is read as it is), its
argument pools harvested from its own tests, and its tests synthesised as for a seed without features
(`testgen.synthesize_tests`: replays of its tests and random walks, run on the reference in the sandbox).
Printed per task with a defect: the methods documented as queries or additions, and each reference defect
of the kinds "changes what later calls return" and "keeps nothing of what it adds" (method, the later call
that saw it, runs dropped); then the totals.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import libcst as cst  # noqa: E402

from core.analysis.class_model import analyse  # noqa: E402
from core.domains import load_domains  # noqa: E402
from core.analysis.parsed import ClassNotFound  # noqa: E402
from core.records import SeedClass  # noqa: E402
from pipeline.corpus.classeval import classeval_entry_to_seed  # noqa: E402
from pipeline.corpus.classeval_seeds import merge_skeleton_docstrings  # noqa: E402
from pipeline.corpus.seeds import load_corpus  # noqa: E402
from pipeline.stages.config import BuildConfig  # noqa: E402
from pipeline.synthesis.enhance import seed_pools  # noqa: E402
from pipeline.synthesis.jobs import JobFailed  # noqa: E402
from pipeline.synthesis.stated_effects import EFFECT, KEEPS_NOTHING, adding_methods, query_methods  # noqa: E402
from pipeline.synthesis.testgen import synthesize_tests  # noqa: E402


def _seeds(args: argparse.Namespace) -> list[SeedClass]:
    if args.seeds is not None:
        return list(load_corpus(args.seeds, load_domains(args.seeds / "domains.toml")).seeds)
    seeds = []
    for index, entry in enumerate(json.loads(args.classeval.read_text(encoding="utf-8"))):
        seed = classeval_entry_to_seed(entry, f"{args.classeval}[{index}]", "ClassEval")
        try:  # as the seed import does: a skeleton that cannot be read leaves the solution as it is
            source, _ = merge_skeleton_docstrings(seed.source, entry.get("skeleton") or "", seed.class_name)
        except (SyntaxError, cst.ParserSyntaxError, ClassNotFound):
            source = seed.source
        seeds.append(seed.model_copy(update={"source": source}))
    return seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("classeval", type=Path, nargs="?")
    parser.add_argument("--seeds", type=Path, default=None, help="A seed corpus folder instead of a ClassEval file.")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    tasks = affected = dropped = scenarios = with_queries = failed = 0
    with BuildConfig().sandbox_pool(args.jobs) as pool:
        for seed in _seeds(args)[:args.limit]:
            source = seed.source
            queries = query_methods(source, seed.class_name) | adding_methods(source, seed.class_name)
            with_queries += bool(queries)
            try:
                result = synthesize_tests(pool, source=source, module=seed.module_name,
                                          model=analyse(source, seed.class_name), pools=seed_pools(seed, pool=pool),
                                          extra=[], rng=random.Random(f"effects:{seed.seed_id}"))
            except (JobFailed, SyntaxError, StopIteration, ClassNotFound) as exc:
                failed += 1
                print(f"{seed.seed_id} {seed.class_name}: not run ({str(exc)[:80]})", flush=True)
                continue
            tasks += 1
            scenarios += result.scenarios_run
            effects = [d for d in result.reference_defects if d.get("effect") in (EFFECT, KEEPS_NOTHING)]
            if effects:
                affected += 1
                dropped += sum(d["scenarios"] for d in effects)
                print(f"{seed.seed_id} {seed.class_name}: queries and additions {sorted(queries)}; "
                      + "; ".join(f"{d['method']} {d['effect']}, seen by {d['observed_by']} ({d['scenarios']} runs)"
                                  for d in effects),
                      flush=True)
    print(f"\n{tasks} tasks synthesised ({failed} not run), {with_queries} with a method documented as a query or "
          "an addition; "
          f"{affected} tasks with runs observing an unstated effect, {dropped} of {scenarios} proposed runs dropped")


if __name__ == "__main__":
    main()
