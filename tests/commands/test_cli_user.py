"""What a user meets at the command line, through the console entry point (`commands.main.main`).

Help pages, a finished run left untouched, a run resumed under another configuration, an empty task list.
None of these starts Prefect or the sandbox.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipeline.stages.config import BuildConfig
from pipeline.stages.runs import RunOutcome
from tests.cli_runner import run_cli
from tests.pipeline.corpus_fixture import corpus  # noqa: F401 - fixture

COMMANDS = (("--help",), ("domains", "--help"), ("seeds", "--help"), ("seeds", "check", "--help"),
            ("validate", "--help"), ("import-classeval", "--help"), ("build", "--help"), ("publish", "--help"),
            ("release", "--help"), ("release", "verify", "--help"), ("mine", "--help"), ("judge", "--help"),
            ("eval", "--help"))


@pytest.fixture(autouse=True)
def restore_environ():
    saved = dict(os.environ)  # the CLI's callback sets offline defaults with setdefault: undo them afterwards
    yield
    os.environ.clear()
    os.environ.update(saved)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_help_pages_show_no_bool_type_and_no_braces(monkeypatch, capsys, args):
    monkeypatch.setenv("COLUMNS", "160")
    code, out, _ = run_cli(monkeypatch, capsys, *args)
    assert code == 0 and "Usage: classeval-pro" in out
    assert "<bool>" not in out
    usage = next(line for line in out.splitlines() if "Usage:" in line)
    assert "{" not in usage and "}" not in usage


def test_arguments_are_named_in_capitals_in_usage(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "160")
    _, out, _ = run_cli(monkeypatch, capsys, "release", "verify", "--help")
    assert "Usage: classeval-pro release verify [OPTIONS] RELEASE" in out


def _snapshot(folder: Path) -> dict[Path, tuple[int, bytes]]:
    return {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.rglob("*") if p.is_file()}


def test_rerunning_a_finished_run_reports_it_and_touches_nothing(corpus, tmp_path, monkeypatch, capsys):  # noqa: F811
    run = tmp_path / "artifacts" / "runs" / "run-done"
    run.mkdir(parents=True)
    (run / "config.json").write_text(BuildConfig().model_dump_json(indent=2) + "\n")
    (run / "release.done.json").write_text(RunOutcome(run_id="run-done", version="2026.12.0", message="released").to_json())
    before = _snapshot(tmp_path / "artifacts")

    code, out, err = run_cli(monkeypatch, capsys, "build", "--run-id", "run-done")

    assert (code, out, err) == (0, "run run-done already released as 2026.12.0\n", "")
    assert _snapshot(tmp_path / "artifacts") == before
    assert not (tmp_path / "artifacts" / ".prefect" / "prefect.db").exists()  # Prefect never started


def test_a_finished_run_without_a_release_says_why(corpus, tmp_path, monkeypatch, capsys):  # noqa: F811
    run = tmp_path / "artifacts" / "runs" / "run-done"
    run.mkdir(parents=True)
    message = "no new release: none of 3 task(s) survived (3 duplicate)"
    (run / "release.done.json").write_text(RunOutcome(run_id="run-done", message=message).to_json())
    code, out, _ = run_cli(monkeypatch, capsys, "build", "--run-id", "run-done")
    assert code == 0 and out == f"run run-done already finished without a release ({message})\n"


def test_resuming_a_run_under_another_configuration_is_refused(corpus, tmp_path, monkeypatch, capsys):  # noqa: F811
    run = tmp_path / "artifacts" / "runs" / "run-x"
    run.mkdir(parents=True)
    (run / "config.json").write_text(BuildConfig(jobs=1).model_dump_json(indent=2) + "\n")
    before = _snapshot(run)
    code, _, err = run_cli(monkeypatch, capsys, "build", "--run-id", "run-x")
    assert code == 2 and "run run-x was started with another configuration (differs in jobs)" in " ".join(err.split())
    assert _snapshot(run) == before


def test_a_build_without_the_deterministic_checks_is_warned_about(corpus, tmp_path, monkeypatch, capsys):  # noqa: F811
    run = tmp_path / "artifacts" / "runs" / "run-x"
    run.mkdir(parents=True)
    (run / "config.json").write_text(BuildConfig().model_dump_json(indent=2) + "\n")
    config = tmp_path / "build.toml"
    config.write_text('[judges]\noffline = false\nmodels = ["openai/a", "openai/b", "openai/c"]\n')
    monkeypatch.setenv("OPENAI_API_KEY", "k")  # the models' key is checked before the run is looked at
    code, _, err = run_cli(monkeypatch, capsys, "build", "--config", str(config), "--run-id", "run-x")
    err = " ".join(err.split())
    assert "warning the deterministic checks are off ([judges] offline = false)" in err
    assert code == 2 and "differs in judges" in err  # the warning comes first, before the run is looked at


def test_validate_on_an_empty_task_list_exits_2_and_says_so(tmp_path, monkeypatch, capsys):
    empty = tmp_path / "tasks.json"
    empty.write_text("[]\n")
    code, out, err = run_cli(monkeypatch, capsys, "validate", str(empty))
    assert code == 2 and f"{empty}: no tasks to validate" in " ".join(err.split())
    assert "passed" not in out


def test_validate_takes_a_release_version(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    code, _, err = run_cli(monkeypatch, capsys, "validate", "2026.12.0")
    assert code == 2 and "no release 2026.12.0 in " in " ".join(err.split())  # resolved as a version, not a path


def test_judge_takes_a_release_version(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    code, _, err = run_cli(monkeypatch, capsys, "judge", "2026.12.0")
    assert code == 2 and "no release 2026.12.0 in " in " ".join(err.split())


def test_a_missing_key_or_a_mistyped_model_ends_at_once_with_exit_2(tmp_path, monkeypatch, capsys):
    """No release needs to be read, no sandbox started and no model called: the names and keys are
    checked first (before, a keyless run retried server errors for minutes)."""
    import time

    monkeypatch.setenv("CLASSEVAL_PRO_ARTIFACTS", str(tmp_path / "artifacts"))
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    started = time.monotonic()
    code, _, err = run_cli(monkeypatch, capsys, "eval", "2026.12.0", "--model", "openai/gpt-4o")
    assert code == 2 and "--model openai/gpt-4o: OPENAI_API_KEY is not set" in " ".join(err.split())
    assert time.monotonic() - started < 10  # no litellm import, no retry (was 18 s to a litellm error)
    code, _, err = run_cli(monkeypatch, capsys, "build", "--backend", "model", "--model", "openai/gpt-4o")
    assert code == 2 and "[models] openai/gpt-4o: OPENAI_API_KEY is not set" in " ".join(err.split())
    code, _, err = run_cli(monkeypatch, capsys, "eval", "2026.12.0", "--model", "referance")
    assert code == 2 and "did you mean reference?" in " ".join(err.split())
    code, _, err = run_cli(monkeypatch, capsys, "judge", "2026.12.0", "--models", "openai/a,anthropic/b")
    assert code == 2 and "--models openai/a: OPENAI_API_KEY is not set" in " ".join(err.split())
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    code, _, err = run_cli(monkeypatch, capsys, "judge", "2026.12.0", "--models", "openai/a,anthropic/b")
    assert code == 2 and "ANTHROPIC_API_KEY is not set" in " ".join(err.split())
    # a local server needs no provider key: the check passes and the missing release is the next error
    code, _, err = run_cli(monkeypatch, capsys, "judge", "2026.12.0", "--models", "anthropic/b,anthropic/c",
                           "--api-base", "http://127.0.0.1:9/v1")
    assert code == 2 and "no release 2026.12.0 in " in " ".join(err.split())
