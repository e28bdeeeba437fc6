"""Progress steps and their two reporters, on a fake clock (no test waits or asserts on real time)."""

from __future__ import annotations

import io
import threading
from datetime import datetime, timezone

import pytest
from rich.console import Console

from core import progress
from core.progress import LogReporter, RichReporter, Step


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def fixed_now() -> datetime:
    return datetime(2026, 12, 1, 4, 0, 0, tzinfo=timezone.utc)


def test_rate_and_time_left_leave_out_resumed_records():
    clock = FakeClock()
    step = Step("validate", 100, clock=clock)
    step.resume(40)
    assert step.rate is None and step.remaining_seconds is None  # nothing done by this attempt yet
    clock.now += 10
    step.advance(20)
    assert step.done == 60
    assert step.rate == pytest.approx(2.0)
    assert step.remaining_seconds == pytest.approx(20.0)


def test_unknown_total_has_no_time_left():
    clock = FakeClock()
    step = Step("compose", None, clock=clock)
    clock.now += 4
    step.advance(2)
    assert step.rate == pytest.approx(0.5)
    assert step.remaining_seconds is None
    assert progress.counts(step) == "2"


@pytest.mark.parametrize(("seconds", "text"), [(0.4, "0s"), (42, "42s"), (185, "3m05s"), (3720, "1h02m")])
def test_duration(seconds, text):
    assert progress.duration(seconds) == text


def test_log_reporter_writes_start_every_n_records_and_end():
    clock = FakeClock()
    out = io.StringIO()
    reporter = LogReporter(out, every_records=5, every_seconds=3600, clock=clock, now=fixed_now)
    step = Step("enhance", 12, clock=clock, on_change=reporter.advanced)
    reporter.started(step)
    for _ in range(12):
        clock.now += 1
        step.advance()
    step.finish()
    reporter.finished(step)
    lines = out.getvalue().splitlines()
    assert lines == [
        "2026-12-01 04:00:00 enhance: started (12 to do)",
        "2026-12-01 04:00:00 enhance: 5/12 (41%), 1.00/s, 7s left",
        "2026-12-01 04:00:00 enhance: 10/12 (83%), 1.00/s, 2s left",
        "2026-12-01 04:00:00 enhance: finished 12/12 (100%) in 12s",
    ]


def test_log_reporter_writes_a_line_after_m_seconds_even_below_n_records():
    clock = FakeClock()
    out = io.StringIO()
    reporter = LogReporter(out, every_records=1000, every_seconds=30, clock=clock, now=fixed_now)
    step = Step("release", 2000, clock=clock, on_change=reporter.advanced)
    reporter.started(step)
    clock.now += 10
    step.advance()
    assert len(out.getvalue().splitlines()) == 1  # 1 record, 10 s: too soon
    clock.now += 25
    step.advance()
    assert out.getvalue().splitlines()[-1].endswith("release: 2/2000 (0%), 0.06/s, 9h42m left")


def test_default_every_records_is_a_tenth_of_the_total():
    clock = FakeClock()
    out = io.StringIO()
    reporter = LogReporter(out, every_seconds=3600, clock=clock, now=fixed_now)
    step = Step("validate", 100, clock=clock, on_change=reporter.advanced)
    reporter.started(step)
    for _ in range(100):
        clock.now += 1
        step.advance()
    assert len(out.getvalue().splitlines()) == 1 + 10


def test_resumed_records_are_named_in_the_line():
    clock = FakeClock()
    out = io.StringIO()
    reporter = LogReporter(out, every_records=1, clock=clock, now=fixed_now)
    step = Step("validate", 10, clock=clock, on_change=reporter.advanced)
    reporter.started(step)
    step.resume(6)
    clock.now += 2
    step.advance()
    assert out.getvalue().splitlines()[-1].endswith("validate: 7/10 (70%), 6 from an earlier attempt, 0.50/s, 6s left")


def test_step_context_reports_through_the_installed_reporter_and_marks_errors():
    out = io.StringIO()
    with progress.reporting(LogReporter(out, every_records=1, now=fixed_now)):
        with progress.step("compose", total=2) as step:
            step.advance()
            step.advance()
        with pytest.raises(RuntimeError):
            with progress.step("release", total=3) as step:
                step.advance()
                raise RuntimeError("boom")
    lines = [line.split(" ", 2)[2] for line in out.getvalue().splitlines()]
    assert lines[0] == "compose: started (2 to do)"
    assert lines[3].startswith("compose: finished 2/2 (100%) in ")
    assert lines[4] == "release: started (3 to do)"
    assert lines[-1].startswith("release: stopped by an error at 1/3 (33%) in ")


def test_without_a_reporter_steps_are_silent(capsys):
    with progress.step("enhance", total=1) as step:
        step.advance()
    assert step.done == 1
    assert capsys.readouterr() == ("", "")


def test_steps_advance_from_many_threads():
    out = io.StringIO()
    with progress.reporting(LogReporter(out, every_records=100, now=fixed_now)):
        with progress.step("validate", total=800) as step:
            threads = [threading.Thread(target=lambda: [step.advance() for _ in range(100)]) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    assert step.done == 800
    assert out.getvalue().splitlines()[-1].split(" ", 2)[2].startswith("validate: finished 800/800 (100%)")


def test_reporter_for_picks_bars_in_a_terminal_and_lines_otherwise():
    piped = Console(file=io.StringIO(), force_terminal=False)
    assert isinstance(progress.reporter_for(piped), LogReporter)
    terminal = Console(file=io.StringIO(), force_terminal=True, width=120)
    reporter = progress.reporter_for(terminal)
    assert isinstance(reporter, RichReporter)
    with progress.reporting(reporter):
        with progress.step("enhance", total=4) as step:
            step.advance(4)
    assert "enhance" in terminal.file.getvalue() and "4/4" in terminal.file.getvalue()


def test_a_step_of_unknown_size_logs_every_ten_items_and_one_that_counts_nothing_only_its_time():
    clock = FakeClock()
    out = io.StringIO()
    reporter = LogReporter(out, every_seconds=3600, clock=clock, now=fixed_now)
    step = Step("release tasks", None, clock=clock, on_change=reporter.advanced)
    reporter.started(step)
    for _ in range(25):
        clock.now += 1
        step.advance()
    assert [line.split(" ", 2)[2] for line in out.getvalue().splitlines()] == [
        "release tasks: started", "release tasks: 10, 1.00/s", "release tasks: 20, 1.00/s"]
    quiet = Step("release", None, clock=clock)
    reporter.started(quiet)
    clock.now += 27
    quiet.finish()
    reporter.finished(quiet)
    assert out.getvalue().splitlines()[-1].endswith("release: finished in 27s")
