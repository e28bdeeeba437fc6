"""The project's layers depend one way, over the whole import graph (`tests/import_graph.py` draws the layers).

Every project import counts, at a module's top, inside a function or under `if TYPE_CHECKING`: moving an
import into a function keeps the dependency, so it can hide neither an upward import nor a cycle.
"""

from __future__ import annotations

from pathlib import Path

from tests.import_graph import graph, imports, layer_of, may_import, project_modules, strongly_connected

# Cycles between modules still to be removed, listed rather than ignored: a new cycle fails, and so does an
# entry here once its cycle is gone. None is left.
PENDING_CYCLES: set[frozenset[str]] = set()


def _where(edge) -> str:
    return f"{edge.importer}:{edge.line} -> {edge.imported} ({layer_of(edge.importer)} -> {layer_of(edge.imported)})"


def test_no_module_imports_a_layer_above_it():
    upward = [_where(edge) for edge in imports() if not may_import(edge.importer, edge.imported)]
    assert not upward, upward


def test_the_base_layer_imports_nothing_else_of_the_project():
    outside = [_where(edge) for edge in imports()
               if layer_of(edge.importer) == "base" and layer_of(edge.imported) != "base"]
    assert not outside, outside


def test_validation_the_model_client_and_the_judges_import_only_the_base_layer():
    """The sandbox worker imports `validation` with only the standard library, pytest and coverage on its
    path, and the gate must not depend on what it gates; the model client serves judges and stages alike;
    the judges are handed the sandbox and the model client through protocols of the base layer."""
    outside = [_where(edge) for edge in imports()
               if layer_of(edge.importer) in ("validation", "models", "judges")
               and layer_of(edge.imported) not in ("base", layer_of(edge.importer))]
    assert not outside, outside


def test_the_judges_package_holds_only_the_judge_stage_and_command_above_its_layer():
    """A module of `judges/` placed in a higher layer escapes the rule above: only the build's judge stage
    and the `judge` command are."""
    placed = {module for module in project_modules() if module.startswith("judges")
              and layer_of(module) != "judges"}
    assert placed == {"judges.stage", "judges.cli"}


def test_no_import_cycles_between_modules():
    cycles = {frozenset(component) for component in strongly_connected(graph(imports()))}
    assert cycles - PENDING_CYCLES == set(), sorted(map(sorted, cycles - PENDING_CYCLES))
    assert PENDING_CYCLES <= cycles, f"no longer a cycle, drop it from PENDING_CYCLES: {PENDING_CYCLES - cycles}"


def test_the_reader_finds_every_kind_of_import(tmp_path: Path):
    """Function-level, type-checking-only, relative and `from package import module` imports are edges."""
    for folder in ("pipeline/base", "validation", "judges", "flows"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pipeline" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pipeline" / "base" / "records.py").write_text(
        "def f():\n    from validation import gate\n", encoding="utf-8")
    (tmp_path / "validation" / "gate.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from judges.panel import Panel\n"
        "from . import policy\nimport json\n", encoding="utf-8")
    (tmp_path / "validation" / "policy.py").write_text("from pipeline.base import records\n", encoding="utf-8")
    (tmp_path / "judges" / "panel.py").write_text("import flows.build as b\n", encoding="utf-8")
    (tmp_path / "flows" / "build.py").write_text("x = 1\n", encoding="utf-8")
    found = {(e.importer, e.imported, e.function_level, e.type_checking) for e in imports(tmp_path)}
    assert found == {
        ("pipeline.base.records", "validation.gate", True, False),
        ("validation.gate", "judges.panel", False, True),
        ("validation.gate", "validation.policy", False, False),
        ("validation.policy", "pipeline.base.records", False, False),
        ("judges.panel", "flows.build", False, False),
    }
    upward = {(e.importer, e.imported) for e in imports(tmp_path) if not may_import(e.importer, e.imported)}
    assert upward == {("pipeline.base.records", "validation.gate"), ("validation.gate", "judges.panel"),
                      ("judges.panel", "flows.build")}
    assert strongly_connected(graph(imports(tmp_path))) == [
        ["pipeline.base.records", "validation.gate", "validation.policy"]]
