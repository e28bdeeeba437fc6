"""Coverage and the interaction profile run only inside a test's phases in the sandbox: nothing a test's
fixtures, body or finalizers run may be lost, and nothing is counted twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from validation.sandbox import SandboxJob

ROOT = Path(__file__).resolve().parents[2]

LEDGER = '''
class Ledger:
    """Entries with a running balance."""

    def __init__(self):
        self.entries = []

    def add(self, amount):
        self.entries.append(amount)
        return self.balance()

    def balance(self):
        return sum(self.entries)

    def close(self):
        closing = self.balance()
        self.entries = []
        return closing

    def audit(self):
        return len(self.entries)
'''

LEDGER_TESTS = '''
import pytest
from ledger import Ledger


@pytest.fixture
def opened():
    ledger = Ledger()
    ledger.add(5)
    yield ledger
    assert ledger.close() >= 0


def test_add_then_balance(opened):
    opened.add(2)
    assert opened.balance() == 7


def test_audit_alone():
    assert Ledger().audit() == 0
'''

UNPHASED = """
import json, sys
sys.path.insert(0, '.')
from validation.interaction import InteractionTracer
import pytest
tracer = InteractionTracer('ledger', 'Ledger')
code = pytest.main(['-q', '-p', 'no:cacheprovider', '-o', 'addopts=', 'test_ledger.py'], plugins=[tracer])
print(json.dumps({'code': int(code), 'trace': tracer.result()}))
"""


def _unphased_trace(folder: Path) -> dict:
    (folder / "ledger.py").write_text(LEDGER)
    (folder / "test_ledger.py").write_text(LEDGER_TESTS)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run([sys.executable, "-c", UNPHASED], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["code"] == 0
    return result["trace"]


def _by_test(trace: dict) -> dict[str, list[dict]]:
    return {t["nodeid"].rsplit("::", 1)[-1]: t["instances"] for t in trace["tests"]}


def test_phased_trace_equals_the_whole_test_trace(pool, tmp_path: Path) -> None:
    run = pool.run(SandboxJob(files={"ledger.py": LEDGER, "test_ledger.py": LEDGER_TESTS}, test_file="test_ledger.py",
                              coverage_file="ledger.py", per_test_contexts=True, trace_class=("ledger", "Ledger")))
    assert run.status == "completed" and run.counts().get("passed") == 2, run.notes
    assert not run.trace["errors"]
    phased = _by_test(run.trace)
    assert phased == _by_test(_unphased_trace(tmp_path))
    # the finalizer's close() (teardown phase) belongs to the test that used the fixture
    assert "close" in phased["test_add_then_balance"][0]["driven"]


def test_lines_run_in_setup_teardown_and_at_import_are_covered(pool) -> None:
    run = pool.run(SandboxJob(files={"ledger.py": LEDGER, "test_ledger.py": LEDGER_TESTS}, test_file="test_ledger.py",
                              coverage_file="ledger.py", per_test_contexts=True))
    coverage = run.coverage
    assert coverage["missing_lines"] == []
    close_body = LEDGER.splitlines().index("        closing = self.balance()") + 1
    class_line = LEDGER.splitlines().index("class Ledger:") + 1
    contexts = {int(line): set(names) for line, names in coverage["contexts"].items()}
    assert any(name.endswith("::test_add_then_balance") for name in contexts[close_body])
    assert contexts[class_line] == {""}  # run at import, during collection: no test's context


TICKER = '''
import threading
import time


class Ticker:
    """Counts ticks on a thread of its own until stopped."""

    def __init__(self):
        self.ticks = 0
        self.stopped = threading.Event()
        self.closed = False

    def run(self):
        while not self.stopped.is_set():
            self.tick()
            time.sleep(0.001)
        self.close()

    def tick(self):
        self.ticks += 1

    def close(self):
        self.closed = True
'''

TICKER_TESTS = '''
import threading
import time

from ticker import Ticker

TICKER = Ticker()
THREAD = threading.Thread(target=TICKER.run, daemon=True)


def test_start():
    THREAD.start()
    deadline = time.monotonic() + 5
    while TICKER.ticks == 0 and time.monotonic() < deadline:
        time.sleep(0.001)
    assert TICKER.ticks > 0


def test_ticks_between_tests():
    time.sleep(0.02)


def test_stop():
    TICKER.stopped.set()
    THREAD.join(5)
    assert TICKER.closed
'''


def test_a_thread_that_outlives_its_test_keeps_its_lines(pool) -> None:
    run = pool.run(SandboxJob(files={"ticker.py": TICKER, "test_ticker.py": TICKER_TESTS}, test_file="test_ticker.py",
                              coverage_file="ticker.py", per_test_contexts=True))
    assert run.counts().get("passed") == 3, run.notes
    close_body = TICKER.splitlines().index("        self.closed = True") + 1
    assert close_body not in run.coverage["missing_lines"]
    assert run.coverage["missing_lines"] == []
