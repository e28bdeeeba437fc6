"""Reading ClassEval-format data (a JSON list of task objects) into `SeedClass` records.

ClassEval's `test` field is written to be pasted after the solution, so it names the class without
importing it. To run it as its own module, the tests are prefixed with a star import of the solution
module and the solution's own import lines (tests often use them too). unittest-style classes run under
pytest unchanged.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.module_names import task_module_name
from core.records import Provenance, SeedClass

REQUIRED_FIELDS = ("task_id", "class_name", "solution_code", "test")
IMPORT_SOURCE = "ClassEval-format import"  # how an imported class's provenance begins


def imported(seed: SeedClass) -> bool:
    """Whether `import-classeval --as-seeds` wrote this seed: its ends were read from its docstrings, and its
    docstrings were not written with the tests the pipeline writes (they often leave a list's order open)."""
    return (seed.provenance.source or "").startswith(IMPORT_SOURCE)


def _description(text: str) -> str:
    """ClassEval's `class_description` is the class docstring as written, quotes and indentation included:
    one line of prose without them."""
    return " ".join(text.strip().strip('"').strip("'").split())


def module_name_for(class_name: str) -> str:
    """snake_case module name for a class: `BankAccount` -> `bank_account`."""
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", class_name).lower()
    return task_module_name(re.sub(r"\W", "_", snake))


def _import_lines(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [line for line in value.splitlines() if line.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v for v in value if v.strip()]
    raise ValueError("import_statement must be a string or a list of strings")


def classeval_entry_to_seed(entry: dict[str, Any], where: str, domain: str) -> SeedClass:
    """Convert one ClassEval object; `where` names it in errors (file and index)."""
    if not isinstance(entry, dict):
        raise InputError(f"{where}: expected an object, got {type(entry).__name__}")
    missing = [f for f in REQUIRED_FIELDS if not isinstance(entry.get(f), str) or not entry.get(f).strip()]
    if missing:
        raise InputError(f"{where}: missing or empty field(s) {', '.join(missing)}")
    try:
        imports = _import_lines(entry.get("import_statement"))
    except ValueError as exc:
        raise InputError(f"{where} ({entry['task_id']}): field import_statement: {exc}") from None
    class_name = entry["class_name"]
    module = module_name_for(class_name)
    header = "\n".join(imports)
    source = (header + "\n\n" if header else "") + entry["solution_code"].strip() + "\n"
    tests = "\n".join([f"from {module} import *", *imports, "", entry["test"].strip(), ""])
    return SeedClass(
        seed_id=f"{domain}/{entry['task_id']}",
        domain=domain,
        name=module,
        class_name=class_name,
        description=_description(entry.get("class_description") or "") or f"The {class_name} class.",
        source=source,
        tests=tests,
        provenance=Provenance(source=f"{IMPORT_SOURCE}: {entry['task_id']}"),
    )


def read_classeval_file(path: Path, domain: str = "ClassEval") -> list[SeedClass]:
    """Read a ClassEval-format JSON file (a list of task objects)."""
    return [classeval_entry_to_seed(entry, f"{path}[{i}]", domain) for i, entry in enumerate(read_classeval_entries(path))]


def read_classeval_entries(path: Path) -> list[Any]:
    """The task objects of a ClassEval-format JSON file, unchecked (each reader checks the fields it uses)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a JSON list of ClassEval task objects")
    return data


def read_classeval_hub(name: str, split: str = "test", domain: str = "ClassEval") -> list[SeedClass]:
    """Load a ClassEval-format dataset from the Hugging Face Hub. Reaches the network: only on request."""
    os.environ.pop("HF_HUB_OFFLINE", None)
    os.environ.pop("HF_DATASETS_OFFLINE", None)
    import datasets  # imported here: it is slow, and only this path may download

    rows = datasets.load_dataset(name, split=split)
    return [classeval_entry_to_seed(dict(row), f"{name}[{i}]", domain) for i, row in enumerate(rows)]
