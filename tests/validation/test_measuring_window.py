"""Coverage and the interaction profile run only inside a test's phases in the sandbox: nothing a test's
fixtures, body or finalizers run may be lost, and nothing is counted twice."""

from __future__ import annotations

from pathlib import Path

from validation.sandbox import SandboxJob

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

def _by_test(trace: dict) -> dict[str, list[dict]]:
    return {t["nodeid"].rsplit("::", 1)[-1]: t["instances"] for t in trace["tests"]}


def test_phased_trace_equals_the_whole_test_trace(pool, direct_trace, tmp_path: Path) -> None:
    run = pool.run(SandboxJob(files={"ledger.py": LEDGER, "test_ledger.py": LEDGER_TESTS}, test_file="test_ledger.py",
                              coverage_file="ledger.py", per_test_contexts=True, trace_class=("ledger", "Ledger")))
    assert run.status == "completed" and run.counts().get("passed") == 2, run.notes
    assert not run.trace["errors"]
    phased = _by_test(run.trace)
    whole = direct_trace(tmp_path, {"ledger.py": LEDGER, "test_ledger.py": LEDGER_TESTS}, "ledger", "Ledger",
                         "test_ledger.py")
    assert phased == _by_test(whole)
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
