"""Steps time themselves; `build --profile` prints stage walls and per-step totals."""

from __future__ import annotations

import threading

import pytest

from core.timing import add_time, format_profile, reset_times, step_times, timed


@pytest.fixture(autouse=True)
def _clean():
    reset_times()
    yield
    reset_times()


def test_steps_add_up_across_threads_and_raising_blocks() -> None:
    def work() -> None:
        for _ in range(50):
            add_time("gate", "base run", 0.01)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with pytest.raises(ValueError):
        with timed("gate", "mutants: run"):
            raise ValueError("still counted")
    steps = {(s.stage, s.step): s for s in step_times()}
    assert steps["gate", "base run"].calls == 200
    assert steps["gate", "base run"].seconds == pytest.approx(2.0)
    assert steps["gate", "mutants: run"].calls == 1


def test_profile_lists_stage_walls_first_then_steps() -> None:
    add_time("gate", "base run", 3.0, calls=2)
    add_time("build", "validate", 12.5)
    text = format_profile(step_times())
    lines = text.splitlines()
    assert lines[1].startswith("validate (stage wall time)") and lines[1].rstrip().endswith("12.5")
    assert lines[2] == "gate:"
    assert lines[3].split() == ["base", "run", "2", "3.0", "1.500"]
