"""Where evaluation results live and the per-release leaderboard built from them.

    <artifacts>/evaluations/<release version or file stem>/runs/<model>--<started>.json    one EvalRun each
    <artifacts>/evaluations/<release version or file stem>/leaderboard.md                   model x strategy

A release is filed under the version its manifest records, not under the name of the folder it was read
from: the same release named by its version or by a copied folder (`/tmp/bench`) has one leaderboard.

The leaderboard is rebuilt from every run file of the folder (the newest run of a model and strategy
wins), so it is always what the run files say. A release folder itself is never written to: it is
immutable and its manifest hashes every file.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.store import atomic_write_text
from pipeline.evaluation.harness import EvalRun, StrategySummary
from pipeline.release.naming import release_version


def results_key(source: Path) -> str:
    """What results of `source` are filed under: a release folder's version (from its manifest), else the
    folder's name or the ClassEval file's stem."""
    if source.suffix == ".json":
        return source.stem
    return release_version(source) or source.name


def results_dir(artifacts: Path, source: Path) -> Path:
    return artifacts / "evaluations" / results_key(source)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "model"


def save_run(run: EvalRun, folder: Path) -> Path:
    """Write the run's JSON (every completion) under `folder/runs/` and return its path."""
    stamp = re.sub(r"[^0-9T]", "", run.started)
    path = folder / "runs" / f"{_slug(run.model)}--{stamp}.json"
    atomic_write_text(path, run.to_json() + "\n")
    return path


def latest_rows(folder: Path) -> list[tuple[str, StrategySummary]]:
    """(model, summary) of the newest complete run of each model and strategy in `folder` (a run that
    stopped early is kept in runs/ but left out: its figures cover fewer samples)."""
    best: dict[tuple[str, str], tuple[str, str, StrategySummary]] = {}
    for path in sorted((folder / "runs").glob("*.json")):
        run = EvalRun.from_json(path.read_text(encoding="utf-8"))
        if run.stopped:
            continue
        for summary in run.summaries:
            key = (run.model, summary.strategy)
            if key not in best or run.started >= best[key][0]:
                best[key] = (run.started, run.model, summary)
    return [(model, summary) for _, model, summary in sorted(best.values(), key=lambda v: (v[1], v[2].strategy))]


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def _shares(summary: StrategySummary) -> str:
    ranked = sorted(summary.failure_shares.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{name} {share * 100:.0f}%" for name, share in ranked) or "-"


def render_leaderboard(title: str, rows: list[tuple[str, StrategySummary]]) -> str:
    """Markdown: one row per model and strategy, sorted by class-level pass@1 (best first)."""
    ks = sorted({int(k) for _, s in rows for k in s.class_pass_at_k}, key=int)
    header = (["model", "strategy", "tasks", "n"] + [f"class pass@{k}" for k in ks]
              + [f"method pass@{k}" for k in ks] + ["failure shares", "cost (USD)"])
    lines = [f"# Leaderboard: {title}", "",
             "Pass@k in percent, unbiased estimator over n samples per task; failure shares are of the failed "
             "completions. Baselines: `reference` must be 100, `skeleton` 0.", "",
             "| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]

    def key(row: tuple[str, StrategySummary]) -> tuple[float, str, str]:
        first = row[1].class_pass_at_k.get(str(ks[0])) if ks else None
        return (-(first if first is not None else -1.0), row[0], row[1].strategy)

    for model, s in sorted(rows, key=key):
        cells = ([model, s.strategy, str(s.tasks), str(s.samples)]
                 + [_pct(s.class_pass_at_k.get(str(k))) for k in ks] + [_pct(s.method_pass_at_k.get(str(k))) for k in ks]
                 + [_shares(s), "unknown" if s.cost_usd is None else f"{s.cost_usd:.4f}"])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def write_leaderboard(folder: Path, title: str) -> Path:
    path = folder / "leaderboard.md"
    atomic_write_text(path, render_leaderboard(title, latest_rows(folder)))
    return path
