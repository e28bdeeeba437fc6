import pytest

from task_timesheet import ProjectBoard


@pytest.fixture
def board():
    board = ProjectBoard()
    board.add_task("t1", "site")
    board.add_task("t2", "app")
    board.add_task("t3", "site")
    return board


def test_completing_books_hours_on_the_tasks_project(board):
    assert board.complete("t1", 3) == 3
    assert board.complete("t3", 2) == 5
    assert board.booked("site") == 5
    assert board.booked("app") == 0
    assert board.open_tasks() == ["t2"]
    assert board.busiest() == "site"


def test_direct_bookings_join_the_timesheet(board):
    board.log_hours("app", 4)
    assert board.busiest() == "app"
    assert board.complete("t2", 1) == 5
    board.complete("t1", 6)
    assert board.busiest() == "site"


def test_refusals(board):
    assert board.busiest() is None
    board.complete("t1", 1)
    with pytest.raises(ValueError):
        board.complete("t1", 1)
    with pytest.raises(KeyError):
        board.complete("t9", 1)
    with pytest.raises(ValueError):
        board.add_task("t2", "app")
    with pytest.raises(ValueError):
        board.log_hours("app", 0)
    assert board.booked("site") == 1
