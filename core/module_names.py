"""The module name a task's class lives in, chosen so that nothing else answers to it in the sandbox.

Every source of tasks names the module after its class in snake case, and each once did so on its own; a
name that is already taken then breaks the task in ways that look like a wrong class, not a wrong name:

- a standard-library name (`queue.py` for a `Queue`): the driver has imported the standard library's
  module first, so every scenario ran that class and no call of the task's own was ever observed;
- a file of the sandbox job (`literals.py`, `conftest.py`) or a package its runner imports (`pytest`,
  `coverage`): the task's module replaces it;
- `test_*` or `*_test` (pytest's default file patterns): pytest collects the solution module as a test
  file, while a name such as `tested_ledger` matches neither and is kept;
- not an identifier at all: it cannot be imported.

Such a name gets the prefix `m_`; every other name is kept as it is.
"""

from __future__ import annotations

import sys

TAKEN_MODULE_NAMES: frozenset[str] = frozenset(sys.stdlib_module_names) | frozenset({
    # what a sandbox job imports besides the task's module: its own files (pipeline/synthesis/sandbox_files,
    # the gate's conftest) and the packages its runner uses
    "argument_tracer", "example_check", "example_conftest", "job_output", "literals", "oracle_conftest",
    "oracle_driver", "conftest", "sitecustomize", "usercustomize", "pytest", "_pytest", "pluggy", "iniconfig",
    "packaging", "coverage", "validation", "pipeline"})


def task_module_name(snake_name: str) -> str:
    """`snake_name`, or `m_` and it when the sandbox already answers to that name (see the module's doc)."""
    taken = snake_name in TAKEN_MODULE_NAMES or snake_name.startswith("test_") or snake_name.endswith("_test") or not snake_name.isidentifier()
    return f"m_{snake_name}" if taken else snake_name
