"""The records the pool, the warm worker and its run process pass each other survive their trip as JSON."""

import json

from validation.sandbox import Limits, MutantJob, RunResult, SandboxJob, TestResult
from validation.sandbox.job import RunRequest, WorkerConfig


def _through_json(message: dict) -> dict:
    return json.loads(json.dumps(message))


def test_a_job_reaches_the_worker_as_the_pool_sent_it():
    job = SandboxJob(files={"m.py": "x = 1\n", "test_m.py": "def test_x(): pass\n"}, test_file="test_m.py",
                     coverage_file="m.py", per_test_contexts=True, trace_class=("m", "M"), shuffle_seed=7,
                     select=("test_m.py::test_x",), stop_on_failure=True, failure_text=False,
                     limits=Limits(wall_seconds=5.0, per_test_seconds=1.0),
                     mutants=(MutantJob("mut-1", "x = 2\n", ("test_m.py::test_x",), switch=1),
                              MutantJob("var-1", "x = 1.0\n", ("test_m.py::test_x",))),
                     mutant_module="m", mutant_schema="x = 1 if __classeval_mutant__ != 1 else 2\n")
    request = job.to_request("/run")
    assert request.protected_files == ("m.py", "pytest.ini", "test_m.py")  # every file of the job by default
    assert RunRequest.from_message(_through_json(request.to_message())) == request


def test_the_worker_config_round_trips():
    config = WorkerConfig(env={"TZ": "UTC", "PYTHONHASHSEED": "0"}, pid_namespace=True, setuid=65534,
                          clock_offset_seconds=1.5e9)
    assert WorkerConfig.from_message(_through_json(config.to_message())) == config


def test_the_reply_is_read_back_into_the_same_result():
    result = RunResult(status="completed", exit_code=1, collected=["t::a", "t::b"],
                       tests=[TestResult("t::a", "passed"),
                              TestResult("t::b", "failed", "AssertionError", {"type": "AssertionError",
                                                                            "frames": [["t.py", "test_b"]],
                                                                            "test_line": 3})],
                       coverage={"executed_lines": [1, 2]}, output="1 failed", duration_seconds=0.5,
                       cpu_seconds=0.25, notes=["a note"],
                       mutants=[{"id": "mut-1", "killed": True, "why": "a test failed", "switched": True}],
                       profile="shifted")
    assert RunResult.from_reply(_through_json(result.to_message()), "shifted") == result
