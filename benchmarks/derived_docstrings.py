"""What deriving docstrings offline (`[mine] derive_docstrings`) adds: mined classes, and how the gate and the
judges treat them.

    .venv/bin/python benchmarks/derived_docstrings.py REPOS ARTIFACTS [--jobs 1] [--run-id ID]

Mines every git repository under REPOS into a run under ARTIFACTS (the mine stage with the default
settings, so undocumented fresh classes get derived docstrings), then runs the gate, one round of repair
and the default judges on the mined candidates, as a build does. It prints, separately for candidates whose
docstrings came from the source and those derived from observed behaviour: candidates, gate survivors and
judge acceptances, with the reasons of each rejection; and the classes the derivation could not document.
A run already finished is read, not redone.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.layout import Folder  # noqa: E402
from core.records import Rejection, RejectReason  # noqa: E402
from core.settings import Settings  # noqa: E402
from core.store import ArtifactStore  # noqa: E402
from pipeline.mining.records import MineConfig  # noqa: E402
from pipeline.stages.config import BuildConfig  # noqa: E402
from pipeline.stages.driver import RunContext, run_stage  # noqa: E402
from pipeline.stages.gate import GateStage
from pipeline.stages.judge import JudgeStage
from pipeline.stages.mine import MineStage  # noqa: E402
from pipeline.stages.repair import RepairStage
from pipeline.stages.run_records import generated_candidates, survivor


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repos", type=Path)
    parser.add_argument("artifacts", type=Path)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--run-id", default="derived-docstrings")
    args = parser.parse_args()
    config = BuildConfig(jobs=args.jobs, mine=MineConfig(local=args.repos.resolve()))
    store = ArtifactStore(args.artifacts.resolve())
    ctx = RunContext(store, args.run_id, config, Settings.from_environment().with_artifacts(store.root))
    with config.sandbox_pool(args.jobs) as pool:
        from pipeline.stages.driver import ThreadExecutor

        executor = ThreadExecutor(pool=pool)
        mined = run_stage(MineStage(), ctx, executor)
        for stage in (GateStage(), RepairStage(), JudgeStage()):
            run_stage(stage, ctx, executor)
    count = next(iter(mined.values()))
    print(f"classes seen {count.received}, mined candidates {count.accepted}")
    rejections = [r for _, r in store.iter_records(args.run_id, Folder.REJECTIONS, Rejection)]
    undocumented = [r for r in rejections if r.stage == "mine" and r.reason is RejectReason.UNDOCUMENTED]
    derived_failed = [r for r in undocumented if r.evidence.get("docstrings") == "derived"]
    print(f"undocumented rejections {len(undocumented)}, {len(derived_failed)} of them classes the derivation "
          "could not document:")
    for rejection in derived_failed:
        print(f"  {rejection.detail[:220]}")
    candidates = generated_candidates(store, args.run_id)
    gate_reasons = {r.candidate_id: r for r in rejections if r.stage in ("validate", "repair")}
    for kind in ("source", "derived", "model"):
        chosen = [c for c in candidates if c.generator.parameters.get("docstrings") == kind]
        if not chosen:
            continue
        fates: Counter[str] = Counter()
        lines = []
        for candidate in chosen:
            final, report = survivor(store, args.run_id, candidate.candidate_id)
            if not report.passed:
                reason = gate_reasons.get(final.candidate_id) or gate_reasons.get(candidate.candidate_id)
                fate = f"gate: {reason.reason.value if reason else 'failed'}"
                note = reason.detail[:160] if reason else ""
            else:
                folder = store.runs / args.run_id / "judge"
                named = (folder / f"{candidate.candidate_id}.json", folder / f"{final.candidate_id}.json")
                path = next(p for p in named if p.exists())
                judged = json.loads(path.read_text(encoding="utf-8"))
                fate = "accepted" if judged["outcome"] == "accept" else f"judges: {', '.join(judged['rejected_by'])}"
                note = "; ".join(f"{f['criterion']}: {f['note']}" for v in judged["verdicts"]
                                 for f in v["findings"] if f["ok"] is False)[:400]
            fates[fate] += 1
            lines.append(f"  {candidate.class_name:<28} {candidate.provenance.path}  {fate}  {note}")
        print(f"\ndocstrings {kind}: {len(chosen)} candidates, {fates['accepted']} accepted by the gate and the judges")
        for fate, number in fates.most_common():
            print(f"  {fate}: {number}")
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
