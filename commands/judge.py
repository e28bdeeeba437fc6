"""`classeval-pro judge PATH`: a judge panel on candidates, a run's gate survivors, or a release.

Registered on the app in commands/main.py. PATH may be a run folder (`artifacts/runs/<run>`: its gate
survivors, with their gate reports), a release folder (its tasks; no gate report travels with a release,
so the adequacy judge abstains there), or anything `classeval-pro validate` reads (a folder of Candidate
records, a Candidate file, seeds, a ClassEval JSON file).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from core.agreement import Agreement, agreement
from core.errors import InputError
from core.layout import Stage
from core.records import Candidate, Decision, GateReport, Task, Verdict
from core.settings import Settings
from core.store import ArtifactStore, atomic_write_text
from judges.config import JudgesConfig
from judges.panel import LayeredPanel, PanelDecision
from judges.rules import DecisionRule
from models.preflight import check_models
from pipeline.corpus.inputs import load_candidates
from pipeline.release.dataset_io import load_release
from pipeline.release.naming import release_or_path
from pipeline.stages.driver import ThreadExecutor, command_context, run_stage
from pipeline.stages.inputs import PanelOnInputs
from pipeline.stages.run_records import accepted_pairs
from validation.sandbox import SandboxPool

console = Console(emoji=False)
if not console.is_terminal:  # piped output: rich would assume 80 columns and cut ids
    console = Console(width=200, emoji=False)
err_console = Console(stderr=True, emoji=False)
Pair = tuple[Candidate, GateReport | None]


def task_candidate(task: Task) -> Candidate:
    """A released task as the candidate it was (the solution gets its import lines back), named by its task
    id: that is the name a reader of the release knows (a verdict's cache key does not include the id)."""
    solution = "\n".join(task.import_statement) + ("\n\n" if task.import_statement else "") + task.solution_code
    return Candidate(candidate_id=task.task_id, class_name=task.class_name,
                     module_name=task.module_name, domains=task.domains, description=task.class_description,
                     skeleton=task.skeleton, solution_code=solution, test_code=task.test, origin=task.origin,
                     provenance=task.provenance, generator=task.generator, requires_python=task.requires_python)


def load_pairs(path: Path) -> list[Pair]:
    """The candidates (with gate reports where the input has them) found at `path`."""
    path = Path(path)
    if (path / "funnel.json").is_file() or (path / Stage.VALIDATE).is_dir():
        pairs: list[Pair] = list(accepted_pairs(ArtifactStore(path.parent.parent), path.name))
        if not pairs:
            raise InputError(f"{path}: the run has no candidate that passed the validation gate")
        return pairs
    if (path / "manifest.json").is_file():
        return [(task_candidate(t), None) for t in load_release(path)]
    named, problems = load_candidates(path)
    for problem in problems:
        err_console.print(f"[red]error[/red] {problem}", highlight=False, soft_wrap=True)
    return [(n.candidate, None) for n in named]


def agreement_lines(figures: Agreement) -> list[str]:
    """The run summary's judge lines: kappas, rejected share per judge, most frequent failed criteria."""
    def kappa(value: float | None) -> str:
        return "undefined" if value is None else f"{value:.3f}"

    within = f" (within the {figures.compared}, abstentions left out)" if figures.compared else ""
    if figures.compared == "models":
        lines = [f"judges: {figures.judged} judged; Fleiss' kappa{within} {kappa(figures.fleiss_kappa)}; Cohen's "
                 "kappa " + (", ".join(f"{p.judge_a}/{p.judge_b} {kappa(p.kappa)}" for p in figures.pairwise) or "none")]
    else:  # deterministic checks agree by design: a kappa of them says nothing, their agreement does
        lines = [f"judges: {figures.judged} judged; percent agreement{within} "
                 + (", ".join(f"{p.judge_a}/{p.judge_b} {'-' if p.observed is None else f'{p.observed:.1%}'}"
                              for p in figures.pairwise) or "none")]
    for layer, judges in (figures.layers or {"": figures.judges}).items():
        lines.append(f"  rejected share{f' ({layer})' if layer else ''}: "
                     + ", ".join(f"{j} {figures.rejected_share.get(j, 0):.0%}" for j in judges))
    if figures.failed_criteria:
        lines.append("  most failed criteria: " + ", ".join(f"{c.criterion} {c.failed}" for c in figures.failed_criteria[:5]))
    return lines


def abstention_reason(verdict: Verdict) -> str:
    """Why a judge abstained: its undecided findings' notes, else the first line of its raw answer."""
    notes = "; ".join(dict.fromkeys(f.note for f in verdict.findings if f.ok is None and f.note))
    reason = notes or (verdict.raw_response.strip().splitlines() or ["no reason given"])[0]
    return reason if len(reason) <= 200 else reason[:197] + "..."


def abstention_lines(decisions: list[PanelDecision]) -> list[str]:
    """One line per judge and reason: how many tasks it abstained on, with the first as an example (a
    judge that cannot decide anything on this input, as adequacy without gate reports, is one line)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for decision in decisions:
        for verdict in decision.verdicts:
            if verdict.decision is Decision.ABSTAIN:
                groups.setdefault((verdict.judge.label, abstention_reason(verdict)), []).append(decision.candidate_id)
    return [f"  {label} abstained on {len(ids)} task(s) (e.g. {ids[0]}): {reason}"
            for (label, reason), ids in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))]


def _mark(decision: Decision) -> str:
    return {"accept": "[green]accept[/green]", "reject": "[red]reject[/red]"}.get(decision.value, "[yellow]abstain[/yellow]")


def print_decisions(decisions: list[PanelDecision], title: str) -> None:
    """One row per task, one column per judge ("-" where the judge was not asked: the model panel does not
    see a candidate the checks did not accept)."""
    labels = list(dict.fromkeys(v.judge.label for d in decisions for v in d.verdicts))
    table = Table(title=title)
    table.add_column("task", no_wrap=True)
    for label in labels:
        table.add_column(label)
    table.add_column("decision")
    table.add_column("failed criteria (per judge)")
    for decision in decisions:
        failed = [f"{v.judge.label}: " + ", ".join(sorted({f.criterion for f in v.findings if f.ok is False}))
                  for v in decision.verdicts if any(f.ok is False for f in v.findings)]
        marks = {v.judge.label: _mark(v.decision) for v in decision.verdicts}
        deciding = decision.deciding_layer
        outcome = decision.outcome.value + (f" ({deciding.layer.value})" if deciding is not None else "")
        table.add_row(decision.candidate_id, *(marks.get(label, "-") for label in labels), outcome, "; ".join(failed))
    console.print(table)


def judge_command(
    path: Annotated[Path, typer.Argument(help="A run folder, a release (folder or version), or candidates (as `validate` reads).")],
    models: Annotated[Optional[str], typer.Option("--models", help="Comma-separated litellm model names, one "
                                                  "judge each, voting after the deterministic checks; default: "
                                                  "the checks alone.")] = None,
    rule: Annotated[Optional[str], typer.Option("--rule", help="majority, unanimous or quorum:K: the model "
                                                "panel's (default majority); without models, the checks' "
                                                "(default unanimous).")] = None,
    offline: Annotated[bool, typer.Option("--offline/--no-offline", help="Run the deterministic checks first "
                                          "(--no-offline: the model panel alone; needs --models).")] = True,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write every decision and the agreement here.")] = None,
    api_base: Annotated[Optional[str], typer.Option("--api-base", help="OpenAI-compatible server for the models.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Candidates judged at the same time.")] = 2,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Judge at most this many tasks (the first, in the order read).")] = None,
) -> None:
    """Run the judge panel (the deterministic checks, then the model panel when models are given) and print a
    table (task, each judge's verdict, decision and the layer that made it, failed criteria) and the agreement
    figures. Exits 1 when any task is rejected or held."""
    from contextlib import nullcontext

    names = tuple(m.strip() for m in (models or "").split(",") if m.strip())
    if rule is not None:
        DecisionRule.parse(rule)  # an InputError naming the rule, before any judge starts
    if not offline and not names:
        raise InputError("--no-offline needs --models: with neither the checks nor a model panel nothing judges")
    settings = Settings.from_environment()  # the environment, read once, here
    check_models(names, settings.model_keys, api_base=api_base, option="--models")  # a missing key: exit 2, not 131 s of retries
    config = JudgesConfig(models=names, rule=rule, api_base=api_base, jobs=jobs, offline=offline)
    config.decision_rule().check_panel_size(len(names) if names else 3)
    pairs = load_pairs(release_or_path(path, ArtifactStore(settings.artifacts)))  # a release may be named by its version
    of_all = f" (the first {limit} of {len(pairs)})" if limit is not None and limit < len(pairs) else ""
    pairs = pairs[:limit]

    def warn(panel: LayeredPanel) -> None:
        for warning in panel.warnings:
            err_console.print(f"[yellow]warning[/yellow] {escape(warning)}")

    stage = PanelOnInputs(pairs, config, on_open=warn)
    # the checks' specification judge runs docstring examples in the sandbox; a model panel alone needs none
    with SandboxPool(jobs=jobs) if offline else nullcontext() as pool:
        decisions = run_stage(stage, command_context(settings), ThreadExecutor(jobs=jobs, pool=pool))
    figures = agreement([d.verdicts for d in decisions])
    print_decisions(decisions, f"judge panel ({config.decision_rule().label}) on {len(decisions)} task(s) from {path}{of_all}")
    for line in agreement_lines(figures):
        console.print(line, highlight=False)
    if json_out is not None:
        atomic_write_text(json_out, json.dumps({"decisions": [d.model_dump(mode="json") for d in decisions],
                                                "agreement": figures.model_dump(mode="json")},
                                               indent=2, ensure_ascii=False) + "\n")
        console.print(f"wrote {json_out}")
    abstentions = abstention_lines(decisions)
    if abstentions:
        console.print("abstentions (left out of the agreement figures):", highlight=False)
        for line in abstentions:
            console.print(escape(line), highlight=False, soft_wrap=True)
    outcomes = Counter(d.outcome.value for d in decisions)
    console.print(f"{outcomes['accept']} accepted, {outcomes['reject']} rejected, {outcomes['held']} held "
                  "(too few judges decided)", highlight=False)
    if outcomes["accept"] < len(decisions):
        raise typer.Exit(1)
