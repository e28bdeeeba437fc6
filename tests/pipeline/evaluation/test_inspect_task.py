"""The Inspect AI task on a small release written by the release stage, with Inspect's mock model answering
(no network): a reference answer scores 1, a stub 0, a garbled answer an error-free 0; the five strategies
reach the model through Inspect; results carry the release version; `inspect eval` finds the task by its
registered name. Skipped without the `inspect` extra (`pip install -e '.[inspect]'`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from eval_fixtures import LEDGER, fenced, ledger_task  # noqa: E402
from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from core.analysis.skeleton import make_skeleton  # noqa: E402
from core.funnel import Funnel  # noqa: E402
from core.store import ArtifactStore  # noqa: E402
from pipeline.evaluation.inspect_task import classeval_pro, close_pools  # noqa: E402
from pipeline.evaluation.strategies import STRATEGIES  # noqa: E402
from pipeline.release.assemble import ReleaseConfig, release  # noqa: E402

VERSION = "2026.11.0"
SAMPLE = re.compile(r"\(Sample (\d+)\.\)")
ANSWERS = {0: fenced(LEDGER), 1: fenced(make_skeleton(LEDGER, "Ledger")), 2: "Sorry, no code today. ```"}


@pytest.fixture(scope="module")
def release_folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("inspect")
    saved = dict(os.environ)
    os.environ.update({"CLASSEVAL_PRO_ARTIFACTS": str(root / "artifacts"), "HF_HOME": str(root / "hf"),
                       "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "INSPECT_LOG_DIR": str(root / "logs")})
    store = ArtifactStore(root / "artifacts")
    released = release(store, "run-1", [ledger_task("2025-06-01")], Funnel(run_id="run-1"),
                       ReleaseConfig(release_date=date(2026, 11, 5)))
    assert len(released.released) == 1
    yield store.release_dir(VERSION)
    close_pools()
    os.environ.clear()
    os.environ.update(saved)


def _mock(answer_of):
    """Inspect's mock model answering each request with `answer_of(last user message)`, and the requests."""
    requests: list[str] = []

    def respond(messages, tools, tool_choice, config):
        requests.append(messages[-1].text)
        output = ModelOutput.from_content(model="mockllm/model", content=answer_of(messages[-1].text))
        # Usage given, as a provider reports it: without it the mock counts tokens with tiktoken, which
        # downloads its encoding on first use.
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=respond, memoize=False), requests


def _run(task, model, tmp_path, **options):
    [log] = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none", **options)
    assert log.status == "success", log.error
    return log


@pytest.mark.slow
def test_reference_scores_one_stub_zero_garbled_an_error_free_zero(release_folder, tmp_path):
    model, requests = _mock(lambda text: ANSWERS[int(SAMPLE.search(text).group(1))])
    log = _run(classeval_pro(release=str(release_folder)), model, tmp_path, epochs=3)
    assert len(requests) == 3  # holistic: one request per epoch, the epoch as the prompt's sample index
    assert log.eval.task == f"classeval_pro_{VERSION}" and log.eval.metadata["release_version"] == VERSION
    by_epoch = {s.epoch: s for s in log.samples}
    assert sorted(by_epoch) == [1, 2, 3]
    for sample in log.samples:
        assert sample.error is None
        assert sample.metadata["release_version"] == VERSION and sample.id == sample.metadata["task_id"]
        assert sample.input.startswith(make_skeleton(LEDGER, "Ledger").split("\n")[0])
    scores = {epoch: s.scores["sandbox_scorer"] for epoch, s in by_epoch.items()}
    assert [scores[e].value for e in (1, 2, 3)] == ["C", "I", "I"]
    reference, stub, garbled = scores[1].metadata, scores[2].metadata, scores[3].metadata
    assert reference["methods"] == {"deposit": True, "balance": True, "transfer": True}
    assert reference["method_pass_rate"] == 1.0 and reference["failure"] is None
    assert reference["release_version"] == VERSION
    assert stub["failure"] == "missing" and stub["methods_passed"] == 0 and stub["methods_scored"] == 3
    assert garbled["failure"] == "bad_answer" and garbled["tests"] == {} and garbled["run_status"] == "not_run"
    assert log.results.scores[0].metrics["accuracy"].value == pytest.approx(1 / 3)


@pytest.mark.slow
def test_each_strategy_asks_through_inspect_and_scores_in_the_sandbox(release_folder, tmp_path):
    model, requests = _mock(lambda text: fenced(LEDGER))
    logs = inspect_eval([classeval_pro(release=VERSION, strategy=s) for s in STRATEGIES], model=model,
                        log_dir=str(tmp_path / "logs"), display="none", max_tasks=len(STRATEGIES))
    assert [log.eval.metadata["strategy"] for log in logs] == list(STRATEGIES)
    assert len(requests) == 1 + 4 * 4  # holistic: one; the others: one per method, constructor included
    for log in logs:
        strategy = log.eval.metadata["strategy"]
        assert log.status == "success", log.error
        [sample] = log.samples
        score = sample.scores["sandbox_scorer"]
        assert score.value == "C", (strategy, score.explanation)
        assert score.metadata["methods"] == {"deposit": True, "balance": True, "transfer": True}
        prompts, roles = score.metadata["prompts"], [m.role for m in sample.messages]
        if strategy == "holistic":
            assert prompts == ["solve_class@1"] and roles == ["system", "user", "assistant"]
        else:
            template = "solve_method_alone@1" if strategy == "compositional" else "solve_method@1"
            assert prompts == [template] * 4 and roles == ["system"] + ["user", "assistant"] * 4


