"""The gate accepts a clean task and rejects, with the right reason, tasks whose tests depend on the date,
the hostname, an undeclared package, root privileges, the hash seed; and tasks with no tests, low coverage,
vacuous tests or low interaction."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from core.records import RejectReason
from validation.gate import classify_failure, validate_candidate
from validation.policy import GatePolicy

TALLY = '''
class Tally:
    """Counts named items."""

    def __init__(self):
        self.items = {}

    def add(self, name, n=1):
        if n <= 0:
            raise ValueError("n must be positive")
        self.items[name] = self.items.get(name, 0) + n
        return self.items[name]

    def remove(self, name):
        if name not in self.items:
            raise KeyError(name)
        del self.items[name]

    def total(self):
        return sum(self.items.values())

    def top(self):
        if not self.items:
            return None
        return max(sorted(self.items), key=lambda k: self.items[k])
'''

TALLY_TESTS = '''
import pytest
from tally import Tally


def test_add_rejects_non_positive():
    with pytest.raises(ValueError):
        Tally().add("a", 0)


def test_remove_missing_raises():
    with pytest.raises(KeyError):
        Tally().remove("zz")


def test_empty_top_is_none():
    assert Tally().top() is None


def test_workflow_on_one_instance():
    t = Tally()
    assert t.add("a", 2) == 2
    assert t.add("b") == 1
    t.remove("b")
    assert t.add("c", 5) == 5
    assert t.total() == 7
    assert t.top() == "c"
    t.remove("c")
    assert t.total() == 2
    assert t.top() == "a"
    t.add("a")
    assert t.total() == 3
'''

FAST_POLICY = GatePolicy(per_test_seconds=2.0, wall_seconds=20.0, memory_mb=768, max_mutants=12)
NO_MUTATION = FAST_POLICY.model_copy(update={"run_mutation": False})


def tally_with(extra_method: str, extra_test: str, header: str = "") -> tuple[str, str]:
    return header + TALLY + extra_method, TALLY_TESTS + extra_test


def test_clean_task_passes_every_check(pool, candidate_of):
    report = validate_candidate(candidate_of(TALLY, TALLY_TESTS, "Tally", "tally"), FAST_POLICY, pool)
    assert report.passed, (report.reasons, [c for c in report.checks if not c.passed])
    assert report.line_coverage == 1.0
    assert report.interaction_edge_coverage is not None and report.interaction_edge_coverage >= 0.75
    interaction = report.evidence["interaction"]  # gated on method pairs; the per-attribute figure beside it
    assert report.interaction_edge_coverage == pytest.approx(interaction["pair_coverage"])
    per_attribute = report.check("interaction_attribute_edge_coverage")
    assert not per_attribute.gated and per_attribute.value == pytest.approx(interaction["interaction_edge_coverage"])
    assert report.check("methods_on_one_instance").value >= 3
    assert report.check("vacuous_share").value == 0
    assert report.mutation_score is not None and report.check("mutation_score").gated is False
    # A stable suite: one robustness run with every change at once, no attributing runs.
    assert {t.run for t in report.tests} == {"base", "varied"}
    assert report.protections["clean_environment"] is True


def test_date_dependent_tests_are_env_dependent(pool, candidate_of):
    solution, tests = tally_with(
        "\n    def expired(self):\n        return datetime.date.today() > datetime.date(2031, 1, 1)\n",
        "\n\ndef test_not_expired():\n    assert not Tally().expired()\n",
        header="import datetime\n",
    )
    report = validate_candidate(candidate_of(solution, tests, "Tally", "tally"), NO_MUTATION, pool)
    assert not report.passed
    assert report.reasons[0] == RejectReason.ENV_DEPENDENT, report.evidence
    causes = report.evidence["stable_across_environments"]["causes"]
    assert list(causes) == ["clock moved ahead"]


def test_hostname_dependent_tests_are_env_dependent(pool, candidate_of):
    solution, tests = tally_with(
        "\n    def node(self):\n        return 'node@' + socket.gethostname()\n",
        "\n\ndef test_node_label():\n    assert Tally().node() == 'node@classeval-sandbox'\n",
        header="import socket\n",
    )
    report = validate_candidate(candidate_of(solution, tests, "Tally", "tally"), NO_MUTATION, pool)
    assert report.reasons[0] == RejectReason.ENV_DEPENDENT
    assert list(report.evidence["stable_across_environments"]["causes"]) == ["other hostname"]


def test_tests_written_for_this_machine_are_env_dependent_not_wrong(pool, candidate_of):
    # The test expects the host's own name: it fails in the sandbox (another name) but passes on the host.
    solution, tests = tally_with(
        "\n    def node(self):\n        return 'node@' + socket.gethostname()\n",
        f"\n\ndef test_node_label():\n    assert Tally().node() == 'node@{socket.gethostname()}'\n",
        header="import socket\n",
    )
    report = validate_candidate(candidate_of(solution, tests, "Tally", "tally"), NO_MUTATION, pool)
    if not report.protections.get("hostname_varied"):
        pytest.skip("the sandbox cannot give runs their own host name on this machine")
    assert report.reasons[0] == RejectReason.ENV_DEPENDENT
    assert report.evidence["host_bound_tests"]["tests"] == ["test_tally.py::test_node_label"]


def test_a_wrong_expectation_stays_tests_fail_after_the_host_rerun(pool, candidate_of):
    solution, tests = tally_with(
        "\n    def node(self):\n        return 'node@' + socket.gethostname()\n",
        "\n\ndef test_node_label():\n    assert Tally().node() == 'node@nowhere-at-all'\n",
        header="import socket\n",
    )
    report = validate_candidate(candidate_of(solution, tests, "Tally", "tally"), NO_MUTATION, pool)
    assert report.reasons[0] == RejectReason.TESTS_FAIL
    assert "host_bound_tests" not in report.evidence


def test_root_only_tests_are_env_dependent(pool, candidate_of):
    solution, tests = tally_with(
        "\n    def save(self, path):\n        with open(path, 'w') as f:\n            f.write(str(self.total()))\n",
        "\n\ndef test_save_over_read_only_file(tmp_path):\n"
        "    p = tmp_path / 'out.txt'\n    p.write_text('old')\n    p.chmod(0o444)\n"
        "    Tally().save(p)\n    assert p.read_text() == '0'\n",
    )
    report = validate_candidate(candidate_of(solution, tests, "Tally", "tally"), NO_MUTATION, pool)
    assert report.reasons[0] == RejectReason.ENV_DEPENDENT
    assert list(report.evidence["stable_across_environments"]["causes"]) == ["non-root user"]


def test_undeclared_third_party_package_is_env_dependent(pool, candidate_of):
    # yaml is installed in the project's environment but is not something a task may assume.
    solution, tests = tally_with("", "", header="import yaml\n")
    report = validate_candidate(candidate_of(solution, tests, "Tally", "tally"), NO_MUTATION, pool)
    assert report.reasons[0] == RejectReason.ENV_DEPENDENT
    assert report.evidence["base_env_dependent"]["missing_modules"] == ["yaml"]


def test_hash_seed_dependent_tests_are_flaky(pool, candidate_of):
    expected = subprocess.run([sys.executable, "-c", "print(hash('classeval') % 1000)"], capture_output=True,
                              text=True, env={"PYTHONHASHSEED": "0"}, check=True).stdout.strip()
    solution, tests = tally_with(
        "\n    def bucket(self, name):\n        return hash(name) % 1000\n",
        f"\n\ndef test_bucket():\n    assert Tally().bucket('classeval') == {expected}\n",
    )
    report = validate_candidate(candidate_of(solution, tests, "Tally", "tally"), NO_MUTATION, pool)
    assert report.reasons[0] == RejectReason.FLAKY
    differences = report.evidence["stable_under_hash_seed_and_order"]["differences"]
    assert list(differences) == ["test_tally.py::test_bucket"]
    # The combined run saw a difference; the attributing runs named it flakiness, not the machine.
    assert {"varied", "reseeded", "elsewhere"} <= {t.run for t in report.tests}
    assert RejectReason.ENV_DEPENDENT not in report.reasons


def test_zero_tests_is_an_error_not_a_pass(pool, candidate_of):
    report = validate_candidate(candidate_of(TALLY, "from tally import Tally\n", "Tally", "tally"), NO_MUTATION, pool)
    assert not report.passed
    assert report.reasons == (RejectReason.NO_TESTS,)


def test_weak_tests_fail_coverage_interaction_and_vacuity(pool, candidate_of):
    tests = ("from tally import Tally\n\n\ndef test_top_empty():\n    assert Tally().top() is None\n\n\n"
             "def test_builds():\n    assert Tally() is not None\n")
    report = validate_candidate(candidate_of(TALLY, tests, "Tally", "tally"), NO_MUTATION, pool)
    # and the methods besides `top` are called by no test
    assert set(report.reasons) == {RejectReason.LOW_COVERAGE, RejectReason.LOW_INTERACTION, RejectReason.VACUOUS_TESTS,
                                   RejectReason.UNTESTED_METHOD}
    assert "top" not in report.evidence["method_deletions"]["not_called"]
    assert report.line_coverage < 0.9 and report.missing_lines
    assert report.evidence["vacuous"]["passing"] == ["test_tally.py::test_builds"]


def test_failing_reference_is_tests_fail(pool, candidate_of):
    report = validate_candidate(candidate_of(TALLY.replace("+ n", "- n"), TALLY_TESTS, "Tally", "tally"),
                                NO_MUTATION, pool)
    assert report.reasons[0] == RejectReason.TESTS_FAIL


@pytest.mark.parametrize(
    ("outcome", "reason", "expected"),
    [
        ("failed", "ModuleNotFoundError: No module named 'numpy'", RejectReason.ENV_DEPENDENT),
        ("failed", "ModuleNotFoundError: No module named 'tally'", RejectReason.TESTS_FAIL),
        ("failed", "ModuleNotFoundError: No module named 'xml.nope'", RejectReason.TESTS_FAIL),
        ("failed", "OSError: [Errno 30] Read-only file system: '/etc/x'", RejectReason.SANDBOX_VIOLATION),
        ("failed", "MemoryError", RejectReason.RESOURCE_LIMIT),
        ("timeout", "", RejectReason.TIMEOUT),
        ("killed", "run process exited with status 0 before pytest finished", RejectReason.SANDBOX_VIOLATION),
        ("killed", "run process killed by SIGKILL", RejectReason.RESOURCE_LIMIT),
        ("failed", "AssertionError: assert 1 == 2", RejectReason.TESTS_FAIL),
    ],
)
def test_classify_failure(outcome, reason, expected):
    assert classify_failure(outcome, reason, ["tally", "test_tally"]) == expected


def test_constructor_validation_tests_are_not_vacuous(pool, candidate_of):
    solution = TALLY.replace("    def __init__(self):\n        self.items = {}",
                             "    def __init__(self, limit=10):\n        if limit <= 0:\n"
                             "            raise ValueError('limit')\n        self.items = {}")
    tests = TALLY_TESTS + ("\n\ndef test_init_rejects_zero_limit():\n    with pytest.raises(ValueError):\n"
                           "        Tally(0)\n\n\ndef test_builds():\n    assert Tally() is not None\n")
    policy = NO_MUTATION.model_copy(update={"robustness": False})
    report = validate_candidate(candidate_of(solution, tests, "Tally", "tally"), policy, pool)
    assert report.evidence["vacuous"]["constructor_only"] == ["test_tally.py::test_init_rejects_zero_limit"]
    assert report.evidence["vacuous"]["passing"] == ["test_tally.py::test_builds"]


def test_pool_counts_spare_workers_while_a_job_runs(pool):
    """The gate splits a candidate's mutants only over workers that are free (see gate._mutation)."""
    import threading
    import time

    from validation.sandbox import SandboxJob

    assert pool.spare("base") == pool.jobs
    job = SandboxJob(files={"slow.py": "", "test_slow.py": "import time\n\ndef test_wait():\n    time.sleep(1.5)\n"},
                     test_file="test_slow.py")
    running = threading.Thread(target=pool.run, args=(job,))
    running.start()
    try:
        deadline = time.monotonic() + 30
        while pool.spare("base") == pool.jobs and time.monotonic() < deadline:
            time.sleep(0.01)
        assert pool.spare("base") == pool.jobs - 1
    finally:
        running.join()
    assert pool.spare("base") == pool.jobs


