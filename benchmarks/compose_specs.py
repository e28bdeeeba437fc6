"""How much of its parts' specifications a composed class keeps, and whether its docstring examples run.

    .venv/bin/python benchmarks/compose_specs.py [--domains Game_Sim Algo_DataStruct Math_Stats] [--json FILE] [--keep DIR]

A compose-only build: the seeds, compose, gate (with its repair round) and judge stages of `pipeline/stages/`
run as the build runs them, without enhance or Prefect, in a temporary artifacts folder. It prints:

- part docstring characters kept: for each composed candidate and each of its two parts, how many
  characters of the part's class docstring survive in the hybrid's skeleton class docstring (the longest
  matching blocks, `difflib`; a rewritten example line loses only what changed in it), the median and the
  number of parts that keep at least 95%;
- examples that run: the share of composed candidates whose docstring examples all agree with the
  reference when the specification judge runs them in the sandbox (every candidate, not only the gate's
  survivors);
- the gate's outcome (passed, or the first reason) and the judges' (accepted, or which judge rejected).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core import settings
from core.layout import Stage  # noqa: E402
from core.records import Candidate, GateReport, Origin, SeedClass  # noqa: E402
from core.store import ArtifactStore  # noqa: E402
from pipeline.stages.config import BuildConfig  # noqa: E402
from pipeline.stages.driver import RunContext, run_stage  # noqa: E402
from pipeline.stages.gate import GateStage
from pipeline.stages.judge import JudgeStage
from pipeline.stages.repair import RepairStage
from pipeline.stages.run_records import generated_candidates
from pipeline.stages.seeds import SeedsStage
from pipeline.stages.synthesis import SynthesisStage

DOMAINS = ("Game_Sim", "Algo_DataStruct", "Math_Stats")


def _class_doc(source: str, class_name: str) -> str:
    node = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return ast.get_docstring(node) or ""


def kept_characters(part_doc: str, hybrid_doc: str) -> int:
    """Characters of `part_doc` found, in order, in `hybrid_doc`."""
    matcher = difflib.SequenceMatcher(None, part_doc, hybrid_doc, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS))
    parser.add_argument("--json", type=Path, help="write every figure per candidate to this file")
    parser.add_argument("--keep", type=Path, help="build in this artifacts folder and keep it (to read the candidates)")
    args = parser.parse_args()
    from judges.decisions import read_decisions
    from judges.offline.specification import SpecificationJudge
    from validation.sandbox import SandboxPool
    from validation.suite_runner import SandboxSuiteRunner

    with tempfile.TemporaryDirectory(prefix="compose-specs-") as scratch:
        tmp = str(args.keep.resolve()) if args.keep else scratch
        os.environ["CLASSEVAL_PRO_ARTIFACTS"] = tmp
        store = ArtifactStore(settings.artifacts_dir())
        config = BuildConfig(domains=args.domains)
        run_id = "compose-specs"
        ctx = RunContext(store, run_id, config, settings.Settings.from_environment().with_artifacts(store.root))
        for stage in (SeedsStage(), SynthesisStage(Stage.COMPOSE), GateStage(),
                      RepairStage(), JudgeStage()):
            run_stage(stage, ctx)
        seeds = {s.seed_id: s for _, s in store.iter_records(run_id, Stage.SEEDS, SeedClass)}
        candidates = [c for c in generated_candidates(store, run_id) if c.origin is Origin.COMPOSED]
        decisions = read_decisions(store, run_id)
        rows = []
        with SandboxPool(jobs=config.jobs, limits=config.gate.limits()) as pool:
            judge = SpecificationJudge(SandboxSuiteRunner(pool))
            for candidate in candidates:
                hybrid_doc = _class_doc(candidate.skeleton, candidate.class_name)
                parts = []
                for seed_id in candidate.provenance.seed_ids:
                    doc = _class_doc(seeds[seed_id].source, seeds[seed_id].class_name)
                    parts.append({"seed": seed_id, "chars": len(doc), "kept": kept_characters(doc, hybrid_doc)})
                examples = next(f for f in judge.review(candidate, None).findings if f.criterion == "reference_correct")
                report = store.read(run_id, Stage.VALIDATE, candidate.candidate_id, GateReport)
                repaired = store.has(run_id, Stage.REPAIR, candidate.candidate_id)
                if repaired:
                    fixed = store.read(run_id, Stage.REPAIR, candidate.candidate_id, Candidate)
                    report = store.read(run_id, Stage.VALIDATE, fixed.candidate_id, GateReport)
                    candidate = fixed
                decision = decisions.get(candidate.candidate_id)
                judged = "not judged" if decision is None else decision.outcome.value
                if decision is not None and decision.outcome.value != "accept":
                    judged += " by " + ", ".join(
                        f"{v.judge.name} ({', '.join(f.criterion for f in v.findings if f.ok is False)})"
                        for v in decision.verdicts if v.decision.value == "reject")
                rows.append({"candidate": candidate.class_name, "parts": parts, "examples_run": examples.ok is True,
                             "examples_note": examples.note[:300],
                             "gate": "passed" if report.passed else report.reasons[0].value, "judges": judged})
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    parts = [p for r in rows for p in r["parts"]]
    print(f"domains: {' '.join(args.domains)}; composed candidates: {len(rows)}")
    if not rows:
        return
    print(f"part class docstrings: {len(parts)}; characters {sum(p['chars'] for p in parts)}, kept "
          f"{sum(p['kept'] for p in parts)}; median kept {statistics.median(p['kept'] for p in parts):.0f} of "
          f"{statistics.median(p['chars'] for p in parts):.0f}; parts keeping >= 95%: "
          f"{sum(p['kept'] >= 0.95 * p['chars'] for p in parts)}")
    print(f"examples that run: {sum(r['examples_run'] for r in rows)} of {len(rows)}")
    print("gate:", dict(Counter(r["gate"] for r in rows)))
    print("judges:", dict(Counter(r["judges"] for r in rows if r["gate"] == "passed")))


if __name__ == "__main__":
    main()
