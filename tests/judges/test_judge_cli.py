"""`classeval-pro judge PATH`: the table, the JSON file and the exit code, offline and with model judges."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from commands.main import app
from tests.emulators.chat import ChatEmulator, offline_litellm
from tests.judges.conftest import SOLUTION, make_candidate
from tests.judges.test_model_judges import _respond


@pytest.fixture
def candidates(tmp_path, monkeypatch):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    folder = tmp_path / "candidates"
    folder.mkdir()
    good = make_candidate()
    wrong = make_candidate(solution=SOLUTION.replace("return sum(self.counts.values())", "return 0"))
    for candidate in (good, wrong):
        (folder / f"{candidate.candidate_id}.json").write_text(candidate.to_json())
    return folder, good, wrong


def test_offline_panel_prints_each_judge_and_rejects_the_wrong_example(candidates, tmp_path):
    folder, good, wrong = candidates
    out = tmp_path / "verdicts.json"
    result = CliRunner().invoke(app, ["judge", str(folder), "--json", str(out), "--jobs", "1"])
    assert result.exit_code == 1, result.output
    assert "specification" in result.output and "consistency" in result.output and "adequacy" in result.output
    assert "judge panel (unanimous)" in result.output and "1 accepted, 1 rejected, 0 held" in result.output
    # no gate report travels with these candidates: the adequacy judge abstains on both, and says why
    text = " ".join(result.output.split())
    assert "abstentions (left out of the agreement figures):" in text and "adequacy abstained on 2 task(s)" in text
    assert "specification: " in text  # which judge failed which criterion
    data = json.loads(out.read_text())
    outcomes = {d["candidate_id"]: d["outcome"] for d in data["decisions"]}
    assert outcomes == {good.candidate_id: "accept", wrong.candidate_id: "reject"}
    assert data["agreement"]["rejected_share"]["specification"] == 0.5


@pytest.mark.slow
def test_model_panel_through_the_emulator_after_the_checks(candidates, tmp_path, monkeypatch):
    folder, good, wrong = candidates
    offline_litellm(monkeypatch)
    models = "openai/accept-a,openai/accept-b,openai/reject-c"
    with ChatEmulator(_respond) as emulator:
        result = CliRunner().invoke(app, ["judge", str(folder), "--models", models, "--api-base", emulator.base_url])
        layered_calls = list(emulator.calls)
        alone = CliRunner().invoke(app, ["judge", str(folder), "--models", models, "--api-base", emulator.base_url,
                                         "--no-offline"])
    assert result.exit_code == 1, result.output  # the wrong example is the checks' rejection
    assert "judge panel (majority) on 2 task(s)" in result.output and "openai/reject-c" in result.output
    assert "1 accepted, 1 rejected, 0 held" in result.output and "tests_match_spec" in result.output
    assert "reject (checks)" in result.output and "accept (models)" in result.output
    assert len(layered_calls) == 3 and all("return 0" not in c.last_user_message for c in layered_calls)
    assert alone.exit_code == 0, alone.output  # the models alone accept both, 2-1
    assert "deterministic checks are off ([judges] offline = false)" in " ".join(alone.output.split())
    assert "2 accepted, 0 rejected, 0 held" in alone.output
    assert len(emulator.calls) == 3 + 6


def test_a_bad_rule_is_one_error_line(candidates):
    folder, _, _ = candidates
    result = CliRunner().invoke(app, ["judge", str(folder), "--rule", "most"])
    assert result.exit_code != 0 and "expected 'majority', 'unanimous' or 'quorum:K'" in str(result.exception)


def test_a_released_task_is_judged_under_its_task_id():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pipeline" / "release"))
    from release_fixtures import build_task

    from commands.judge import task_candidate

    task = build_task(candidate_id="cand-counter", imports=("import math",))
    candidate = task_candidate(task)
    assert candidate.candidate_id == task.task_id and candidate.solution_code.startswith("import math\n\nclass Counter")


def test_limit_judges_only_the_first_tasks(candidates, tmp_path):
    folder, good, wrong = candidates
    out = tmp_path / "verdicts.json"
    result = CliRunner().invoke(app, ["judge", str(folder), "--json", str(out), "--jobs", "1", "--limit", "1"])
    judged = [d["candidate_id"] for d in json.loads(out.read_text())["decisions"]]
    assert len(judged) == 1 and judged[0] in (good.candidate_id, wrong.candidate_id)
    assert "on 1 task(s)" in result.output and "(the first 1 of 2)" in " ".join(result.output.split())
    assert result.exit_code == (0 if judged == [good.candidate_id] else 1)
