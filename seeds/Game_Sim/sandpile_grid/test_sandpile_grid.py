import pytest

from sandpile_grid import SandpileGrid


def test_init_rejects_empty_grid():
    with pytest.raises(ValueError):
        SandpileGrid(0, 3)


def test_render_empty_grid():
    assert SandpileGrid(3, 2).render() == ["000", "000"]


def test_drop_below_threshold_does_not_topple():
    pile = SandpileGrid(3, 3)
    assert pile.drop(2, 0, 3) == 0
    assert pile.height_at(2, 0) == 3


def test_drop_centre_topples_once():
    pile = SandpileGrid(3, 3)
    assert pile.drop(1, 1, 4) == 1
    assert pile.render() == ["010", "101", "010"]


def test_drop_in_corner_loses_grains():
    pile = SandpileGrid(3, 3)
    assert pile.drop(0, 0, 4) == 1
    assert pile.render() == ["010", "100", "000"]
    assert pile.grains_lost() == 2


def test_drop_many_grains_cascades():
    pile = SandpileGrid(3, 3)
    assert pile.drop(1, 1, 16) == 9
    assert pile.render() == ["212", "101", "212"]


def test_drop_on_large_grid_keeps_all_grains():
    pile = SandpileGrid(5, 5)
    assert pile.drop(2, 2, 40) == 29
    assert pile.render() == ["01310", "12321", "33033", "12321", "01310"]
    assert pile.grains_lost() == 0


def test_drop_outside_grid():
    with pytest.raises(IndexError):
        SandpileGrid(3, 3).drop(3, 0)


def test_drop_zero_grains():
    with pytest.raises(ValueError):
        SandpileGrid(3, 3).drop(0, 0, 0)


def test_load_stable_rows():
    pile = SandpileGrid(3, 2)
    assert pile.load(["123", "000"]) == 0
    assert pile.height_at(2, 0) == 3


def test_load_unstable_rows_settles():
    pile = SandpileGrid(2, 1)
    assert pile.load(["40"]) == 1
    assert pile.render() == ["01"]
    assert pile.grains_lost() == 3


def test_load_wrong_shape():
    with pytest.raises(ValueError):
        SandpileGrid(2, 2).load(["00"])


def test_load_non_digit():
    with pytest.raises(ValueError):
        SandpileGrid(2, 1).load(["0x"])


def test_add_pile_adds_cellwise():
    pile = SandpileGrid(2, 2)
    pile.load(["10", "01"])
    assert pile.add_pile(["01", "10"]) == 0
    assert pile.render() == ["11", "11"]


def test_add_pile_topples_everything():
    pile = SandpileGrid(2, 2)
    pile.load(["22", "22"])
    assert pile.add_pile(["22", "22"]) == 4
    assert pile.render() == ["22", "22"]
    assert pile.grains_lost() == 8


def test_add_pile_wrong_width():
    with pytest.raises(ValueError):
        SandpileGrid(2, 2).add_pile(["000", "000"])


def test_height_at_outside_grid():
    with pytest.raises(IndexError):
        SandpileGrid(2, 2).height_at(0, -1)


def test_total_grains_plus_lost_is_conserved():
    pile = SandpileGrid(3, 3)
    pile.drop(0, 1, 9)
    pile.drop(2, 2, 7)
    assert pile.total_grains() + pile.grains_lost() == 16


def test_critical_cells_sorted_by_row():
    pile = SandpileGrid(3, 2)
    pile.load(["303", "030"])
    assert pile.critical_cells() == [(0, 0), (2, 0), (1, 1)]


def test_critical_cells_none():
    pile = SandpileGrid(2, 2)
    pile.drop(0, 0, 2)
    assert pile.critical_cells() == []


def test_largest_avalanche_before_any_change():
    assert SandpileGrid(2, 2).largest_avalanche() == 0


def test_largest_avalanche_tracks_maximum():
    pile = SandpileGrid(3, 3)
    pile.drop(1, 1, 16)
    pile.drop(0, 0, 1)
    assert pile.largest_avalanche() == 9


def test_filling_to_the_brim_scenario():
    pile = SandpileGrid(3, 3)
    assert pile.load(["333", "333", "333"]) == 0
    assert len(pile.critical_cells()) == 9
    assert pile.drop(1, 1) == 10
    assert pile.render() == ["131", "303", "131"]
    assert pile.grains_lost() == 12
    assert pile.critical_cells() == [(1, 0), (0, 1), (2, 1), (1, 2)]
    assert pile.add_pile(["000", "010", "000"]) == 0
    assert pile.drop(1, 0) == 1
    assert pile.height_at(1, 1) == 2
    assert pile.total_grains() == 17
    assert pile.largest_avalanche() == 10


def test_drop_then_load_keeps_history_scenario():
    pile = SandpileGrid(2, 2)
    assert pile.drop(0, 0, 5) == 1
    assert pile.grains_lost() == 2
    assert pile.load(["00", "00"]) == 0
    assert pile.total_grains() == 0
    assert pile.grains_lost() == 2
    assert pile.largest_avalanche() == 1
    assert pile.add_pile(["44", "00"]) == 2
    assert pile.render() == ["11", "11"]
    assert pile.critical_cells() == []
    assert pile.add_pile(["22", "11"]) == 0
    assert pile.critical_cells() == [(0, 0), (1, 0)]


def test_single_cell_grid():
    pile = SandpileGrid(1, 1)
    assert pile.drop(0, 0, 7) == 1
    assert pile.height_at(0, 0) == 3
    assert pile.grains_lost() == 4
