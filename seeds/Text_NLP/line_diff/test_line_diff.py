import pytest

from line_diff import LineDiff


@pytest.fixture
def diff() -> LineDiff:
    d = LineDiff()
    d.set_original("apples\nbread\ncheese")
    d.set_revised("apples\nbutter\ncheese\ndates")
    return d


# set_original / set_revised
def test_set_original_counts_lines():
    assert LineDiff().set_original("a\nb\nc\n") == 3


def test_set_original_empty_text():
    assert LineDiff().set_original("") == 0


def test_set_revised_handles_crlf():
    d = LineDiff()
    assert d.set_revised("a\r\nb") == 2
    assert d.edit_script() == [("+", "a"), ("+", "b")]


# edit_script
def test_edit_script_replacement_removes_before_adding(diff):
    assert diff.edit_script() == [
        ("=", "apples"),
        ("-", "bread"),
        ("+", "butter"),
        ("=", "cheese"),
        ("+", "dates"),
    ]


def test_edit_script_identical_texts_all_kept():
    d = LineDiff()
    d.set_original("x\ny")
    d.set_revised("x\ny")
    assert d.edit_script() == [("=", "x"), ("=", "y")]


def test_edit_script_deleted_tail():
    d = LineDiff()
    d.set_original("x\ny\nz")
    d.set_revised("x")
    assert d.edit_script() == [("=", "x"), ("-", "y"), ("-", "z")]


def test_edit_script_moved_line_is_minimal():
    d = LineDiff()
    d.set_original("a\nb\nc")
    d.set_revised("b\nc\na")
    assert d.edit_script() == [("-", "a"), ("=", "b"), ("=", "c"), ("+", "a")]


def test_edit_script_prefers_addition_when_it_keeps_more():
    d = LineDiff()
    d.set_original("b\nc")
    d.set_revised("a\nb\nc")
    assert d.edit_script() == [("+", "a"), ("=", "b"), ("=", "c")]


def test_edit_script_ignore_whitespace_keeps_original_text():
    d = LineDiff(ignore_whitespace=True)
    d.set_original("x  =  1\ny")
    d.set_revised("x = 1 \nz")
    assert d.edit_script() == [("=", "x  =  1"), ("-", "y"), ("+", "z")]


def test_edit_script_whitespace_matters_by_default():
    d = LineDiff()
    d.set_original("x = 1")
    d.set_revised("x  = 1")
    assert d.edit_script() == [("-", "x = 1"), ("+", "x  = 1")]


def test_edit_script_ignore_whitespace_still_separates_words():
    d = LineDiff(ignore_whitespace=True)
    d.set_original("a b")
    d.set_revised("ab")
    assert d.edit_script() == [("-", "a b"), ("+", "ab")]


def test_edit_script_returns_copy(diff):
    first = diff.edit_script()
    first.clear()
    assert len(diff.edit_script()) == 5


# render
def test_render_prefixes(diff):
    assert diff.render() == "  apples\n- bread\n+ butter\n  cheese\n+ dates"


def test_render_both_empty():
    d = LineDiff()
    d.set_original("")
    assert d.render() == ""


# stats / similarity
def test_stats_counts(diff):
    assert diff.stats() == {"added": 2, "removed": 1, "unchanged": 2}


def test_similarity_ratio(diff):
    assert diff.similarity() == pytest.approx(4 / 7)


def test_similarity_identical_is_one():
    d = LineDiff()
    d.set_original("same")
    d.set_revised("same")
    assert d.similarity() == 1.0


def test_similarity_both_empty_is_one():
    d = LineDiff()
    d.set_revised("")
    assert d.similarity() == 1.0


def test_similarity_disjoint_is_zero():
    d = LineDiff()
    d.set_original("a")
    d.set_revised("b")
    assert d.similarity() == 0.0


# changed_lines
def test_changed_lines_of_fixture(diff):
    assert diff.changed_lines() == [2]


def test_changed_lines_counts_only_original_lines():
    d = LineDiff()
    d.set_original("a\nb\nc\nd")
    d.set_revised("new\na\nc")
    assert d.changed_lines() == [2, 4]


def test_changed_lines_pure_addition_is_empty():
    d = LineDiff()
    d.set_original("a")
    d.set_revised("a\nb")
    assert d.changed_lines() == []


# apply
def test_apply_own_script_reproduces_revised(diff):
    assert diff.apply(diff.edit_script()) == "apples\nbutter\ncheese\ndates"


def test_apply_hand_written_script():
    d = LineDiff()
    d.set_original("a\nb")
    assert d.apply([("-", "a"), ("=", "b"), ("+", "c")]) == "b\nc"


def test_apply_mismatched_line_raises_value_error(diff):
    with pytest.raises(ValueError):
        diff.apply([("=", "pears")])


def test_apply_unknown_op_raises_value_error(diff):
    with pytest.raises(ValueError):
        diff.apply([("?", "apples")])


def test_apply_unknown_op_on_matching_line_raises_value_error():
    d = LineDiff()
    d.set_original("a")
    with pytest.raises(ValueError):
        d.apply([("~", "a")])


def test_apply_incomplete_script_raises_value_error(diff):
    with pytest.raises(ValueError):
        diff.apply([("=", "apples")])


def test_apply_script_longer_than_original_raises_value_error():
    d = LineDiff()
    d.set_original("a")
    with pytest.raises(ValueError):
        d.apply([("=", "a"), ("-", "b")])


def test_apply_ignore_whitespace_matches_loosely():
    d = LineDiff(ignore_whitespace=True)
    d.set_original("  indented")
    assert d.apply([("=", "indented"), ("+", "more")]) == "  indented\nmore"


# scenarios
def test_scenario_reloading_revised_invalidates_cached_script():
    d = LineDiff()
    d.set_original("one\ntwo\nthree")
    d.set_revised("one\ntwo\nthree")
    assert d.stats() == {"added": 0, "removed": 0, "unchanged": 3}
    d.set_revised("one\nthree")
    assert d.edit_script() == [("=", "one"), ("-", "two"), ("=", "three")]
    assert d.changed_lines() == [2]
    assert d.similarity() == pytest.approx(0.8)
    assert d.render() == "  one\n- two\n  three"
    assert d.apply(d.edit_script()) == "one\nthree"


def test_scenario_reloading_original_changes_everything():
    d = LineDiff()
    d.set_revised("b\nc")
    assert d.edit_script() == [("+", "b"), ("+", "c")]
    d.set_original("a\nb")
    script = d.edit_script()
    assert script == [("-", "a"), ("=", "b"), ("+", "c")]
    assert d.stats() == {"added": 1, "removed": 1, "unchanged": 1}
    assert d.changed_lines() == [1]
    d.set_original("x")
    with pytest.raises(ValueError):
        d.apply(script)
    assert d.similarity() == 0.0
    assert d.render() == "- x\n+ b\n+ c"
