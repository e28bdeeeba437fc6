import pytest

from caller_carries_value import CoursesAndHistogram


def test_the_caller_counts_a_mean():
    book = CoursesAndHistogram()
    book.add_mark("ann", 70)
    book.add_mark("ann", 91)
    book.count(book.mean_mark("ann"))
    assert book.band_count(80) == 1
    book.add_mark("ann", 100)
    assert book.mean_mark("ann") == 87
    book.count(100)
    assert book.band_count(90) == 1


def test_refusals():
    book = CoursesAndHistogram()
    with pytest.raises(KeyError):
        book.mean_mark("bo")
    with pytest.raises(ValueError):
        book.count(101)
    assert book.band_count(0) == 0
