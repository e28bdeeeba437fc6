import pytest

from playlist_stats import ListeningLog


@pytest.fixture
def log():
    log = ListeningLog()
    log.add_track("intro", 60)
    log.add_track("suite", 300)
    return log


def test_playing_records_the_tracks_length(log):
    assert log.plays() == 0
    assert log.play("suite") == 300
    assert log.play("intro") == 60
    assert log.plays() == 2
    assert log.mean_length() == pytest.approx(180.0)
    assert log.longest() == 300


def test_outside_plays_join_the_statistics(log):
    log.add_sample(30)
    log.play("intro")
    assert log.plays() == 2
    assert log.mean_length() == pytest.approx(45.0)
    with pytest.raises(ValueError):
        log.add_sample(-1)
    assert log.plays() == 2


def test_removed_tracks_keep_their_plays(log):
    log.play("suite")
    log.remove_track("suite")
    assert log.titles() == ["intro"]
    assert log.longest() == 300
    with pytest.raises(KeyError):
        log.play("suite")
    log.add_track("suite", 200)
    assert log.titles() == ["intro", "suite"]
    log.play("suite")
    assert log.mean_length() == pytest.approx(250.0)


def test_empty_statistics_and_refusals(log):
    assert log.mean_length() == 0.0
    assert log.longest() == 0
    with pytest.raises(ValueError):
        log.add_track("intro", 10)
    with pytest.raises(ValueError):
        log.add_track("gap", 0)
    with pytest.raises(KeyError):
        log.remove_track("gap")
    assert log.titles() == ["intro", "suite"]
