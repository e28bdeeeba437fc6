import pytest

from writes_a_copy import TillPreview


def test_the_preview_leaves_the_till_alone():
    desk = TillPreview(rate=60)
    desk.check_in("101", "ada")
    desk.pay(10)
    assert desk.preview() == 70
    assert desk.takings() == 10
    desk.check_in("102", "bo")
    assert desk.occupied() == 2
    assert desk.preview() == 130
    desk.pay(5)
    assert desk.takings() == 15


def test_refusal():
    desk = TillPreview(rate=60)
    desk.check_in("101", "ada")
    with pytest.raises(ValueError):
        desk.check_in("101", "bo")
    assert desk.occupied() == 1
