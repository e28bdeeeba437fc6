import pytest

from gradebook_histogram import CourseResults


@pytest.fixture
def course():
    course = CourseResults()
    for mark in (70, 85, 90):
        course.add_mark("ann", mark)
    course.add_mark("bo", 100)
    return course


def test_finalising_counts_the_grade_in_its_band(course):
    assert course.band_count(80) == 0
    assert course.finalise("ann") == 82
    assert course.band_count(80) == 1
    assert course.finalise("bo") == 100
    assert course.band_count(90) == 1
    assert course.counted() == 2


def test_a_finalised_student_takes_no_more_marks(course):
    course.finalise("bo")
    with pytest.raises(ValueError):
        course.add_mark("bo", 50)
    with pytest.raises(ValueError):
        course.finalise("bo")
    assert course.marks_of("bo") == [100]
    assert course.counted() == 1


def test_marks_accumulate_until_finalised(course):
    course.add_mark("cy", 10)
    course.add_mark("cy", 15)
    assert course.marks_of("cy") == [10, 15]
    assert course.finalise("cy") == 12
    assert course.band_count(10) == 1
    assert course.band_count(0) == 0


def test_refusals(course):
    with pytest.raises(ValueError):
        course.add_mark("dee", 101)
    with pytest.raises(LookupError):
        course.finalise("dee")
    with pytest.raises(IndexError):
        course.band_count(15)
    with pytest.raises(IndexError):
        course.band_count(100)
    assert course.marks_of("dee") == []
