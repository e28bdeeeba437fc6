"""The `classeval-pro eval` command (registered on the app in commands/main.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from core import settings as paths
from core.errors import InputError
from core.records import JsonValue
from core.store import atomic_write_text
from models.client import Budget, ModelClient
from models.preflight import check_model
from pipeline.evaluation.baselines import BASELINES
from pipeline.evaluation.harness import EvalRun, EvalSettings, evaluate
from pipeline.evaluation.leaderboard import results_dir, save_run, write_leaderboard
from pipeline.evaluation.samples import read_samples
from pipeline.evaluation.solver import model_asker
from pipeline.evaluation.strategies import STRATEGIES, Ask
from pipeline.evaluation.tasks import EvalTask, UnreadableTask, load_eval_tasks, resolve_release, select_tasks
from validation.sandbox import SandboxPool
from validation.sandbox.interpreter import InterpreterError

console = Console(emoji=False)
if not console.is_terminal:  # piped output: rich would assume 80 columns
    console = Console(width=160, emoji=False)
err_console = Console(stderr=True, emoji=False)


def _ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise InputError(f"--k {text!r}: expected comma-separated whole numbers, e.g. 1,5") from None
    if not ks or ks[0] < 1:
        raise InputError(f"--k {text!r}: every k must be at least 1")
    return ks


def _strategies(text: str) -> tuple[str, ...]:
    chosen = STRATEGIES if text == "all" else tuple(dict.fromkeys(s.strip() for s in text.split(",") if s.strip()))
    unknown = [s for s in chosen if s not in STRATEGIES]
    if unknown or not chosen:
        raise InputError(f"--strategy {text!r}: unknown {', '.join(unknown) or 'strategy'}; "
                         f"known: {', '.join(STRATEGIES)} or all")
    return chosen


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.1f}"


def summary_json(run) -> dict:
    """What `--json` writes: per strategy, class Pass@k with its family-clustered interval and per-family
    mean, method Pass@k and the failure shares."""
    return {"source": run.source, "model": run.model, "started": run.started, "tasks": len(run.task_ids),
            "stopped": run.stopped, "settings": run.settings, "protections": run.protections,
            "strategies": {s.strategy: {"class_pass_at_k": s.class_pass_at_k,
                                        "class_pass_at_k_ci95": {k: list(v) for k, v in s.class_pass_at_k_ci.items()},
                                        "family_pass_at_k": s.family_pass_at_k, "families": s.families,
                                        "tasks": s.tasks, "samples": s.samples,
                                        "method_pass_at_k": s.method_pass_at_k,
                                        "methods_scored": s.methods_scored, "failures": s.failures,
                                        "failure_shares": s.failure_shares, "cost_usd": s.cost_usd,
                                        "cached_calls": s.cached_calls}
                           for s in run.summaries}}


def eval_command(
    release: Annotated[str, typer.Argument(help="Release folder or version (under artifacts/releases/), or a "
                                                "ClassEval-format JSON file.")],
    model: Annotated[Optional[str], typer.Option("--model", help="litellm model name (e.g. openai/gpt-4o), or a "
                                                                 "baseline: reference, skeleton, mutant.")] = None,
    samples_file: Annotated[Optional[Path], typer.Option("--samples", help="Score completions made elsewhere "
                            "instead of asking a model: JSON Lines with task_id and solution (code) or completion "
                            "(raw model text), one or more lines per task.")] = None,
    sandbox_python: Annotated[Optional[Path], typer.Option("--sandbox-python", help="Run completions with this "
                              "Python (e.g. a venv's bin/python holding numpy, pandas, pytest): what it has "
                              "installed can be imported. Default: the project's own, standard library only.")] = None,
    environment_check: Annotated[bool, typer.Option("--environment-check/--no-environment-check",
                                 help="Rerun failing tests as an ordinary user, on this host's name, with an "
                                      "earlier clock, so that such failures are counted as environment.")] = True,
    strategy: Annotated[str, typer.Option("--strategy", help="holistic, incremental, bottom_up, top_down, "
                                                             "compositional (comma-separated), or all.")] = "holistic",
    n: Annotated[int, typer.Option("--n", min=1, help="Samples per task and strategy.")] = 5,
    k: Annotated[str, typer.Option("--k", help="Comma-separated k of the reported Pass@k (each <= n).")] = "1,5",
    temperature: Annotated[float, typer.Option("--temperature", min=0.0, help="Sampling temperature.")] = 0.8,
    after: Annotated[Optional[str], typer.Option("--after", help="Only tasks whose source date is after this "
                                                                 "ISO date (a model's training cut-off).")] = None,
    limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Evaluate at most this many tasks.")] = None,
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write the summary JSON here.")] = None,
    api_base: Annotated[Optional[str], typer.Option("--api-base", help="Model server address (local vLLM, proxy).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Samples evaluated in parallel.")] = 2,
    max_cost: Annotated[Optional[float], typer.Option("--max-cost", min=0.0, help="Stop calling the model past "
                                                                                   "this many dollars.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Ask the model again instead of reading cached "
                                                              "answers (fresh answers are still cached).")] = False,
) -> None:
    """Run a model (or a baseline) on a release under the generation strategies, score every completion in
    the sandbox, and report class- and method-level Pass@k and the failure taxonomy.

    Writes every completion to artifacts/evaluations/<release>/runs/ and rebuilds that release's
    leaderboard.md. The reference baseline must score 100%: below that the command exits 1.
    """
    ks = _checked_arguments(model, samples_file, api_base, after, k, n)
    source, tasks, unreadable = _tasks_to_evaluate(release, after, limit)
    samples = read_samples(samples_file, {t.task_id for t in tasks}) if samples_file is not None else None
    settings = EvalSettings(model=model or f"samples:{samples_file.name}", strategies=_strategies(strategy), n=n,
                            ks=ks, temperature=temperature, api_base=api_base, jobs=jobs,
                            sandbox_python=str(sandbox_python) if sandbox_python else None,
                            environment_check=environment_check,
                            samples_file=str(samples_file) if samples_file else None)
    if samples is not None:
        tasks = _tasks_with_samples(tasks, samples)
    ask, usage = _asker(settings, no_cache=no_cache, max_cost=max_cost)
    with _sandbox(settings) as pool:
        run = evaluate(tasks, settings, pool, ask, source=str(source), usage=usage, samples=samples)
    folder = results_dir(paths.artifacts_dir(), source)
    run_path = save_run(run, folder)
    _print(run)
    if json_out is not None:
        summary = summary_json(run) | {"left_out": {t.task_id: t.reason for t in unreadable}}
        atomic_write_text(json_out, json.dumps(summary, indent=2) + "\n")
    if run.stopped:
        # A partial run is kept for inspection but stays off the leaderboard (its figures cover fewer samples).
        err_console.print(f"[red]error[/red] the run stopped early: {run.stopped}; the {len(run.completions)} "
                          f"completed sample(s) are in {run_path} (a rerun is served from the cache)",
                          highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    board = write_leaderboard(folder, folder.name)
    console.print(f"every completion: {run_path}\nleaderboard: {board}", highlight=False, soft_wrap=True)
    if _run_failed(run, model, unreadable):
        raise typer.Exit(1)


def _checked_arguments(model: str | None, samples_file: Path | None, api_base: str | None, after: str | None,
                       k: str, n: int) -> tuple[int, ...]:
    """The k of the reported Pass@k, once the model (or samples file), the date and the k are known to be
    usable: a typo or a missing key exits 2 before any work."""
    if (model is None) == (samples_file is None):
        raise InputError("give either --model (a model or baseline to run) or --samples FILE (completions made "
                         "elsewhere), not both" if model else "give --model (a model or baseline) or --samples FILE")
    if model is not None:
        check_model(model, paths.Settings.from_environment().model_keys, api_base=api_base, baselines=BASELINES)
    if after is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", after):
        raise InputError(f"--after {after!r}: expected an ISO date, YYYY-MM-DD")
    ks = _ks(k)
    if model is not None and ks[-1] > n:  # a samples file has as many samples per task as it has lines
        raise InputError(f"--k {k}: pass@{ks[-1]} needs --n of at least {ks[-1]} (got {n})")
    return ks


def _tasks_with_samples(tasks: list[EvalTask], samples: dict[str, list[str]]) -> list[EvalTask]:
    """The tasks the samples file answers (a file covering part of the release scores that part, said so)."""
    kept = [t for t in tasks if t.task_id in samples]
    if len(kept) < len(tasks):
        err_console.print(f"[yellow]warning[/yellow] the samples file answers {len(kept)} of the {len(tasks)} "
                          f"tasks; the figures cover those {len(kept)}", highlight=False, soft_wrap=True)
    return kept


def _sandbox(settings: EvalSettings) -> SandboxPool:
    """The sandbox the completions run in: the configured Python with what it has installed, or the
    project's own with the standard library alone. InputError naming the option when it cannot be used."""
    try:
        return SandboxPool(jobs=settings.jobs, limits=settings.limits(), python=settings.sandbox_python,
                           packages=settings.sandbox_python is not None)
    except InterpreterError as exc:
        raise InputError(f"--sandbox-python: {exc}") from None


