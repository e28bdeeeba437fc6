"""The shape every stage takes: one object per stage under one driver, folder names spelt only by the
`Stage` and `Folder` enums, Prefect only in flows/, and no stage reading the environment."""

from __future__ import annotations

import ast
from pathlib import Path

from pipeline.base.layout import Stage

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("pipeline", "judges", "validation", "flows")
STORE_CALLS = {"write", "has", "read", "iter_records", "stage_dir", "record_path"}  # ArtifactStore's (run, folder, ...)


def _sources(*packages: str) -> list[Path]:
    return [path for package in packages for path in sorted((ROOT / package).rglob("*.py"))]


def _tree(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_every_stage_is_one_object_of_the_protocol():
    from pipeline import stages
    from pipeline.funnel import Funnel
    from pipeline.mining.stage import MineStage
    from pipeline.models.stage import ModelStage

    objects = [stages.SeedsStage(), stages.SynthesisStage(Stage.ENHANCE), stages.SynthesisStage(Stage.COMPOSE),
               MineStage(), stages.GateStage(), stages.RepairStage(), stages.JudgeStage(),
               stages.ReleaseStage(Funnel(run_id="r"))]
    assert [o.stage for o in objects] == list(Stage)
    assert {ModelStage(Stage.ENHANCE).stage, ModelStage(Stage.COMPOSE).stage} == {Stage.ENHANCE, Stage.COMPOSE}
    protocol = ("finished", "items", "is_done", "needs_pool", "open", "run_one", "waves", "enough", "finish")
    for stage in objects:
        assert all(callable(getattr(stage, name)) for name in protocol), stage


def test_folders_are_named_by_the_enums_only():
    """A store call never spells a folder: its second argument is never a string literal."""
    spelt = []
    for path in _sources(*PACKAGES):
        for node in ast.walk(_tree(path)):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STORE_CALLS
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                    and isinstance(node.args[1].value, str)):
                spelt.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.args[1].value!r}")
    assert not spelt, spelt


def test_prefect_is_imported_in_flows_only():
    found = []
    for path in _sources("pipeline", "judges", "validation"):
        for node in ast.walk(_tree(path)):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n.split(".")[0] == "prefect"]
    assert not found, found


def test_no_stage_reads_the_environment():
    """The stages and what they call get the run's `Settings` from the driver (pipeline/driver.py); only the
    commands, the flow and the settings module itself read the environment."""
    stage_modules = [ROOT / "pipeline" / name for name in ("stages.py", "driver.py", "runs.py", "base/layout.py")] + [
        ROOT / "pipeline" / "mining" / name for name in ("stage.py", "github_source.py", "local.py")] + [
        ROOT / "pipeline" / "models" / "stage.py", ROOT / "judges" / "stage.py", ROOT / "judges" / "panel.py"]
    readers = []
    for path in stage_modules:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                    (node.value.id == "os" and node.attr in ("environ", "getenv"))
                    or (node.value.id == "settings" and node.attr.endswith(("_dir", "_path")))):
                readers.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value.id}.{node.attr}")
    assert not readers, readers
