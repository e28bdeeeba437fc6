"""The `classeval-pro validate` command and the gate part of `classeval-pro seeds check`.

Registered on the app in commands/main.py. It lives in `pipeline/` with the other commands, not in
`validation/`: the gate package depends only on the base layer (records, errors, static analysis) and
never on the pipeline's seed loader, store or command line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from core.errors import InputError
from core.records import GateReport
from core.settings import Settings
from core.store import ArtifactStore, atomic_write_text
from pipeline.corpus.inputs import NamedCandidate, load_candidates, seed_to_candidate
from pipeline.release.naming import release_or_path
from pipeline.stages.driver import ThreadExecutor, command_context, run_stage
from pipeline.stages.inputs import GateOnInputs
from validation.policy import GatePolicy
from validation.sandbox import SandboxPool

console = Console(emoji=False)
if not console.is_terminal:  # piped output: rich would assume 80 columns and cut task ids
    console = Console(width=160, emoji=False)
err_console = Console(stderr=True, emoji=False)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def summary_row(task_id: str, report: GateReport) -> dict[str, Any]:
    """The per-task JSON object: the fields the issue names, then the full report."""
    vacuous = report.check("vacuous_share")
    return {
        "task_id": task_id,
        "candidate_id": report.candidate_id,
        "passed": report.passed,
        "line_coverage": report.line_coverage,
        "branch_coverage": report.branch_coverage,
        "interaction_edge_coverage": report.interaction_edge_coverage,
        "mutation_score": report.mutation_score,
        "vacuous_share": vacuous.value if vacuous else None,
        "reasons": [r.value for r in report.reasons],
        "report": json.loads(report.to_json()),
    }


def run_gate(named: list[NamedCandidate], jobs: int, mutation: bool, title: str,
             settings: Settings) -> list[dict[str, Any]]:
    """Validate (the gate stage on these candidates, through the driver on `jobs` threads), print a table,
    return the JSON rows (in input order)."""
    policy = GatePolicy(run_mutation=mutation)
    stage = GateOnInputs([n.candidate for n in named], policy)
    with SandboxPool(jobs=jobs) as pool:
        protections = pool.protections
        reports = run_stage(stage, command_context(settings), ThreadExecutor(jobs=jobs, pool=pool))
    rows = [summary_row(n.task_id, r) for n, r in zip(named, reports)]
    table = Table(title=title)
    for column, justify in (("task", "left"), ("result", "left"), ("line%", "right"), ("branch%", "right"),
                            ("inter%", "right"), ("methods", "right"), ("vacuous%", "right"),
                            ("mutation%", "right"), ("reasons", "left")):
        table.add_column(column, justify=justify, no_wrap=column == "task")  # type: ignore[arg-type]
    for row, report in zip(rows, reports):
        methods = report.check("methods_on_one_instance")
        table.add_row(row["task_id"], "[green]pass[/green]" if row["passed"] else "[red]fail[/red]",
                      _pct(row["line_coverage"]), _pct(row["branch_coverage"]), _pct(row["interaction_edge_coverage"]),
                      "-" if methods is None else str(methods.value),
                      "-" if row["vacuous_share"] is None else _pct(row["vacuous_share"]),
                      _pct(row["mutation_score"]), ", ".join(row["reasons"]))
    console.print(table)
    missing = sorted(k for k, v in protections.items() if not v and k != "clock_shift_python_only")
    if missing:
        err_console.print(f"sandbox protections missing on this machine: {', '.join(missing)}")
    return rows


def _failure_lines(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for row in rows:
        if row["passed"]:
            continue
        for check in row["report"]["checks"]:
            if check["gated"] and not check["passed"]:
                lines.append(f"{row['task_id']}: {check['name']}: {check['detail']}")
        if not any(c["gated"] and not c["passed"] for c in row["report"]["checks"]):
            keys = [r["key"] for r in row["report"]["evidence"].get("rejections", [])]
            lines.append(f"{row['task_id']}: {', '.join(row['reasons'])} ({', '.join(keys)})")
    return lines


def validate_command(
    path: Annotated[Path, typer.Argument(metavar="PATH", help="Seed/domain/seeds folder, ClassEval JSON file, "
                                               "Candidate records folder, or a release (its folder or version).")],
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write the per-task JSON list here.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Tasks validated in parallel.")] = 2,
    mutation: Annotated[bool, typer.Option("--mutation/--no-mutation", help="Measure the mutation score.")] = True,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print why each failing task failed.")] = False,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Validate at most this many tasks (the first, in the order read).")] = None,
) -> None:
    """Run the validation gate on tasks and print a table (task, pass/fail, line %, branch %, interaction %,
    mutation %, reasons). Exits 1 when any task fails the gate."""
    settings = Settings.from_environment()  # the environment, read once, here
    path = release_or_path(path, ArtifactStore(settings.artifacts))  # a release may be named by its version
    named, problems = load_candidates(path)
    if not named and not problems:
        raise InputError(f"{path}: no tasks to validate (it holds an empty task list)")
    for problem in problems:
        err_console.print(f"[red]error[/red] {problem}", highlight=False, soft_wrap=True)
    of_all = f" (the first {limit} of {len(named)})" if limit is not None and limit < len(named) else ""
    named = named[:limit]
    rows = run_gate(named, jobs, mutation, f"validation gate: {len(named)} task(s) from {path}{of_all}", settings)
    if json_out is not None:
        atomic_write_text(json_out, json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        console.print(f"wrote {json_out}")
    if verbose:
        for line in _failure_lines(rows):
            err_console.print(line, highlight=False, soft_wrap=True)
    failed = sum(1 for r in rows if not r["passed"])
    console.print(f"{len(rows) - failed} passed, {failed} failed" + (f", {len(problems)} unreadable" if problems else ""))
    if failed or problems:
        raise typer.Exit(1)


def gate_seeds(seeds: list[Any], jobs: int, mutation: bool, settings: Settings) -> bool:
    """`seeds check` part two: the gate on every valid seed; prints per-seed figures; True when all pass."""
    named = [NamedCandidate(s.seed_id, seed_to_candidate(s)) for s in seeds]
    rows = run_gate(named, jobs, mutation, f"validation gate on {len(named)} seed(s)", settings)
    for line in _failure_lines(rows):
        err_console.print(line, highlight=False, soft_wrap=True)
    return all(r["passed"] for r in rows)
