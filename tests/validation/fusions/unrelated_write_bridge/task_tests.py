import pytest

from unrelated_write_bridge import ScoresAndStats


def test_recording_after_a_check():
    card = ScoresAndStats()
    assert card.score(3) == 3
    assert card.record_checked(2.0) == 3
    card.add(4.0)
    assert card.score(4) == 7
    assert card.mean() == pytest.approx(3.0)
    assert card.total() == 7


def test_refusals():
    card = ScoresAndStats()
    with pytest.raises(ValueError):
        card.score(-1)
    with pytest.raises(ValueError):
        card.mean()
    assert card.record_checked(1.0) == 0
    assert card.mean() == pytest.approx(1.0)
