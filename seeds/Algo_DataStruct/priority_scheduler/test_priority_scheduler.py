import pytest

from priority_scheduler import PriorityScheduler


@pytest.fixture
def sched() -> PriorityScheduler:
    s = PriorityScheduler()
    s.submit("backup", 1, 30)
    s.submit("alert", 5, 2)
    s.submit("report", 3, 10)
    return s


# submit
def test_submit_adds_pending_job():
    s = PriorityScheduler()
    s.submit("index", 2, 4)
    assert s.pending() == ["index"]


def test_submit_duplicate_pending_raises_value_error(sched):
    with pytest.raises(ValueError):
        sched.submit("alert", 1, 1)


def test_submit_name_of_completed_job_raises_value_error(sched):
    sched.run_next()
    with pytest.raises(ValueError):
        sched.submit("alert", 1, 1)


def test_submit_zero_duration_raises_value_error():
    s = PriorityScheduler()
    with pytest.raises(ValueError):
        s.submit("noop", 1, 0)


def test_submit_equal_priorities_run_fifo():
    s = PriorityScheduler()
    s.submit("first", 2, 1)
    s.submit("second", 2, 1)
    s.submit("third", 2, 1)
    assert s.pending() == ["first", "second", "third"]


def test_submit_negative_priority_runs_last():
    s = PriorityScheduler()
    s.submit("later", -1, 1)
    s.submit("sooner", 0, 1)
    assert s.peek() == "sooner"


# cancel
def test_cancel_pending_job(sched):
    assert sched.cancel("alert") is True
    assert sched.pending() == ["report", "backup"]


def test_cancel_unknown_job_returns_false(sched):
    assert sched.cancel("nothing") is False


def test_cancel_top_job_changes_peek(sched):
    sched.cancel("alert")
    assert sched.peek() == "report"


def test_cancel_completed_job_returns_false(sched):
    sched.run_next()
    assert sched.cancel("alert") is False


# change_priority
def test_change_priority_raises_job_to_front(sched):
    sched.change_priority("backup", 10)
    assert sched.peek() == "backup"


def test_change_priority_lowers_job(sched):
    sched.change_priority("alert", 0)
    assert sched.pending() == ["report", "backup", "alert"]


def test_change_priority_keeps_submission_order_among_equals(sched):
    sched.change_priority("report", 1)
    assert sched.pending() == ["alert", "backup", "report"]


def test_change_priority_twice_back_to_original_runs_once():
    s = PriorityScheduler()
    s.submit("a", 1, 1)
    s.change_priority("a", 5)
    s.change_priority("a", 1)
    assert s.run_next() == "a"
    assert s.peek() is None


def test_change_priority_after_cancel_raises_key_error(sched):
    sched.cancel("report")
    with pytest.raises(KeyError):
        sched.change_priority("report", 7)


def test_change_priority_unknown_raises_key_error(sched):
    with pytest.raises(KeyError):
        sched.change_priority("ghost", 3)


# peek / run_next / now
def test_peek_returns_highest_priority(sched):
    assert sched.peek() == "alert"


def test_peek_empty_is_none():
    s = PriorityScheduler()
    s.submit("a", 1, 1)
    s.cancel("a")
    assert s.peek() is None


def test_run_next_runs_in_priority_order(sched):
    assert [sched.run_next(), sched.run_next(), sched.run_next()] == ["alert", "report", "backup"]


def test_run_next_advances_clock(sched):
    sched.run_next()
    assert sched.now() == 2


def test_run_next_empty_raises_index_error():
    s = PriorityScheduler()
    with pytest.raises(IndexError):
        s.run_next()


def test_now_starts_at_zero_and_sums_durations(sched):
    assert sched.now() == 0
    sched.run_next()
    sched.run_next()
    assert sched.now() == 12


# run_until
def test_run_until_starts_jobs_before_deadline(sched):
    assert sched.run_until(5) == ["alert", "report"]
    assert sched.now() == 12


def test_run_until_idles_to_deadline_when_queue_empties(sched):
    assert sched.run_until(100) == ["alert", "report", "backup"]
    assert sched.now() == 100


def test_run_until_current_time_runs_nothing(sched):
    assert sched.run_until(0) == []
    assert sched.pending() == ["alert", "report", "backup"]


def test_run_until_past_deadline_raises_value_error(sched):
    sched.run_next()
    with pytest.raises(ValueError):
        sched.run_until(1)


# pending / completion_time
def test_pending_excludes_completed(sched):
    sched.run_next()
    assert sched.pending() == ["report", "backup"]


def test_completion_time_of_finished_jobs(sched):
    sched.run_until(50)
    assert sched.completion_time("alert") == 2
    assert sched.completion_time("report") == 12
    assert sched.completion_time("backup") == 42


def test_completion_time_of_pending_job_raises_key_error(sched):
    with pytest.raises(KeyError):
        sched.completion_time("backup")


# scenarios
def test_scenario_reprioritise_cancel_and_run():
    s = PriorityScheduler()
    s.submit("email", 2, 3)
    s.submit("compile", 4, 8)
    s.submit("cleanup", 1, 2)
    s.change_priority("cleanup", 9)
    assert s.cancel("compile") is True
    assert s.pending() == ["cleanup", "email"]
    assert s.run_next() == "cleanup"
    assert s.peek() == "email"
    assert s.run_until(4) == ["email"]
    assert s.now() == 5
    assert s.completion_time("email") == 5
    assert s.pending() == []


def test_scenario_jobs_submitted_after_idle_time():
    s = PriorityScheduler()
    assert s.run_until(10) == []
    assert s.now() == 10
    s.submit("late", 1, 5)
    assert s.run_next() == "late"
    assert s.completion_time("late") == 15
    s.submit("later", 1, 1)
    s.change_priority("later", 3)
    assert s.run_until(20) == ["later"]
    assert s.now() == 20


def test_scenario_cancel_then_resubmit_same_name():
    s = PriorityScheduler()
    s.submit("sync", 1, 4)
    s.submit("scan", 2, 1)
    assert s.cancel("sync") is True
    s.submit("sync", 3, 2)
    assert s.peek() == "sync"
    assert s.run_next() == "sync"
    s.cancel("scan")
    assert s.pending() == []
    with pytest.raises(IndexError):
        s.run_next()
    assert s.now() == 2
