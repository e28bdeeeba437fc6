import pytest

from prefix_trie import PrefixTrie


@pytest.fixture
def trie() -> PrefixTrie:
    t = PrefixTrie()
    t.insert("car", 3)
    t.insert("cart", 1)
    t.insert("care", 2)
    t.insert("dog", 1)
    return t


# insert
def test_insert_new_word_returns_one():
    t = PrefixTrie()
    assert t.insert("apple") == 1


def test_insert_twice_accumulates():
    t = PrefixTrie()
    t.insert("apple")
    assert t.insert("apple", 4) == 5


def test_insert_prefix_of_existing_word_is_separate():
    t = PrefixTrie()
    t.insert("apple")
    assert t.insert("app") == 1
    assert t.frequency("apple") == 1


def test_insert_zero_count_raises_value_error():
    with pytest.raises(ValueError):
        PrefixTrie().insert("apple", 0)


def test_insert_empty_word_raises_value_error():
    with pytest.raises(ValueError):
        PrefixTrie().insert("")


def test_insert_non_string_raises_type_error():
    with pytest.raises(TypeError):
        PrefixTrie().insert(42)


# remove
def test_remove_decrements_frequency(trie):
    assert trie.remove("car", 2) == 1
    assert trie.frequency("car") == 1


def test_remove_all_occurrences_returns_zero(trie):
    assert trie.remove("dog") == 0
    assert trie.frequency("dog") == 0


def test_remove_missing_word_raises_key_error(trie):
    with pytest.raises(KeyError):
        trie.remove("cat")


def test_remove_prefix_only_raises_key_error(trie):
    with pytest.raises(KeyError):
        trie.remove("ca")


def test_remove_more_than_stored_raises_value_error(trie):
    with pytest.raises(ValueError):
        trie.remove("care", 3)


def test_remove_zero_count_raises_value_error(trie):
    with pytest.raises(ValueError):
        trie.remove("care", 0)


def test_remove_empty_word_raises_value_error(trie):
    with pytest.raises(ValueError):
        trie.remove("")


# frequency / prefix_count / total
def test_frequency_of_stored_word(trie):
    assert trie.frequency("care") == 2


def test_frequency_of_unknown_word_is_zero(trie):
    assert trie.frequency("zebra") == 0


def test_frequency_of_inner_prefix_is_zero(trie):
    assert trie.frequency("ca") == 0


def test_prefix_count_sums_descendants(trie):
    assert trie.prefix_count("car") == 6


def test_prefix_count_empty_prefix_counts_everything(trie):
    assert trie.prefix_count("") == 7


def test_prefix_count_unknown_prefix_is_zero(trie):
    assert trie.prefix_count("x") == 0


def test_total_counts_all_occurrences(trie):
    assert trie.total() == 7


# complete
def test_complete_ranks_by_frequency(trie):
    assert trie.complete("ca") == ["car", "care", "cart"]


def test_complete_respects_limit(trie):
    assert trie.complete("", 2) == ["car", "care"]


def test_complete_limit_one_gives_best_word(trie):
    assert trie.complete("ca", 1) == ["car"]


def test_complete_breaks_ties_alphabetically():
    t = PrefixTrie()
    t.insert("beta")
    t.insert("alpha")
    t.insert("gamma")
    assert t.complete("") == ["alpha", "beta", "gamma"]


def test_complete_unknown_prefix_is_empty(trie):
    assert trie.complete("z") == []


def test_complete_zero_limit_raises_value_error(trie):
    with pytest.raises(ValueError):
        trie.complete("c", 0)


# words / longest_common_prefix
def test_words_alphabetical(trie):
    assert trie.words() == ["car", "care", "cart", "dog"]


def test_words_of_empty_trie():
    t = PrefixTrie()
    t.insert("x")
    t.remove("x")
    assert t.words() == []


def test_longest_common_prefix_shared_stem():
    t = PrefixTrie()
    t.insert("interval")
    t.insert("internet")
    t.insert("interview")
    assert t.longest_common_prefix() == "inter"


def test_longest_common_prefix_stops_at_complete_word():
    t = PrefixTrie()
    t.insert("car")
    t.insert("cart")
    assert t.longest_common_prefix() == "car"


def test_longest_common_prefix_single_word_is_word():
    t = PrefixTrie()
    t.insert("solo")
    assert t.longest_common_prefix() == "solo"


def test_longest_common_prefix_diverging_words(trie):
    assert trie.longest_common_prefix() == ""


# scenarios
def test_scenario_remove_prunes_completions_and_prefix():
    t = PrefixTrie()
    t.insert("car", 3)
    t.insert("dog")
    assert t.longest_common_prefix() == ""
    assert t.remove("dog") == 0
    assert t.longest_common_prefix() == "car"
    assert t.complete("d") == []
    assert t.prefix_count("d") == 0
    assert t.words() == ["car"]
    assert t.total() == 3


def test_scenario_insert_remove_insert_reuses_nodes():
    t = PrefixTrie()
    assert t.insert("tree", 2) == 2
    assert t.remove("tree", 2) == 0
    assert t.frequency("tree") == 0
    assert t.insert("tree") == 1
    assert t.insert("trie") == 1
    assert t.prefix_count("tr") == 2
    assert t.complete("tr") == ["tree", "trie"]
    assert t.longest_common_prefix() == "tr"
    assert t.words() == ["tree", "trie"]
    assert t.total() == 2


def test_scenario_frequency_changes_reorder_suggestions():
    t = PrefixTrie()
    t.insert("then", 2)
    t.insert("there", 3)
    assert t.complete("the") == ["there", "then"]
    t.remove("there", 2)
    t.insert("then")
    assert t.complete("the") == ["then", "there"]
    assert t.frequency("then") == 3
    assert t.prefix_count("the") == 4
