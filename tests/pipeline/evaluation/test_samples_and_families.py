"""`eval --samples FILE` scores completions made elsewhere with the same sandbox and report; method Pass@k
counts every method of every task; class Pass@k carries an interval with each family as one cluster."""

from __future__ import annotations

import json
import math

import pytest
from eval_fixtures import LEDGER, ledger_eval_task
from scipy import stats
from test_eval_cli import VERSION, artifacts  # noqa: F401 - the release fixture

from core.errors import InputError
from pipeline.evaluation.clusters import clustered_mean
from pipeline.evaluation.harness import CompletionRecord, summarise
from pipeline.evaluation.samples import read_samples
from pipeline.evaluation.scoring import Score
from pipeline.evaluation.taxonomy import FailureClass
from pipeline.release.dataset_io import load_release
from tests.cli_runner import run_cli


def _task_ids(artifacts_dir) -> dict[str, str]:
    return {t.class_name: t.task_id for t in load_release(artifacts_dir / "releases" / VERSION)}


def test_samples_made_elsewhere_are_scored_with_pass_at_k(artifacts, monkeypatch, capsys, tmp_path):  # noqa: F811
    ids = _task_ids(artifacts)
    wrong = LEDGER.replace("self.deposit(source, -amount)", "self.deposit(source, 0)")
    lines = [{"task_id": ids["Ledger"], "completion": f"Sure:\n\n```python\n{LEDGER}```\nDone."},  # raw model text
             {"task_id": ids["Ledger"], "solution": wrong},  # extracted code, wrong
             {"task_id": ids["Ledger"], "completion": "I cannot help with that."}]
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out_json = tmp_path / "summary.json"
    code, out, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--samples", str(samples), "--k", "1,3",
                             "--json", str(out_json))
    assert code == 0, err
    assert "answers 1 of the 2 tasks" in err  # the Counter task had no sample: said, and left out of the figures
    summary = json.loads(out_json.read_text())
    scored = summary["strategies"]["samples"]
    assert summary["tasks"] == 1 and scored["samples"] == 3
    assert scored["class_pass_at_k"]["1"] == pytest.approx(1 / 3) and scored["class_pass_at_k"]["3"] == 1.0
    assert scored["failures"] == {"logic": 1, "bad_answer": 1}
    assert summary["model"] == "samples:samples.jsonl" and "samples" in out


@pytest.mark.parametrize(("line", "message"), [
    ("{not json", "samples.jsonl:2: not valid JSON"),
    ('{"completion": "x"}', "samples.jsonl:2: missing field task_id"),
    ('{"task_id": "LEDGER"}', "samples.jsonl:2 (LEDGER): missing field solution or completion"),
    ('{"task_id": "nope", "solution": "x"}', "samples.jsonl:2: unknown task_id 'nope'"),
    ('[1, 2]', "samples.jsonl:2: expected a JSON object"),
])
def test_a_bad_samples_line_is_named(artifacts, monkeypatch, capsys, tmp_path, line, message):  # noqa: F811
    ids = _task_ids(artifacts)
    samples = tmp_path / "samples.jsonl"
    first = json.dumps({"task_id": ids["Ledger"], "solution": LEDGER})
    samples.write_text(first + "\n" + line.replace("LEDGER", ids["Ledger"]) + "\n")
    code, _, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--samples", str(samples))
    assert code == 2 and message.replace("LEDGER", ids["Ledger"]) in err and "Traceback" not in err


def test_model_and_samples_exclude_each_other(artifacts, monkeypatch, capsys, tmp_path):  # noqa: F811
    samples = tmp_path / "samples.jsonl"
    samples.write_text("")
    code, _, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--samples", str(samples), "--model", "reference")
    assert code == 2 and "not both" in err
    code, _, err = run_cli(monkeypatch, capsys, "eval", VERSION)
    assert code == 2 and "--samples" in err
    with pytest.raises(InputError, match="no sample"):
        read_samples(samples, set())


def test_a_missing_sandbox_python_is_named(artifacts, monkeypatch, capsys, tmp_path):  # noqa: F811
    code, _, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--model", "reference",
                           "--sandbox-python", str(tmp_path / "no-python"))
    assert code == 2 and "--sandbox-python" in err and "no-python" in err


def test_methods_of_a_completion_that_never_ran_count_as_failed():
    task = ledger_eval_task()
    assert len(task.method_tests) >= 3
    ran = Score(passed=True, methods={m: True for m in task.method_tests})
    never_ran = Score(passed=False, failure=FailureClass.ENVIRONMENT, failure_detail="missing module numpy")
    records = [CompletionRecord(task_id=task.task_id, strategy="s", sample=i, completion="x", score=score)
               for i, score in enumerate((ran, never_ran))]
    summary = summarise("s", [task], records, 2, (1,))
    assert summary.methods_scored == len(task.method_tests)
    assert summary.method_pass_at_k["1"] == 0.5  # each method passed in one of its two samples


def test_the_interval_treats_a_family_as_one_cluster():
    # Twelve tasks from four families whose members succeed or fail together, against the same outcomes
    # spread over twelve families: the same mean, a wider interval when failures come in families.
    values = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    in_families = clustered_mean(values, ["a"] * 3 + ["b"] * 3 + ["c"] * 3 + ["d"] * 3)
    independent = clustered_mean(values, [str(i) for i in range(12)])
    assert in_families.mean == independent.mean == 0.75
    assert in_families.families == 4 and independent.families == 12
    assert in_families.high - in_families.low > independent.high - independent.low

    # The cluster-robust standard error by its formula: sqrt(G/(G-1) * sum_g (sum_i e_gi)^2) / N, t on G-1.
    uneven = [1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0] + [1.0, 0.0] * 6
    families = ["a", "a", "a", "a", "b", "c", "d", "d"] + [f"e{i}" for i in range(12)]
    result = clustered_mean(uneven, families)
    mean, n, groups = sum(uneven) / 20, 20, sorted(set(families))
    sums = [sum(v - mean for v, f in zip(uneven, families) if f == g) for g in groups]
    se = math.sqrt(len(groups) / (len(groups) - 1) * sum(s * s for s in sums)) / n
    half = stats.t.ppf(0.975, len(groups) - 1) * se
    assert 0.0 < mean - half and mean + half < 1.0  # not clipped: the formula is what is compared
    assert result.low == pytest.approx(mean - half, abs=1e-5) and result.high == pytest.approx(mean + half, abs=1e-5)
    # Per family: a 1.0, b 0.0, c 1.0, d 0.0 and six of 1.0, six of 0.0: the family of four counts once.
    assert result.mean == 0.55 and result.family_mean == pytest.approx(8 / 16)

    alone = clustered_mean([1.0, 0.0], ["a", "a"])
    assert (alone.low, alone.high) == (None, None) and alone.families == 1


def test_the_command_reports_the_interval_and_the_family_mean(artifacts, monkeypatch, capsys, tmp_path):  # noqa: F811
    out_json = tmp_path / "summary.json"
    code, out, err = run_cli(monkeypatch, capsys, "eval", VERSION, "--model", "reference", "--n", "1", "--k", "1",
                             "--json", str(out_json))
    assert code == 0, err
    baseline = json.loads(out_json.read_text())["strategies"]["baseline"]
    assert baseline["families"] == 2 and baseline["family_pass_at_k"] == {"1": 1.0}
    assert baseline["class_pass_at_k_ci95"] == {"1": [1.0, 1.0]}
    assert "family@1" in out and "2 families" in out
