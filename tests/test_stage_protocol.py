"""The shape every stage takes: one object per stage under one driver, folder names spelt only by the
`Stage` and `Folder` enums, Prefect only in flows/, and no stage reading the environment."""

from __future__ import annotations

import ast
from pathlib import Path

from core.layout import Stage

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("pipeline", "judges", "validation", "flows")
STORE_CALLS = {"write", "has", "read", "iter_records", "stage_dir", "record_path"}  # ArtifactStore's (run, folder, ...)


def _sources(*packages: str) -> list[Path]:
    return [path for package in packages for path in sorted((ROOT / package).rglob("*.py"))]


def _tree(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_every_stage_is_one_object_of_the_protocol():
    from core.funnel import Funnel
    from pipeline.stages.gate import GateStage
    from pipeline.stages.judge import JudgeStage
    from pipeline.stages.mine import MineStage
    from pipeline.stages.mined_seeds import MinedSeedsStage
    from pipeline.stages.model import ModelStage
    from pipeline.stages.release import ReleaseStage
    from pipeline.stages.repair import RepairStage
    from pipeline.stages.seeds import SeedsStage
    from pipeline.stages.synthesis import SynthesisStage

    objects = [SeedsStage(), MineStage(), MinedSeedsStage(), SynthesisStage(Stage.ENHANCE),
               SynthesisStage(Stage.COMPOSE), GateStage(), RepairStage(), JudgeStage(),
               ReleaseStage(Funnel(run_id="r"))]
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


# Modules below the commands that touch the process environment, and why that is no setting read there.
ENVIRONMENT_TOUCHED = {
    "core/settings.py": "resolves the settings: the one reader",
    "pipeline/evaluation/inspect_task.py": "an entry point: Inspect AI loads it as a task file",
    "models/client.py": "sets litellm's local price map switch before importing it; reads no value",
    "pipeline/corpus/classeval.py": "lifts the Hub's offline switches before `datasets` downloads, on request only",
    "pipeline/mining/gitrepo.py": "hands the process environment on to git, the child it runs",
    "pipeline/synthesis/sandbox_files/oracle_driver.py": "runs inside the sandbox, not in the pipeline",
    "validation/sandbox/child.py": "builds a sandboxed run's clean environment inside the sandbox",
}


def _is_command(path: Path) -> bool:
    return path.parts[0] == "flows" or path.stem in ("cli", "cli_help")


def test_nothing_below_the_commands_reads_the_environment():
    """The stages and everything they call get the run's `Settings` from whoever started the run (a command or
    the flow); only those and the settings module read the environment (os.environ, os.getenv, the
    settings module's path functions, Settings.from_environment)."""
    readers = []
    for path in _sources("pipeline", "judges", "validation"):
        where = path.relative_to(ROOT)
        if _is_command(where) or str(where) in ENVIRONMENT_TOUCHED:
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Attribute) and (
                    (isinstance(node.value, ast.Name) and node.value.id == "os" and node.attr in ("environ", "getenv"))
                    or (isinstance(node.value, ast.Name) and node.value.id == "settings"
                        and node.attr.endswith(("_dir", "_path")))
                    or node.attr == "from_environment"):
                readers.append(f"{where}:{node.lineno} {ast.unparse(node)}")
    assert not readers, readers
    assert all((ROOT / name).is_file() for name in ENVIRONMENT_TOUCHED), "drop a module that is gone"
