import pytest

from constant_play_marker import PlaylistWithStats


@pytest.fixture
def pl():
    pl = PlaylistWithStats()
    pl.add_track("intro", 60)
    pl.add_track("suite", 300)
    return pl


def test_a_play_marker_is_a_sample_of_one(pl):
    assert pl.length() == 360
    pl.mark_play()
    pl.add_sample(3.0)
    assert pl.count() == 2
    assert pl.mean() == pytest.approx(2.0)
    pl.remove_track("intro")
    pl.mark_play()
    assert pl.length() == 300
    assert pl.count() == 3


def test_empty_statistics(pl):
    assert pl.mean() == 0.0
    pl.add_sample(4.0)
    assert pl.mean() == pytest.approx(4.0)


def test_refusals(pl):
    with pytest.raises(ValueError):
        pl.add_track("intro", 10)
    with pytest.raises(ValueError):
        pl.add_track("gap", 0)
    with pytest.raises(KeyError):
        pl.remove_track("gap")
    assert pl.length() == 360
