"""The project's layers depend one way: `validation` and the base layer never import the rest of `pipeline`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = ("pipeline.base.records", "pipeline.base.errors", "pipeline.base.timing", "pipeline.base.analysis")


def _project_imports(path: Path) -> set[str]:
    """Every module of the project that `path` imports, at top level or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.split(".")[0] in ("pipeline", "validation", "flows", "judges")}


def _is_base(module: str) -> bool:
    return any(module == base or module.startswith(base + ".") for base in BASE)


def test_validation_imports_only_the_base_layer():
    offending = {
        f"{path.relative_to(ROOT)}: {module}"
        for path in sorted((ROOT / "validation").rglob("*.py"))
        for module in _project_imports(path)
        if module.startswith("pipeline") and not _is_base(module)
    }
    assert not offending, sorted(offending)


def test_base_layer_imports_nothing_above_it():
    paths = [ROOT / "pipeline" / "records.py", ROOT / "pipeline" / "errors.py", ROOT / "pipeline" / "timing.py",
             *sorted((ROOT / "pipeline" / "analysis").rglob("*.py"))]
    offending = {
        f"{path.relative_to(ROOT)}: {module}"
        for path in paths
        for module in _project_imports(path)
        if not _is_base(module)
    }
    assert not offending, sorted(offending)