def test_a_run_reports_the_cpu_time_of_its_process(pool):
    """Benchmarks on a shared machine compare CPU seconds, which other load barely moves."""
    from validation.sandbox import SandboxJob

    burn = "def test_burn():\n    total = 0\n    for i in range(3_000_000):\n        total += i\n    assert total\n"
    idle = "import time\n\ndef test_idle():\n    time.sleep(0.5)\n"
    busy = pool.run(SandboxJob(files={"m.py": "", "test_m.py": burn}, test_file="test_m.py"))
    quiet = pool.run(SandboxJob(files={"m.py": "", "test_m.py": idle}, test_file="test_m.py"))
    assert busy.status == quiet.status == "completed"
    assert busy.cpu_seconds > quiet.cpu_seconds > 0
    assert quiet.cpu_seconds < quiet.duration_seconds  # sleeping is wall time, not CPU time


def test_brief_failures_keep_every_outcome_and_name_the_exception(pool):
    """Runs that read outcomes only skip pytest's traceback formatting; a timeout is still a timeout."""
    from validation.sandbox import Limits, SandboxJob

    tests = ("import pytest\n\n"
             "def test_pass():\n    assert 1\n\n"
             "def test_fail():\n    assert [1, 2] == [1, 3], 'lists differ'\n\n"
             "def test_error():\n    raise KeyError('missing')\n\n"
             "def test_loop():\n    while True:\n        pass\n\n"
             "@pytest.mark.skip(reason='not here')\ndef test_skip():\n    pass\n")
    runs = {text: pool.run(SandboxJob(files={"m.py": "", "test_m.py": tests}, test_file="test_m.py",
                                      limits=Limits(per_test_seconds=0.5), failure_text=text))
            for text in (True, False)}
    assert runs[True].outcomes() == runs[False].outcomes() == {
        "test_m.py::test_pass": "passed", "test_m.py::test_fail": "failed", "test_m.py::test_error": "failed",
        "test_m.py::test_loop": "timeout", "test_m.py::test_skip": "skipped"}
    brief = {t.test_id.split("::")[1]: t.reason for t in runs[False].tests}
    assert brief["test_fail"].startswith("AssertionError: lists differ")
    assert brief["test_error"] == "KeyError: 'missing'"
    full = {t.test_id.split("::")[1]: t.reason for t in runs[True].tests}
    assert brief["test_skip"] == full["test_skip"] == "Skipped: not here"  # skips are not failures
