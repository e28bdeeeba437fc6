"""The release's data as parquet through `datasets`, and reading it back as `Task` records exactly.

The schema is spelled out (`task_features`) rather than inferred: inference from a handful of rows
guesses types from values (an all-None column becomes `null`, an empty list loses its item type), and the
splits of different versions must share one schema for `load_dataset` to read them together. Open-ended
JSON (generator and judge parameters) is stored as JSON text; everything else is a typed column or struct,
so ClassEval tooling sees `methods_info[].dependencies` as nested records.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.records import Task
from pipeline.release.family import one_per_family as first_of_each_family
from pipeline.release.versioning import sorted_versions

DATA_DIR = "data"


def split_file(version: str) -> str:
    """Path of a version's split inside a release folder."""
    return f"{DATA_DIR}/{version}.parquet"


def task_features():
    """The `datasets.Features` every split shares."""
    from datasets import Features, List, Value

    string, strings = Value("string"), List(Value("string"))
    spec = {"backend": string, "model": string, "prompt_version": string, "parameters": string}
    return Features({
        "task_id": string, "skeleton": string, "test": string, "solution_code": string,
        "import_statement": strings, "class_name": string, "class_description": string,
        "class_constructor": string, "fields": strings, "test_classes": strings,
        "methods_info": List({
            "method_name": string, "method_description": string, "test_class": string, "test_code": string,
            "solution_code": string,
            "dependencies": {"Standalone": Value("bool"), "lib_dependencies": strings,
                             "field_dependencies": strings, "method_dependencies": strings},
        }),
        "module_name": string, "domains": strings, "origin": string,
        "provenance": {"seed_ids": strings, "transforms": strings, "rng_seed": Value("int64"), "repository": string,
                       "commit": string, "path": string, "licence": string, "first_commit_date": string,
                       "source": string, "first_commit": string},
        "generator": spec,
        "source_date": string,
        "metrics": List({"name": string, "value": Value("float64")}),
        "verdicts": List({"candidate_id": string, "judge": {**spec, "name": string, "prompt": string},
                          "decision": string,
                          "findings": List({"criterion": string, "ok": Value("bool"), "note": string}),
                          "raw_response": string}),
        "candidate_id": string,
        "requires_python": string,
        "family": string,
        "variant_rank": Value("int64"),
    })


def _spec_row(spec: dict[str, Any]) -> dict[str, Any]:
    return {**spec, "parameters": json.dumps(spec["parameters"], sort_keys=True)}


def task_to_row(task: Task) -> dict[str, Any]:
    row = task.model_dump(mode="json")
    row["generator"] = _spec_row(row["generator"])
    row["metrics"] = [{"name": k, "value": v} for k, v in sorted(row["metrics"].items())]
    row["verdicts"] = [{**v, "judge": _spec_row(v["judge"])} for v in row["verdicts"]]
    return row


def row_to_task(row: dict[str, Any]) -> Task:
    data = dict(row)
    data["generator"] = {**data["generator"], "parameters": json.loads(data["generator"]["parameters"])}
    data["metrics"] = {m["name"]: m["value"] for m in data["metrics"]}
    data["verdicts"] = [{**v, "judge": {**v["judge"], "parameters": json.loads(v["judge"]["parameters"])}}
                        for v in data["verdicts"]]
    return Task.model_validate(data)


def _quiet_datasets() -> None:
    from datasets.utils.logging import disable_progress_bar

    disable_progress_bar()  # progress bars are noise in a build log and in test output


def write_split(tasks: Sequence[Task], path: Path) -> None:
    """Write one split as parquet through `datasets`, with the shared schema."""
    from datasets import Dataset

    _quiet_datasets()
    path.parent.mkdir(parents=True, exist_ok=True)
    Dataset.from_list([task_to_row(t) for t in tasks], features=task_features()).to_parquet(str(path))


def read_split(path: Path) -> list[Task]:
    """Tasks of one parquet split file (used for dedup against earlier releases; no dataset cache)."""
    import pyarrow.parquet as pq

    try:
        rows = pq.read_table(path).to_pylist()
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable parquet split: {exc}") from None
    return [row_to_task(r) for r in rows]


def has_current_schema(path: Path) -> bool:
    """Whether a split file has exactly the columns of `task_features` (a split written before a column
    was added lacks it, and `load_dataset` refuses splits of different schemas in one folder)."""
    import pyarrow.parquet as pq

    return set(pq.read_schema(path).names) == set(task_features())


def load_release(path: Path | str, *, one_per_family: bool = False) -> list[Task]:
    """Every task of a release folder, read with `datasets.load_dataset` on the folder (its README's
    `configs` name the splits), oldest split first, rows in file order.

    `one_per_family=True` keeps one task per family (`pipeline.release.family`): a sample without
    near-variants, such as two enhancements of one seed. The task kept for a family is its first choice
    (`variant_rank` 1, `pipeline.release.variants`), the choice deduplication made too.

    The dataset cache goes to a temporary folder that is removed afterwards: a release is small, and a
    cache keyed by file path would otherwise grow with every verification.
    """
    from datasets import load_dataset

    folder = Path(path)
    if not (folder / "README.md").is_file():
        raise InputError(f"{folder}: not a release folder (no README.md)")
    _quiet_datasets()
    cache = tempfile.mkdtemp(prefix="classeval-pro-load-")
    try:
        splits = load_dataset(str(folder), cache_dir=cache)
        tasks: list[Task] = []
        for name in sorted_versions(splits.keys()) + sorted(k for k in splits.keys() if k not in sorted_versions(splits.keys())):
            tasks.extend(row_to_task(row) for row in splits[name])
        if one_per_family:
            return first_of_each_family(tasks)
        return tasks
    finally:
        shutil.rmtree(cache, ignore_errors=True)
