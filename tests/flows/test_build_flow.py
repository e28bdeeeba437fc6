"""The build command runs the Prefect flow end to end (temporary server, no network) and resumes.

Runs the console script in a subprocess, as a user would, on two bundled seeds copied to a temporary corpus,
with a small configuration (one enhanced candidate per seed, one composed pair, no mutation run) so that
the whole chain (seeds, enhance, compose, validate, repair, release) runs in about a minute. The first build
is the session's reference build (conftest.py), which the other flow tests compare with.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from build_workspace import run_build as _build


def _snapshot(folder: Path) -> dict[Path, tuple[int, bytes]]:
    return {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_build_runs_every_stage_releases_and_a_rerun_resumes(reference_build, tmp_path: Path):
    # The first build is the session's reference build; its tree is copied, as it was, before anything reruns.
    first, config = reference_build.result, reference_build.config
    shutil.copytree(reference_build.artifacts, tmp_path / "artifacts")
    env = {**reference_build.env, "CLASSEVAL_PRO_ARTIFACTS": str(tmp_path / "artifacts")}
    [run] = list((tmp_path / "artifacts" / "runs").iterdir())
    funnel = json.loads((run / "funnel.json").read_text())
    assert list(funnel["stages"]) == ["seeds", "enhance", "compose", "validate", "repair", "judge checks",
                                      "release"]
    assert funnel["stages"]["enhance"]["accepted"] + funnel["stages"]["compose"]["accepted"] == funnel["stages"]["validate"]["received"]
    candidates = sorted(p.name for stage in ("enhance", "compose") for p in (run / stage).glob("*.json"))
    reports = sorted(p.name for p in (run / "validate").glob("*.json"))
    assert set(candidates) <= set(reports)
    [release] = list((tmp_path / "artifacts" / "releases").iterdir())
    assert f"release {release.name}" in first.stdout
    exported = json.loads((release / "classeval.json").read_text())
    assert len(exported) == funnel["stages"]["release"]["accepted"] > 0
    assert (reference_build.artifacts / ".prefect" / "prefect.db").is_file()  # Prefect kept to the artifact tree
    _check_judging(run, release, funnel)
    # stderr is a pipe here: every stage writes plain log lines as it starts, advances and ends.
    for stage in ("enhance", "compose", "validate", "repair", "judge", "release"):
        assert f" {stage}: started" in first.stderr and f" {stage}: finished" in first.stderr, first.stderr
    assert " enhance: 1/2 (50%)" in first.stderr
    before = _snapshot(tmp_path / "artifacts" / "runs") | _snapshot(tmp_path / "artifacts" / "releases")

    second = _build(env, "--config", str(config))
    assert second.returncode == 0, second.stderr[-3000:]
    assert second.stdout == f"run {run.name} already released as {release.name}\n"
    assert second.stderr == ""
    after = _snapshot(tmp_path / "artifacts" / "runs") | _snapshot(tmp_path / "artifacts" / "releases")
    assert after == before  # a finished run is a record: not one file rewritten, added or removed

    # An interrupted run: the same records, stopped during validation (one report missing, no stage after).
    resumed = tmp_path / "artifacts" / "runs" / "run-interrupted"
    shutil.copytree(run, resumed, ignore=shutil.ignore_patterns("release*", "validate.done.json", "repair.done.json",
                                                                "judge_checks.done.json"))
    funnel["stages"] = {k: v for k, v in funnel["stages"].items() if k in ("seeds", "enhance", "compose")}
    (resumed / "funnel.json").write_text(json.dumps(funnel | {"run_id": "run-interrupted"}, indent=2) + "\n")
    min(resumed.joinpath("validate").glob("*.json")).unlink()
    shutil.rmtree(tmp_path / "artifacts" / "releases")  # so that the resumed run's tasks are new again
    kept = _snapshot(resumed / "enhance")

    third = _build(env, "--config", str(config), "--run-id", "run-interrupted")
    assert third.returncode == 0, third.stderr[-3000:]
    assert " enhance: started" not in third.stderr  # finished stages are not redone
    assert "from an earlier attempt" in third.stderr and " validate: finished" in third.stderr
    assert _snapshot(resumed / "enhance") == kept
    assert json.loads((resumed / "funnel.json").read_text())["stages"] == {
        k: v for k, v in json.loads((run / "funnel.json").read_text())["stages"].items()}
    assert f"release {release.name}" in third.stdout


def _check_judging(run: Path, release: Path, funnel: dict) -> None:
    """The offline panel judged every gate survivor; its verdicts ride with each task, its figures in the
    manifest and the card."""
    from pipeline.release.dataset_io import load_release

    judge = funnel["stages"]["judge checks"]  # the checks alone: no models configured
    survivors = funnel["stages"]["validate"]["accepted"] + funnel["stages"]["repair"]["accepted"]
    assert judge["received"] == survivors == len(list((run / "judge").glob("*.json")))
    assert judge["accepted"] == funnel["stages"]["release"]["received"]
    tasks = load_release(release)
    assert tasks and all([v.judge.name for v in t.verdicts] == ["specification", "consistency", "adequacy"]
                         for t in tasks)
    assert all(v.judge.backend == "offline" and v.findings for t in tasks for v in t.verdicts)
    manifest = json.loads((release / "manifest.json").read_text())
    assert manifest["judges"]["build"]["judged"] == survivors
    assert {j["name"] for j in manifest["models"]["judges"]} == {"specification", "consistency", "adequacy"}
    card = (release / "README.md").read_text()
    # the deterministic checks' agreement is percent agreement; a kappa is for the model panel only
    assert "| judge checks |" in card and "Percent agreement within the checks" in card and "Fleiss" not in card
    assert "Layer 1, the deterministic checks" in card and "Layer 2" not in card and "No model judge has seen" in card


def test_a_broken_seed_stops_the_build_before_prefect_starts(workspace, tmp_path: Path):
    env, config = workspace
    broken = Path(env["CLASSEVAL_PRO_SEEDS"]) / "Math_Stats" / "histogram" / "histogram.py"
    broken.write_text("class Histogram(:\n")
    result = _build(env, "--config", str(config))
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error:") and "histogram.py" in result.stderr
    assert not (tmp_path / "artifacts" / ".prefect" / "prefect.db").exists()
