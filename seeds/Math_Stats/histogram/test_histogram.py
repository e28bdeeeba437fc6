import pytest

from histogram import Histogram


@pytest.fixture
def hist() -> Histogram:
    h = Histogram(0.0, 10.0, 5)
    h.add_all([0.5, 1.5, 2.5, 2.7, 3.1, 9.9, -4.0, 12.0])
    return h


# constructor
def test_init_rejects_bad_range_and_bins():
    with pytest.raises(ValueError):
        Histogram(5.0, 5.0, 3)
    with pytest.raises(ValueError):
        Histogram(0.0, 1.0, 0)
    assert Histogram(0.0, 1.0, 3).counts() == [0, 0, 0]


# bin_index
def test_bin_index_inside_range():
    assert Histogram(0.0, 10.0, 5).bin_index(3.9) == 1


def test_bin_index_lower_edge_belongs_to_bin():
    assert Histogram(0.0, 10.0, 5).bin_index(4.0) == 2


def test_bin_index_high_goes_to_last_bin():
    assert Histogram(0.0, 10.0, 5).bin_index(10.0) == 4


def test_bin_index_below_range():
    assert Histogram(0.0, 10.0, 5).bin_index(-0.1) == -1


def test_bin_index_above_range():
    assert Histogram(0.0, 10.0, 5).bin_index(10.1) == 5


def test_bin_index_negative_range():
    assert Histogram(-10.0, -5.0, 5).bin_index(-7.5) == 2


def test_single_bin_histogram_counts_whole_range():
    h = Histogram(0.0, 1.0, 1)
    assert h.add_all([0.0, 0.5, 1.0]) == 3
    assert h.counts() == [3]


# add / add_all / counts / outliers
def test_add_returns_bin_and_counts():
    h = Histogram(0.0, 10.0, 5)
    assert h.add(7.0) == 3
    assert h.counts() == [0, 0, 0, 1, 0]


def test_add_underflow_counted_separately():
    h = Histogram(0.0, 10.0, 5)
    assert h.add(-3.0) == -1
    assert h.outliers() == (1, 0)
    assert h.counts() == [0, 0, 0, 0, 0]


def test_add_overflow_counted_separately():
    h = Histogram(0.0, 10.0, 5)
    assert h.add(30.0) == 5
    assert h.outliers() == (0, 1)


def test_add_all_returns_in_range_count(hist):
    assert hist.add_all([1.0, 11.0, 5.0]) == 2


def test_add_all_empty_list():
    assert Histogram(0.0, 1.0, 2).add_all([]) == 0


def test_counts_of_fixture(hist):
    assert hist.counts() == [2, 3, 0, 0, 1]


def test_counts_returns_copy(hist):
    copy = hist.counts()
    copy[0] = 99
    assert hist.counts()[0] == 2


def test_outliers_of_fixture(hist):
    assert hist.outliers() == (1, 1)


# bin_edges
def test_bin_edges_first_bin(hist):
    assert hist.bin_edges(0) == (0.0, 2.0)


def test_bin_edges_last_bin_ends_at_high():
    assert Histogram(0.0, 1.0, 3).bin_edges(2) == (pytest.approx(2.0 / 3.0), 1.0)


def test_bin_edges_negative_index_raises_index_error(hist):
    with pytest.raises(IndexError):
        hist.bin_edges(-1)


def test_bin_edges_too_large_index_raises_index_error(hist):
    with pytest.raises(IndexError):
        hist.bin_edges(5)


# mode_bin
def test_mode_bin_of_fixture(hist):
    assert hist.mode_bin() == (2.0, 4.0)


def test_mode_bin_tie_prefers_lower_bin():
    h = Histogram(0.0, 4.0, 4)
    h.add_all([3.5, 0.5])
    assert h.mode_bin() == (0.0, 1.0)


def test_mode_bin_only_outliers_raises_value_error():
    h = Histogram(0.0, 4.0, 4)
    h.add_all([-1.0, 9.0])
    with pytest.raises(ValueError):
        h.mode_bin()


# quantile
def test_quantile_median_interpolates():
    h = Histogram(0.0, 10.0, 2)
    h.add_all([1.0, 2.0, 6.0, 7.0])
    assert h.quantile(0.5) == 5.0


def test_quantile_inside_bin():
    h = Histogram(0.0, 10.0, 2)
    h.add_all([1.0, 2.0, 6.0, 7.0])
    assert h.quantile(0.75) == 7.5


def test_quantile_zero_is_start_of_first_filled_bin(hist):
    assert hist.quantile(0.0) == 0.0


def test_quantile_one_is_end_of_last_filled_bin(hist):
    assert hist.quantile(1.0) == 10.0


def test_quantile_skips_empty_bins():
    h = Histogram(0.0, 10.0, 5)
    h.add_all([8.5, 9.0])
    assert h.quantile(0.5) == 9.0


def test_quantile_out_of_range_q_raises_value_error(hist):
    with pytest.raises(ValueError):
        hist.quantile(1.5)


def test_quantile_empty_raises_value_error():
    h = Histogram(0.0, 1.0, 2)
    h.add(5.0)
    with pytest.raises(ValueError):
        h.quantile(0.5)


# rebin
def test_rebin_merges_pairs():
    h = Histogram(0.0, 4.0, 4)
    h.add_all([0.5, 1.5, 2.5, 3.5, 3.6])
    h.rebin(2)
    assert h.counts() == [2, 3]


def test_rebin_factor_one_changes_nothing(hist):
    hist.rebin(1)
    assert hist.counts() == [2, 3, 0, 0, 1]


def test_rebin_non_divisor_raises_value_error(hist):
    with pytest.raises(ValueError):
        hist.rebin(2)


def test_rebin_zero_factor_raises_value_error(hist):
    with pytest.raises(ValueError):
        hist.rebin(0)


# scenarios
def test_scenario_rebin_changes_layout_for_later_adds():
    h = Histogram(0.0, 8.0, 8)
    h.add_all([0.5, 1.5, 1.7, 6.2])
    h.rebin(4)
    assert h.bin_index(5.0) == 1
    assert h.add(5.0) == 1
    assert h.counts() == [3, 2]
    assert h.bin_edges(1) == (4.0, 8.0)
    assert h.mode_bin() == (0.0, 4.0)
    assert h.quantile(0.5) == pytest.approx(10.0 / 3.0)
    assert h.outliers() == (0, 0)


def test_scenario_add_then_rebin_then_add_all():
    h = Histogram(10.0, 20.0, 10)
    assert h.add(19.5) == 9
    h.rebin(5)
    assert h.add_all([10.0, 12.0, 25.0]) == 2
    assert h.counts() == [2, 1]
    assert h.outliers() == (0, 1)
    assert h.mode_bin() == (10.0, 15.0)
    assert h.quantile(1.0) == 20.0
    h.rebin(2)
    assert h.counts() == [3]
    assert h.bin_edges(0) == (10.0, 20.0)
