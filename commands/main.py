"""The `classeval-pro` command line: one typer app, a subcommand per stage.

Heavy libraries (Prefect, datasets, litellm) are imported inside the commands that need them so that
`--help` and quick commands stay fast. Errors end the command with one readable line and a non-zero exit;
`--debug` shows the traceback instead.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from commands.help import tidy_help
from commands.judge import agreement_lines
from commands.validate import gate_seeds, validate_command
from core import progress, settings, stopping
from core.agreement import read_agreement
from core.analysis import parse_lock
from core.domains import load_domains
from core.errors import InputError
from core.funnel import Funnel
from core.store import ArtifactStore, atomic_write_text
from core.timing import format_profile, step_times
from flows.runners import runner_from_options
from flows.server import build_server, launch_build_server
from flows.server_watch import stop_watch
from models.config import apply_build_options
from models.preflight import check_models
from models.run_state import summary_lines
from pipeline.corpus.classeval import read_classeval_entries, read_classeval_file, read_classeval_hub
from pipeline.corpus.classeval_ends import read_overlay
from pipeline.corpus.classeval_seeds import import_as_seeds
from pipeline.corpus.seeds import load_corpus
from pipeline.stages import runs
from pipeline.stages.config import load_config
from core.results import reuse_sentence
from pipeline.stages.seeds import default_run_id, load_seed_records

app = typer.Typer(
    name="classeval-pro",
    help="Build fresh, validated class-level code-generation benchmarks.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
seeds_app = typer.Typer(help="Inspect and check the bundled seed corpus.", no_args_is_help=True)
app.add_typer(seeds_app, name="seeds")

# emoji=False: printed data (a local repository named `local:books:...`) must not turn into pictures
console = Console(emoji=False)
err_console = Console(stderr=True, emoji=False)


@app.callback()
def _root(
    ctx: typer.Context,
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
) -> None:
    """Build fresh, validated class-level code-generation benchmarks (see README.md)."""
    settings.configure_offline_environment()
    # Every command's stages report progress on stderr: bars in a terminal, plain log lines otherwise.
    ctx.with_resource(progress.reporting(progress.reporter_for(err_console)))


def _registry():
    return load_domains(settings.domain_registry_path())


@app.command()
def domains() -> None:
    """List the registered domains and how many valid seeds each has."""
    registry = _registry()
    corpus = load_corpus(settings.seeds_dir(), registry)
    counts = corpus.count_by_domain()
    table = Table(title=f"{len(registry.domain)} domains ({settings.domain_registry_path()})")
    table.add_column("domain")
    table.add_column("seeds", justify="right")
    table.add_column("description")
    for entry in registry.domain:
        table.add_row(entry.name, str(counts.get(entry.name, 0)), entry.description)
    console.print(table)
    if corpus.problems:
        err_console.print(f"{len(corpus.problems)} seed(s) have problems; run `classeval-pro seeds check`.")


@seeds_app.command("check")
def seeds_check(
    gate: Annotated[bool, typer.Option("--gate/--no-gate", help="Also run the validation gate on every valid seed.")] = True,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Seeds validated in parallel.")] = 2,
    mutation: Annotated[bool, typer.Option("--mutation/--no-mutation", help="Measure mutation scores too.")] = False,
) -> None:
    """Check every seed: files present, modules parse, the class exists, the tests import it and define tests
    pytest collects; then run the validation gate on every valid seed and print its figures (line %,
    branch %, interaction %, vacuous).

    Prints one line per broken seed (naming the file and the problem) and exits 1 if any is broken or fails
    the gate; the other seeds are checked all the same. A method without a docstring or type hints is one
    `unstated` line naming it; it does not change the exit code.
    """
    corpus = load_corpus(settings.seeds_dir(), _registry())
    for problem in corpus.problems:
        err_console.print(f"[red]error[/red] {problem}", highlight=False, soft_wrap=True)
    for gap in corpus.gaps:  # the seed still loads: said, not fatal (composition can infer missing types)
        err_console.print(f"[yellow]unstated[/yellow] {gap}", highlight=False, soft_wrap=True)
    gapped = len({gap.path for gap in corpus.gaps})
    console.print(f"{len(corpus.seeds)} valid seed(s), {len(corpus.problems)} with problems"
                  + (f", {gapped} with methods missing docstrings or type hints" if gapped else ""), soft_wrap=True)
    gate_ok = True
    if gate and corpus.seeds:
        gate_ok = gate_seeds(list(corpus.seeds), jobs, mutation, settings.Settings.from_environment())
    if corpus.problems or not gate_ok:
        raise typer.Exit(1)


def _validate_command():
    return validate_command


app.command("validate")(_validate_command())


@app.command("import-classeval")
def import_classeval(
    source: Annotated[str, typer.Argument(help="A ClassEval-format JSON file, or a Hub dataset name with --hub.")],
    hub: Annotated[bool, typer.Option("--hub", help="Treat SOURCE as a Hugging Face dataset name (downloads).")] = False,
    split: Annotated[str, typer.Option(help="Split to read with --hub.")] = "test",
    as_seeds: Annotated[Optional[Path], typer.Option("--as-seeds", help="Write seed folders (the layout of seeds/) under this corpus folder.")] = None,
    domain: Annotated[Optional[str], typer.Option(help="Domain of every imported class (default: ClassEval; with --as-seeds: chosen per class by the registry's keywords).")] = None,
    default_domain: Annotated[Optional[str], typer.Option(help="With --as-seeds: the domain of a class no keyword points at (default: skip it).")] = None,
    licence: Annotated[str, typer.Option(help="With --as-seeds: the licence written into each seed.toml.")] = "unknown",
    ends: Annotated[Optional[Path], typer.Option("--ends", help="With --as-seeds: a TOML file of [[<Class>.produces]] / "
                    "[[<Class>.accepts]] tables that replace the ends derived from those classes' docstrings.")] = None,
    out: Annotated[Optional[Path], typer.Option(help="Folder for the SeedClass JSON records.")] = None,
) -> None:
    """Read ClassEval-format tasks into SeedClass records (one JSON file each), or with --as-seeds into seed
    folders a build can start from (CLASSEVAL_PRO_SEEDS=DIR): the skeleton's docstrings merged into the
    solution, a registered domain per class. Tasks that cannot be used are named, one line each."""
    if as_seeds is not None:
        if hub:
            raise InputError("--as-seeds reads a ClassEval-format JSON file, not --hub")
        result = import_as_seeds(read_classeval_entries(Path(source)), Path(source).name, as_seeds,
                                 settings.domain_registry_path(), domain=domain, default_domain=default_domain,
                                 licence=licence, overlay=read_overlay(ends) if ends else None)
        from rich.markup import escape

        for line in result.skipped:  # escaped: a task's text may hold "[...]" that rich would read as markup
            err_console.print(f"[red]skipped[/red] {escape(line)}", highlight=False, soft_wrap=True)
        for line in result.notes:
            err_console.print(f"[yellow]note[/yellow] {escape(line)}", highlight=False, soft_wrap=True)
        per_domain = ", ".join(f"{name} {len(names)}" for name, names in sorted(result.written.items()))
        console.print(f"wrote {result.count} seed folder(s) into {as_seeds} ({per_domain or 'none'}); "
                      f"{result.docstrings_added} docstring(s) merged from skeletons; {len(result.skipped)} skipped",
                      highlight=False, soft_wrap=True)
        console.print(f"ends (what a class produces and accepts) derived from the docstrings of "
                      f"{len(result.derived_ends)} class(es): {', '.join(result.derived_ends) or '-'}; declared by "
                      f"--ends for {len(result.declared_ends)}: {', '.join(result.declared_ends) or '-'}",
                      highlight=False, soft_wrap=True)
        if not result.count:
            raise typer.Exit(1)
        return
    domain = domain or "ClassEval"
    seeds = read_classeval_hub(source, split, domain) if hub else read_classeval_file(Path(source), domain)
    target = out or settings.artifacts_dir() / "imports" / (Path(source).stem if not hub else source.replace("/", "__"))
    for seed in seeds:
        atomic_write_text(target / f"{seed.seed_id.split('/', 1)[1]}.json", seed.to_json() + "\n")
    console.print(f"imported {len(seeds)} class(es) into {target}")


@app.command()
def build(
    config: Annotated[Optional[Path], typer.Option(help="TOML build configuration; defaults are the offline build.")] = None,
    run_id: Annotated[Optional[str], typer.Option(help="Resume or name a run; default derives from the inputs.")] = None,
    profile: Annotated[bool, typer.Option("--profile", help="Print the time per stage and per step at the end.")] = False,
    backend: Annotated[Optional[str], typer.Option(help="offline | model: backend of enhance and compose ([models].backend).")] = None,
    model: Annotated[Optional[str], typer.Option(help="litellm model for every role, e.g. openai/gpt-4o ([models].model).")] = None,
    enhance_model: Annotated[Optional[str], typer.Option(help="Model of the enhancer role.")] = None,
    compose_model: Annotated[Optional[str], typer.Option(help="Model of the composer role.")] = None,
    test_model: Annotated[Optional[str], typer.Option(help="Model of the test writer role.")] = None,
    reference_model: Annotated[Optional[str], typer.Option(help="Model of the reference writer role.")] = None,
    api_base: Annotated[Optional[str], typer.Option(help="Server of every model (a proxy, vLLM, Ollama).")] = None,
    max_cost: Annotated[Optional[float], typer.Option(help="Budget: most dollars this run may spend on models.")] = None,
    max_calls: Annotated[Optional[int], typer.Option(help="Budget: most model calls this run may make.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Ask the models again instead of using cached answers.")] = False,
    task_runner: Annotated[str, typer.Option(help="thread | dask: what runs the per-record tasks (see More than one machine).")] = "thread",
    dask_address: Annotated[Optional[str], typer.Option(help="tcp://HOST:PORT of a running Dask scheduler (default: a local cluster).")] = None,
    dask_workers: Annotated[int, typer.Option(min=1, help="Worker processes of the local Dask cluster.")] = 2,
) -> None:
    """Run the build flow on the bundled seeds and write the run (and a release) under artifacts/."""
    cfg = apply_build_options(load_config(config), backend=backend, model=model, enhance_model=enhance_model,
                              compose_model=compose_model, test_model=test_model, reference_model=reference_model,
                              api_base=api_base, max_cost_usd=max_cost, max_calls=max_calls, no_cache=no_cache)
    resolved = settings.Settings.from_environment()  # the environment, read once for the whole run
    if (run_id := _checked_run(cfg, resolved, run_id)) is None:  # finished: no Prefect, no file written
        return
    store = ArtifactStore(resolved.artifacts)
    # The Prefect server answers seconds after it starts: Prefect is imported meanwhile.
    server = launch_build_server(Path(os.environ["PREFECT_HOME"]))
    from flows.build import build_flow  # imports Prefect (about two seconds) once its API is set

    try:
        # From here on the signals stop the build (the flow takes them over when it starts); the Prefect
        # server it reports to outlives a terminal's Ctrl-C and is stopped after the build (build_server).
        with stopping.stop_on_signals(), build_server(Path(os.environ["PREFECT_HOME"]), server):
            try:
                runner = runner_from_options(task_runner, jobs=cfg.jobs, dask_address=dask_address,
                                             dask_workers=dask_workers)
                summary = build_flow.with_options(task_runner=runner)(cfg, run_id)
            finally:
                stop_watch()  # before its server stops, which it would report as lost
    except stopping.BuildStopped as stop:
        _print_stop(run_id, stop)
        if stopping.abandoned_threads():
            _end_process(stop.exit_code)
        raise typer.Exit(stop.exit_code) from None
    console.print(f"run {summary.run_id}: {summary.run_dir}", highlight=False, soft_wrap=True)
    if profile:
        console.print(format_profile(step_times()), highlight=False, soft_wrap=True)
    for name, count in summary.funnel.stages.items():
        rejected = ", ".join(f"{reason.value} {n}" for reason, n in sorted(count.rejected.items())) or "none"
        console.print(f"  {name:<13} received {count.received:>5}  accepted {count.accepted:>5}  rejected: {rejected}",
                      highlight=False, soft_wrap=True)
    if reused := reuse_sentence(summary.run_dir):
        console.print(f"  results reused from earlier runs: {reused}", highlight=False, soft_wrap=True)
    if (figures := read_agreement(store, summary.run_id)) is not None:
        for line in agreement_lines(figures):
            console.print(line, highlight=False, soft_wrap=True)
    if summary.release_version:
        console.print(f"release {summary.release_version}: {summary.release_path}", highlight=False, soft_wrap=True)
    else:
        console.print(summary.release_message, highlight=False, soft_wrap=True)
    for line in summary_lines(summary.run_dir):
        console.print(line, highlight=False, soft_wrap=True, markup=False)


def _checked_run(cfg, resolved: settings.Settings, run_id: str | None) -> str | None:  # noqa: ANN001 - BuildConfig
    """The run to build, its configuration recorded; None for a finished run, whose outcome is printed.

    The inputs are checked before Prefect starts its work (an input error raised inside the flow is logged
    with a traceback): a broken seed or setting ends here with one line."""
    if cfg.models.uses_models:  # a missing key: exit 2 now, not retried server errors in every stage
        roles = ("enhancer", "composer", "test_writer", "reference_writer")
        check_models(dict.fromkeys(n for n in (getattr(cfg.models, r) or cfg.models.model for r in roles) if n),
                     resolved.model_keys, api_base=cfg.models.api_base, option="[models]")
    check_models(cfg.judges.models, resolved.model_keys, api_base=cfg.judges.api_base, option="[judges] models")
    _, seeds = load_seed_records(cfg, resolved)
    cfg.sandbox_interpreter()
    run_id = run_id or default_run_id(cfg, seeds, resolved)
    store = ArtifactStore(resolved.artifacts)
    # A finished run is a record: say how it ended and touch nothing (no Prefect, no file written).
    if (outcome := runs.finished_outcome(store, run_id)) is not None:
        console.print(outcome.sentence(), highlight=False, soft_wrap=True)
        return None
    for warning in cfg.judges.warnings:  # a setting that weakens the release: said before anything runs
        err_console.print(f"[yellow]warning[/yellow] {escape(warning)}", highlight=False, soft_wrap=True)
    runs.record_configuration(store, run_id, cfg)  # a resumed run under another configuration ends here
    return run_id


def _end_process(exit_code: int) -> None:
    """End a stopped build whose worker threads still wait (on a model answer): the interpreter's exit would
    join them, for as long as the call's time limit. The stop and its funnel are written by now.

    The exit handlers still run (`atexit._run_exitfuncs`, CPython's own entry to them): Prefect's workers
    flush, and the sandbox removes what an abandoned thread may have opened (`remove_own_leftovers`).
    """
    import atexit

    atexit._run_exitfuncs()  # includes logging.shutdown
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(exit_code)


def _print_stop(run_id: str, stop) -> None:
    """How far a stopped build got, from the funnel it saved."""
    path = settings.artifacts_dir() / "runs" / run_id / "funnel.json"
    funnel = Funnel.from_json(path.read_bytes()) if path.is_file() else None
    where = funnel.stopped if funnel else None
    finished = ", ".join(funnel.stages) if funnel and funnel.stages else "none"
    during = ""
    if where and where.stage:
        during = f" during {where.stage}" + (f" ({where.done} of {where.total} done)" if where.total else "")
    err_console.print(f"{stop.cause}{during}; finished stages: {finished}.", highlight=False, soft_wrap=True)
    err_console.print(f"Finished records are kept under {path.parent}; rerun the same command to resume.",
                      highlight=False, soft_wrap=True)


# Release commands live with the release stage; registered here so that they share the one app.
from commands.judge import judge_command  # noqa: E402 - likewise
from commands.mine import mine_command  # noqa: E402 - likewise
from commands.release import publish_command, release_app  # noqa: E402 - after the app is defined

app.command("publish")(publish_command)
app.command("judge")(judge_command)
app.command("mine")(mine_command)
from commands.serve import serve_command  # noqa: E402
from commands.cache import cache_command  # noqa: E402 - likewise

app.command("serve")(serve_command)
app.command("cache")(cache_command)
app.add_typer(release_app, name="release")
from commands.evaluate import eval_command  # noqa: E402 - the evaluation harness's command

app.command("eval")(eval_command)


def main() -> None:
    """Console entry point: one readable line per error, a traceback only with --debug."""
    from typer.main import get_command

    parse_lock.install()  # before any command parses code next to a thread (see parse_lock)
    # Installed, not assumed: started in the background by a shell without job control, this process
    # inherits SIGINT ignored, and a Ctrl-C (or a test's SIGINT) would then do nothing at all.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    debug = "--debug" in sys.argv
    try:
        tidy_help(get_command(app))(prog_name="classeval-pro")
    except InputError as exc:
        if debug:
            raise
        from rich.markup import escape  # a message naming a TOML section ("[models]") is not markup

        err_console.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(2)
    except KeyboardInterrupt:
        err_console.print("interrupted; completed records are kept and a rerun resumes")
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - the last line of defence prints one line, not a traceback
        if debug:
            raise
        from rich.markup import escape

        err_console.print(f"[red]error:[/red] {type(exc).__name__}: {escape(str(exc))} "
                          "(rerun with --debug for details)",
                          highlight=False, soft_wrap=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
