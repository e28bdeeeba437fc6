"""The project's layers depend one way, over the whole import graph (`tests/import_graph.py` names the layers).

A layer is a top-level folder, so where a file stands says what it may import: no table of exceptions places a
module anywhere but in its folder's layer. Every project import counts, at a module's top, inside a function or
under `if TYPE_CHECKING`: moving an import into a function keeps the dependency, so it can hide neither an
upward import nor a cycle.
"""

from __future__ import annotations

from pathlib import Path

from tests.import_graph import (
    LAYERS,
    ROOT,
    folder_of,
    graph,
    imports,
    layer_of,
    may_import,
    project_modules,
    strongly_connected,
)

# The imports that stay inside a function, each for a reason its line's comment gives: Prefect costs about a
# second at import and reads its settings then (the build and serve commands import it only when they run),
# and the sandbox worker imports its own modules only after it has set its path and before its snapshot.
# A new one fails here until it is listed with its reason; one that moved to the top fails until it is removed.
FUNCTION_LEVEL: set[tuple[str, str]] = {
    ("commands.main", "flows.build"),
    ("commands.serve", "flows.schedule"),
    ("validation.sandbox.worker", "validation.sandbox.child"),
    ("validation.sandbox.worker", "validation.sandbox.clock"),
    ("validation.sandbox.worker", "validation.sandbox.interaction"),
}


def _where(edge) -> str:
    return f"{edge.importer}:{edge.line} -> {edge.imported} ({layer_of(edge.importer)} -> {layer_of(edge.imported)})"


def test_every_module_lies_in_a_layer_folder():
    """The layers are the top-level packages; no module of the project lives anywhere else."""
    assert {layer_of(module) for module in project_modules()} == set(LAYERS)
    stray = sorted(p.name for p in ROOT.glob("*.py"))
    assert not stray, stray


def test_no_module_imports_a_layer_above_it():
    upward = [_where(edge) for edge in imports() if not may_import(edge.importer, edge.imported)]
    assert not upward, upward


def test_core_imports_nothing_else_of_the_project():
    outside = [_where(edge) for edge in imports()
               if layer_of(edge.importer) == "core" and layer_of(edge.imported) != "core"]
    assert not outside, outside


def test_validation_the_model_client_and_the_judges_import_only_core():
    """The sandbox worker imports `validation` with only the standard library, pytest and coverage on its
    path, and the gate must not depend on what it gates; the model client serves judges and stages alike;
    the judges are handed the sandbox and the model client through protocols of `core`."""
    outside = [_where(edge) for edge in imports()
               if layer_of(edge.importer) in ("validation", "models", "judges")
               and layer_of(edge.imported) not in ("core", layer_of(edge.importer))]
    assert not outside, outside


def test_no_import_cycles_between_modules():
    cycles = strongly_connected(graph(imports()))
    assert not cycles, cycles


def test_no_arrow_runs_back_up_between_folders():
    """Drawn by folder (each folder a room, each import an arrow), the tree has floors: no two folders reach
    each other, so a subfolder is either below its parent's files or above them, never both."""
    cycles = strongly_connected(graph(imports(), folder_of))
    assert not cycles, cycles


def test_imports_inside_functions_are_the_listed_few():
    found = {(edge.importer, edge.imported) for edge in imports() if edge.function_level}
    assert found == FUNCTION_LEVEL, (sorted(found - FUNCTION_LEVEL), sorted(FUNCTION_LEVEL - found))
    modules = project_modules()
    for edge in imports():
        if edge.function_level:
            line = modules[edge.importer].read_text(encoding="utf-8").splitlines()[edge.line - 1]
            assert "#" in line, f"{edge.importer}:{edge.line}: say on the line why this import stays in a function"


def test_the_reader_finds_every_kind_of_import(tmp_path: Path):
    """Function-level, type-checking-only, relative and `from package import module` imports are edges."""
    for folder in ("core", "validation", "judges", "flows"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "core" / "records.py").write_text(
        "def f():\n    from validation import gate\n", encoding="utf-8")
    (tmp_path / "validation" / "gate.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from judges.panel import Panel\n"
        "from . import policy\nimport json\n", encoding="utf-8")
    (tmp_path / "validation" / "policy.py").write_text("from core import records\n", encoding="utf-8")
    (tmp_path / "judges" / "panel.py").write_text("import flows.build as b\n", encoding="utf-8")
    (tmp_path / "flows" / "build.py").write_text("x = 1\n", encoding="utf-8")
    found = {(e.importer, e.imported, e.function_level, e.type_checking) for e in imports(tmp_path)}
    assert found == {
        ("core.records", "validation.gate", True, False),
        ("validation.gate", "judges.panel", False, True),
        ("validation.gate", "validation.policy", False, False),
        ("validation.policy", "core.records", False, False),
        ("judges.panel", "flows.build", False, False),
    }
    upward = {(e.importer, e.imported) for e in imports(tmp_path) if not may_import(e.importer, e.imported)}
    assert upward == {("core.records", "validation.gate"), ("validation.gate", "judges.panel"),
                      ("judges.panel", "flows.build")}
    assert strongly_connected(graph(imports(tmp_path))) == [["core.records", "validation.gate", "validation.policy"]]
    assert strongly_connected(graph(imports(tmp_path), lambda m: folder_of(m, tmp_path))) == [["core", "validation"]]