def _tasks_to_evaluate(release: str, after: str | None,
                       limit: int | None) -> tuple[Path, list[EvalTask], list[UnreadableTask]]:
    """The release's source, the tasks chosen from it, and those that could not be read (warned about
    before the run, so a long run does not hide them)."""
    source = resolve_release(release, paths.artifacts_dir() / "releases")
    readable, unreadable = load_eval_tasks(source)
    for task in unreadable:
        err_console.print(f"[yellow]warning[/yellow] task {escape(task.task_id)} left out: {escape(task.reason)}",
                          highlight=False, soft_wrap=True)
    tasks = select_tasks(readable, after=after, limit=limit)
    if not tasks:
        raise InputError(f"{source}: no task to evaluate" + (f" with a source date after {after}" if after else "")
                         + (f" ({len(unreadable)} could not be read)" if unreadable else ""))
    return source, tasks, unreadable


def _asker(settings: EvalSettings, *, no_cache: bool,
           max_cost: float | None) -> tuple[Ask | None, Callable[[], dict[str, JsonValue]] | None]:
    """How the model is asked and what its calls spent (neither for a baseline, which asks no model)."""
    if settings.is_baseline:
        return None, None
    client = ModelClient(paths.artifacts_dir() / "cache" / "models", use_cache=not no_cache,
                         budget=Budget(max_cost_usd=max_cost), max_concurrency=settings.jobs)
    ask = model_asker(client, settings.model, temperature=settings.temperature, api_base=settings.api_base)
    return ask, lambda: client.usage().model_dump(mode="json")


