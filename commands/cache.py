"""`classeval-pro cache`: the stages' results kept across runs (core/results.py), and the other caches of
the artifact tree (model answers, judges' verdicts): their size and hit rates, and pruning what no recent
run used (registered in commands/main.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from core.content_files import ContentFiles
from core.results import ResultStore, StageUsage
from core.settings import Settings
from pipeline.stages.config import load_config
from pipeline.stages.reuse import result_store

console = Console(emoji=False)


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n:.1f} GiB"


def usage_totals(store: ResultStore, last_runs: int) -> dict[str, StageUsage]:
    """Hits, misses and kept results per stage over the last `last_runs` runs that used the store."""
    totals: dict[str, StageUsage] = {}
    for usage in store.runs()[-last_runs:] if last_runs > 0 else []:
        for stage, counts in usage.stages.items():
            before = totals.get(stage, StageUsage())
            totals[stage] = StageUsage(hits=before.hits + counts.hits, misses=before.misses + counts.misses,
                                       stored=before.stored + counts.stored)
    return totals


def cache_command(
    prune: Annotated[bool, typer.Option("--prune", help="Remove the results none of the last --keep-runs runs used.")] = False,
    keep_runs: Annotated[int, typer.Option(min=0, help="Runs whose results --prune keeps (and whose hits are shown).")] = 3,
    config: Annotated[Optional[Path], typer.Option(help="TOML build configuration whose [cache] path to read.")] = None,
    path: Annotated[Optional[Path], typer.Option(help="The result store's folder (default: [cache] path, else artifacts/cache/results).")] = None,
) -> None:
    """Show the result store's size and hit rates per stage (over the last --keep-runs runs), and the model
    answer and verdict caches' sizes; with --prune, remove the results no recent run used."""
    settings = Settings.from_environment()
    store = ResultStore(path) if path is not None else result_store(load_config(config), settings, enabled_only=False)
    if prune:
        removed, freed = store.prune(keep_runs)
        console.print(f"pruned {removed} results ({_size(freed)}) that none of the last {keep_runs} runs used",
                      highlight=False)
    totals = usage_totals(store, keep_runs)
    table = Table(title=f"results kept across runs: {store.root}", title_justify="left")
    for column in ("stage", "results", "size", "hits", "misses", "hit rate"):
        table.add_column(column, justify="left" if column == "stage" else "right")
    for stage in sorted(set(store.stages()) | set(totals)):
        entries, size = store.size(stage)
        used = totals.get(stage, StageUsage())
        asked = used.hits + used.misses
        table.add_row(stage, str(entries), _size(size), str(used.hits), str(used.misses),
                      f"{used.hits / asked:.0%}" if asked else "-")
    console.print(table)
    console.print(f"hits over the last {min(keep_runs, len(store.runs()))} of {len(store.runs())} runs that used it",
                  highlight=False)
    for name, folder in (("model answers", settings.model_cache), ("judges' verdicts", settings.verdict_cache)):
        entries, size = ContentFiles(folder).size()
        console.print(f"{name}: {entries} ({_size(size)}) in {folder}", highlight=False)