@pytest.mark.slow
def test_another_solvers_answer_is_read_as_a_holistic_one(release_folder, tmp_path):
    from inspect_ai.solver import generate

    model, requests = _mock(lambda text: fenced(LEDGER))
    log = _run(classeval_pro(release=VERSION), model, tmp_path, solver=generate())
    [sample] = log.samples
    assert requests == [sample.input]  # Inspect's own generate: the skeleton, as the sample's input
    score = sample.scores["sandbox_scorer"]
    assert score.value == "C" and score.metadata["prompts"] == ["inspect-solver"]


def test_an_unknown_strategy_is_refused_naming_the_known_ones(release_folder):
    with pytest.raises(ValueError, match="sideways.*holistic"):
        classeval_pro(release=str(release_folder), strategy="sideways")


@pytest.mark.slow
def test_inspect_eval_finds_the_registered_task(release_folder, tmp_path):
    """`inspect eval classeval_pro` from another folder: Inspect finds the task through the package's entry
    point; the mock model's default answer holds no code, a failure that is scored, not an error."""
    import importlib.util

    # The mock's default answer has no usage, so Inspect counts its tokens with tiktoken's o200k_base, which
    # tiktoken downloads unless its cache holds it: the task points the cache at the copy litellm ships, so
    # this runs offline with no setting at all.
    env = {k: v for k, v in os.environ.items() if k != "TIKTOKEN_CACHE_DIR"} | {"NO_COLOR": "1"}
    done = _inspect_eval_command(tmp_path, env)
    assert done.returncode == 0, done.stderr[-2000:]
    [path] = (tmp_path / "logs").glob("*.json")
    log = json.loads(path.read_text())
    assert log["status"] == "success" and log["eval"]["task"] == f"classeval_pro_{VERSION}"
    [sample] = log["samples"]
    assert sample.get("error") is None
    assert sample["scores"]["sandbox_scorer"]["value"] == "I"
    assert sample["scores"]["sandbox_scorer"]["metadata"]["failure"] == "bad_answer"


def _inspect_eval_command(tmp_path: Path, env: dict[str, str], logs: str = "logs") -> subprocess.CompletedProcess[str]:
    inspect = Path(sys.executable).parent / "inspect"
    return subprocess.run([str(inspect), "eval", "classeval_pro", "-T", f"release={VERSION}", "-T", "jobs=1",
                           "--model", "mockllm/model", "--log-dir", str(tmp_path / logs), "--log-format", "json",
                           "--display", "none"], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)


@pytest.mark.slow
def test_a_run_that_completes_no_sample_exits_non_zero(release_folder, tmp_path):
    """Inspect's `inspect eval` itself ends with 0 whatever happened; a run of this task with no completed
    sample (here: tiktoken's cache pointed at an empty folder, offline) ends with 1 and says why."""
    empty = tmp_path / "no-encodings"
    empty.mkdir()
    done = _inspect_eval_command(tmp_path, os.environ | {"NO_COLOR": "1", "TIKTOKEN_CACHE_DIR": str(empty)})
    assert done.returncode == 1, done.stderr[-2000:]
    assert "classeval_pro: classeval_pro_2026.11.0: error, 0 sample(s) completed" in done.stderr


@pytest.mark.slow
def test_grading_runs_in_the_sandbox_inspect_was_given(release_folder, tmp_path):
    """With `--sandbox local` (here: `sandbox="local"`), the tests run there, under the interpreter the task
    is told; the outcome and the failure class are the same as in the project's sandbox."""
    answers = iter([fenced(LEDGER), fenced(LEDGER.replace("return self.balances.get(name, 0)", "return 0"))])
    model, _ = _mock(lambda text: next(answers))
    log = _run(classeval_pro(release=VERSION, sandbox_python=sys.executable), model, tmp_path, epochs=2,
               sandbox="local", max_samples=1)
    scores = sorted((s.epoch, s.scores["sandbox_scorer"]) for s in log.samples)
    right, wrong = scores[0][1], scores[1][1]
    assert right.value == "C" and right.metadata["graded_in"] == "inspect sandbox", right.explanation
    assert right.metadata["methods"] == {"deposit": True, "balance": True, "transfer": True}
    assert wrong.value == "I" and wrong.metadata["failure"] == "logic" and wrong.metadata["graded_in"] == "inspect sandbox"
    assert any(outcome == "failed" for outcome in wrong.metadata["tests"].values())


def test_a_junit_report_reads_as_a_sandbox_run():
    from pipeline.evaluation.inspect_grading import junit_run

    report = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="3">
    <testcase classname="test_ledger" name="test_deposit" time="0.001"/>
    <testcase classname="test_ledger.TestTransfer" name="test_overdraft" time="0.001">
      <failure message="AssertionError: assert 1 == 2">def test_overdraft():
E       AssertionError: assert 1 == 2</failure></testcase>
    <testcase classname="" name="test_other"><error message="collection failure">E   ModuleNotFoundError: No module named 'numpy'</error></testcase>
    </testsuite></testsuites>"""
    run = junit_run(report, "test_ledger.py")
    assert run.outcomes() == {"test_ledger.py::test_deposit": "passed",
                              "test_ledger.py::TestTransfer::test_overdraft": "failed"}
    assert run.tests[1].reason == "AssertionError: assert 1 == 2"
    assert [e.reason for e in run.collection_errors] == ["ModuleNotFoundError: No module named 'numpy'"]
