"""Stopping a build: after a stop nothing more is written, a signal becomes `BuildStopped` with its exit
code (once), and every open sandbox pool can be closed at once with its runs cut short."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from core import stopping
from core.funnel import StageCount
from core.store import ArtifactStore
from validation.sandbox import SandboxJob, SandboxPool
from validation.sandbox.pool import close_all_pools


@pytest.fixture(autouse=True)
def _fresh():
    stopping.reset()
    yield
    stopping.reset()


def test_no_record_or_run_file_is_written_after_a_stop(tmp_path):
    store = ArtifactStore(tmp_path)
    assert store.write("run-1", "enhance", "a", StageCount(received=1))
    stopping.request("stopped by SIGINT", 130)
    with pytest.raises(stopping.BuildStopped) as stopped:
        store.write("run-1", "enhance", "b", StageCount(received=2))
    assert stopped.value.exit_code == 130 and not store.has("run-1", "enhance", "b")
    with pytest.raises(stopping.BuildStopped):
        store.write_run_file("run-1", "funnel.json", "{}")
    assert store.has("run-1", "enhance", "a")


def test_a_signal_raises_once_with_its_exit_code_and_a_second_is_ignored():
    with stopping.stop_on_signals():
        with pytest.raises(stopping.BuildStopped) as stopped:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        assert (stopped.value.cause, stopped.value.exit_code) == ("stopped by SIGTERM", 143)
        os.kill(os.getpid(), signal.SIGINT)  # during the clean-up of the first: nothing is raised
        time.sleep(0.2)
    assert stopping.requested().exit_code == 143
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # handlers given back


def test_a_stop_from_another_thread_keeps_its_own_cause():
    with stopping.stop_on_signals():
        with pytest.raises(stopping.BuildStopped) as stopped:
            threading.Timer(0.1, stopping.interrupt_main, ("lost the Prefect server at X", 1)).start()
            time.sleep(5)
    assert (stopped.value.cause, stopped.value.exit_code) == ("lost the Prefect server at X", 1)


@pytest.mark.timeout(120)  # without a real signal the wait below never ends: the test fails by its time limit
def test_a_stop_from_another_thread_ends_a_main_thread_blocked_in_a_wait():
    # A build's main thread waits on futures while worker threads do the work; the stop must reach it there.
    never_set = threading.Event()
    with stopping.stop_on_signals():
        with pytest.raises(stopping.BuildStopped) as stopped:
            threading.Timer(0.1, stopping.interrupt_main, ("lost the Prefect server at Y", 1)).start()
            never_set.wait()
    assert stopped.value.cause == "lost the Prefect server at Y"


def test_closing_every_pool_cuts_a_running_job_short_and_refuses_new_ones():
    sleeper = {"test_sleep.py": "import time\n\ndef test_sleep():\n    time.sleep(60)\n"}
    with SandboxPool(jobs=1) as pool:
        results = []
        runner = threading.Thread(target=lambda: results.append(pool.run(SandboxJob(files=sleeper, test_file="test_sleep.py"))))
        runner.start()
        time.sleep(3)  # the worker starts and the test begins sleeping
        assert close_all_pools() >= 1
        runner.join(timeout=120)
        assert not runner.is_alive()
        assert results[0].status == "worker_died"  # killed by the close, not ended by the test or its time limit
        with pytest.raises(RuntimeError, match="closed"):
            pool.run(SandboxJob(files=sleeper, test_file="test_sleep.py"))
