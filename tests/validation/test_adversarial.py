"""The adversarial corpus: hostile solutions and tests are contained, classified, and leave the machine as
it was; the next task in the same pool still runs."""

from __future__ import annotations

import json
import os
import socket
import threading
import uuid
from pathlib import Path

import pytest

from core.records import RejectReason
from core.settings import Settings
from pipeline.stages.driver import ThreadExecutor, command_context, run_stage
from pipeline.stages.inputs import GateOnInputs
from validation.gate import validate_candidate
from validation.policy import GatePolicy

POLICY = GatePolicy(per_test_seconds=2.0, wall_seconds=20.0, memory_mb=768, robustness=False, run_mutation=False)
FAKE_KEY = "sk-classeval-fake-" + uuid.uuid4().hex

BOX = '''
import os


class Box:
    """Stores one value."""

    def __init__(self, value=0):
        self.value = value

    def dump(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(str(self.value))
        return path
'''


def box_task(candidate_of, tests_body: str, solution: str = BOX):
    return candidate_of(solution, "import os\nimport sys\nfrom box import Box\n\n" + tests_body, "Box", "box")


class Listener:
    """A TCP server on the host's loopback that counts connections: a sandboxed test must not reach it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


@pytest.mark.slow
def test_adversarial_corpus_is_contained_and_classified(pool, candidate_of, tmp_path, monkeypatch):
    monkeypatch.setenv("CLASSEVAL_TEST_API_KEY", FAKE_KEY)
    monkeypatch.setenv("GITHUB_TOKEN", FAKE_KEY)
    host_target = tmp_path / "escaped" / "written.txt"
    etc_target = f"/etc/classeval-escape-{uuid.uuid4().hex}"
    checkout_target = Path(__file__).resolve().parent / f"escape-{uuid.uuid4().hex}.txt"
    etc_before = sorted(os.listdir("/etc"))
    listener = Listener()
    clean = box_task(candidate_of, "def test_value():\n    assert Box(3).value == 3\n")
    corpus = {
        "write_outside": (box_task(candidate_of,
                                   f"def test_etc():\n    Box(1).dump({etc_target!r})\n\n\n"
                                   f"def test_checkout():\n    Box(1).dump({str(checkout_target)!r})\n\n\n"
                                   f"def test_host_tmp():\n    Box(1).dump({str(host_target)!r})\n"),
                          RejectReason.SANDBOX_VIOLATION),
        "socket": (box_task(candidate_of,
                            "import socket\n\n\ndef test_connect():\n"
                            f"    socket.create_connection(('127.0.0.1', {listener.port}), timeout=1).close()\n"),
                   RejectReason.SANDBOX_VIOLATION),
        "fork_bomb": (box_task(candidate_of,
                               "def test_bomb():\n    while True:\n        try:\n            os.fork()\n"
                               "        except OSError:\n            pass\n"),
                      RejectReason.RESOURCE_LIMIT),
        "memory": (box_task(candidate_of, "def test_alloc():\n    assert len(bytearray(64 * 2**30)) > 0\n"),
                   RejectReason.RESOURCE_LIMIT),
        "loop": (box_task(candidate_of, "def test_forever():\n    while True:\n        pass\n"), RejectReason.TIMEOUT),
        "os_exit": (box_task(candidate_of, "def test_exit():\n    os._exit(0)\n\n\ndef test_after():\n    assert True\n"),
                    RejectReason.SANDBOX_VIOLATION),
        "kill_parent": (box_task(candidate_of, "import signal\n\n\ndef test_kill():\n"
                                               "    os.kill(os.getppid(), signal.SIGKILL)\n"),
                        RejectReason.SANDBOX_VIOLATION),
        "api_key": (box_task(candidate_of,
                             "def test_read_key():\n    key = os.environ['CLASSEVAL_TEST_API_KEY']\n"
                             "    print(key)\n    assert key\n\n\n"
                             "def test_env_is_clean():\n"
                             "    assert not [k for k in os.environ if 'KEY' in k or 'TOKEN' in k]\n"),
                    RejectReason.TESTS_FAIL),
        "print_100mb": (box_task(candidate_of, "def test_flood():\n    sys.stdout.write('x' * 100_000_000)\n"),
                        RejectReason.RESOURCE_LIMIT),
        "builtins": (box_task(candidate_of, "def test_value():\n    assert Box(2).value == 2\n",
                              solution="import builtins\nbuiltins.isinstance = lambda *a: True\n"
                                       "builtins.open = None\n" + BOX),
                     None),
    }
    names = list(corpus)
    # A clean task after every hostile one: each must still run in the same pool.
    candidates = [c for name in names for c in (corpus[name][0], clean)]
    try:
        # two at a time through the driver, as a build's gate stage runs them
        reports = run_stage(GateOnInputs(candidates, POLICY),
                            command_context(Settings(artifacts=tmp_path, seeds=tmp_path, domains=tmp_path)),
                            ThreadExecutor(jobs=2, pool=pool))
    finally:
        listener.close()
    by_name = dict(zip(names, reports[0::2]))
    for name, (_, expected) in corpus.items():
        report = by_name[name]
        assert not report.passed, name
        if expected is not None:
            assert report.reasons[0] == expected, (name, report.reasons, report.evidence.get("rejections"))
    for report in reports[1::2]:
        assert report.check("all_tests_pass").passed, report.evidence.get("rejections")

    # The fake secrets never reached the sandbox, and nothing the runs saw contains them.
    key_tests = {t.test_id: t.outcome for t in by_name["api_key"].tests}
    assert key_tests == {"test_box.py::test_read_key": "failed", "test_box.py::test_env_is_clean": "passed"}
    assert all(FAKE_KEY not in r.to_json() for r in reports)
    # Output is captured and truncated.
    assert len(by_name["print_100mb"].evidence["base_run"]["output_tail"]) <= 3000
    # Nothing outside the sandbox changed.
    assert not host_target.exists() and not host_target.parent.exists()
    assert not os.path.exists(etc_target) and not checkout_target.exists()
    assert sorted(os.listdir("/etc")) == etc_before
    assert listener.connections == 0
    for worker in list(pool._all):  # no process a run started is left behind
        if worker.cgroup is not None and worker.alive():
            assert worker.cgroup.pids() <= worker.baseline


def test_protections_are_reported(pool, candidate_of):
    protections = pool.protections
    assert protections["clean_environment"] and protections["rlimits"]
    if protections["bubblewrap"]:
        assert protections["network_isolated"] and protections["pid_namespace"]
    report = validate_candidate(box_task(candidate_of, "def test_value():\n    assert Box(3).value == 3\n"), POLICY,
                                pool)
    assert report.protections == protections
    assert json.loads(report.to_json())["protections"] == protections
