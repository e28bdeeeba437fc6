import pytest

from read_only_report import GradesAndBands


@pytest.fixture
def book():
    book = GradesAndBands()
    book.add_mark("ann", 70)
    book.add_mark("ann", 90)
    return book


def test_the_report_reads_both_halves(book):
    book.count(55)
    mean, counted = book.report("ann")
    assert mean == pytest.approx(80.0) and counted == 1
    book.add_mark("ann", 50)
    book.count(100)
    mean, counted = book.report("ann")
    assert mean == pytest.approx(70.0) and counted == 2
    assert book.mean_mark("ann") == pytest.approx(70.0)
    assert book.counted() == 2


def test_refusals(book):
    with pytest.raises(ValueError):
        book.add_mark("ann", 101)
    with pytest.raises(ValueError):
        book.count(-1)
    with pytest.raises(KeyError):
        book.report("bo")
    with pytest.raises(KeyError):
        book.mean_mark("bo")
    assert book.counted() == 0