def _run_failed(run: EvalRun, model: str, unreadable: list[UnreadableTask]) -> bool:
    """Whether the command must exit 1: tasks left out unread, or a reference baseline that fails a task
    (a broken task, a library missing from the sandbox, or a broken harness). Each cause is printed."""
    failed = False
    if unreadable:
        err_console.print(f"[red]error[/red] {len(unreadable)} task(s) could not be read and were left out (listed "
                          f"above); the figures cover the {len(run.task_ids)} others", highlight=False, soft_wrap=True)
        failed = True
    if model == "reference":
        failing = {r.task_id: r.score.failure.value if r.score.failure else "failed"
                   for r in run.completions if not r.score.passed}
        if failing:
            named = ", ".join(f"{task_id} ({failure})" for task_id, failure in sorted(failing.items()))
            err_console.print(f"[red]error[/red] the reference fails {len(failing)} task(s): {named} (a broken task, a "
                              "library missing from the sandbox, or a broken harness)", highlight=False, soft_wrap=True)
            failed = True
    return failed


def _with_interval(value: float | None, interval: tuple[float | None, float | None] | None) -> str:
    low, high = interval or (None, None)
    return _pct(value) + (f" [{_pct(low)}-{_pct(high)}]" if value is not None and low is not None else "")


def _print(run) -> None:
    """The table: per strategy, class Pass@k with its 95% interval (each family one cluster), the per-family
    mean beside it, method Pass@k over every method, and the failure shares."""
    ks = sorted({kk for s in run.summaries for kk in s.class_pass_at_k}, key=int)
    families = max((s.families for s in run.summaries), default=0)
    table = Table(title=f"{run.model} on {run.source} ({len(run.task_ids)} tasks, {families} families)",
                  caption="class@k [95% interval, each family one cluster]; family@k: mean of the families' means")
    for column in (["strategy"] + [f"class@{kk}" for kk in ks] + [f"family@{kk}" for kk in ks]
                   + [f"method@{kk}" for kk in ks] + ["failures"]):
        table.add_column(column)
    for s in run.summaries:
        shares = ", ".join(f"{name} {v * 100:.0f}%" for name, v in sorted(s.failure_shares.items(), key=lambda kv: -kv[1]))
        table.add_row(s.strategy, *[_with_interval(s.class_pass_at_k[kk], s.class_pass_at_k_ci.get(kk)) for kk in ks],
                      *[_pct(s.family_pass_at_k.get(kk)) for kk in ks],
                      *[_pct(s.method_pass_at_k[kk]) for kk in ks], shares or "-")
    console.print(table)
