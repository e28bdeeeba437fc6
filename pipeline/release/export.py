"""The ClassEval-compatible JSON export (`classeval.json`).

A ClassEval harness pastes a task's solution (or a model's completion) and its `test` into one file and
runs it. Our tests are modules of their own that import the class (`from <module> import Counter`); in a
pasted file that import would look for a module that does not exist. So the export's `test` has every
top-level `from <module_name> import ...` statement removed; the class is then the one defined just above.
A plain `import <module_name>` (tests that write `module.Class`) cannot be rewritten safely and is left as
is; such tasks are listed in the release's manifest under `export_notes`.
Our tests are pytest-style: a harness that only runs `unittest.TestCase` classes sees the test classes and
not the bare test functions; `test_classes` lists both kinds.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Sequence

from pipeline.records import Task


def strip_module_import(test: str, module_name: str) -> tuple[str, bool]:
    """(`test` without top-level `from module_name import ...` lines, whether a plain import remains)."""
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return test, False
    lines = test.splitlines(keepends=True)
    drop: set[int] = set()
    plain_import = False
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == module_name:
            drop.update(range(node.lineno - 1, node.end_lineno or node.lineno))
        elif isinstance(node, ast.Import) and any(a.name == module_name for a in node.names):
            plain_import = True
    return "".join(line for i, line in enumerate(lines) if i not in drop), plain_import


def classeval_entry(task: Task) -> tuple[dict, bool]:
    test, plain_import = strip_module_import(task.test, task.module_name)
    entry = {
        "task_id": task.task_id,
        "skeleton": task.skeleton,
        "test": test,
        "solution_code": task.solution_code,
        "import_statement": list(task.import_statement),
        "class_description": task.class_description,
        "methods_info": [m.model_dump(mode="json") for m in task.methods_info],
        "class_name": task.class_name,
        "test_classes": list(task.test_classes),
        "class_constructor": task.class_constructor,
        "fields": list(task.fields),
        "source_date": task.source_date,
    }
    return entry, plain_import


def classeval_json(tasks: Sequence[Task]) -> tuple[str, list[str]]:
    """(the export's text, ids of tasks whose test still imports its module)."""
    entries, notes = [], []
    for task in tasks:
        entry, plain_import = classeval_entry(task)
        entries.append(entry)
        if plain_import:
            notes.append(task.task_id)
    return json.dumps(entries, indent=2, ensure_ascii=False) + "\n", notes
