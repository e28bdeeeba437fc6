import pytest

from vocab_tokenizer import VocabTokenizer


@pytest.fixture
def tok() -> VocabTokenizer:
    t = VocabTokenizer()
    t.fit(["the cat sat on the mat", "the dog sat, too!"])
    return t


# constructor
def test_init_rejects_zero_max_size_and_accepts_one():
    with pytest.raises(ValueError):
        VocabTokenizer(max_size=0)
    assert VocabTokenizer(max_size=1).fit(["a b"]) == 3


# tokenize
def test_tokenize_words_and_punctuation():
    assert VocabTokenizer().tokenize("Hello, world!") == ["hello", ",", "world", "!"]


def test_tokenize_keeps_inner_apostrophe():
    assert VocabTokenizer().tokenize("It's Bob's") == ["it's", "bob's"]


def test_tokenize_without_lowercasing():
    assert VocabTokenizer(lowercase=False).tokenize("New York") == ["New", "York"]


def test_tokenize_digits_are_words():
    assert VocabTokenizer().tokenize("route 66.") == ["route", "66", "."]


def test_tokenize_empty_text():
    assert VocabTokenizer().tokenize("   ") == []


# fit / vocab_size
def test_fit_returns_size_with_specials(tok):
    assert tok.vocab_size() == 11


def test_fit_orders_by_frequency_then_alphabet(tok):
    assert tok.token_id("the") == 2
    assert tok.token_id("sat") == 3
    assert tok.token_id("!") == 4
    assert tok.token_id(",") == 5


def test_fit_accumulates_over_calls(tok):
    tok.fit(["cat cat cat"])
    assert tok.frequency("cat") == 4
    assert tok.token_id("cat") == 2


def test_fit_empty_list_keeps_vocabulary(tok):
    assert tok.fit([]) == 11


def test_fit_respects_max_size():
    t = VocabTokenizer(max_size=2)
    assert t.fit(["b b b a a c"]) == 4
    assert t.token_id("c") == 1


# token_id / frequency
def test_token_id_unknown_is_unk(tok):
    assert tok.token_id("zebra") == 1


def test_token_id_special_tokens_before_fitting():
    t = VocabTokenizer()
    assert t.token_id("<pad>") == 0
    assert t.token_id("<unk>") == 1
    assert t.decode([0, 1], skip_special=False) == "<unk>"


def test_token_id_folds_case(tok):
    assert tok.token_id("THE") == 2


def test_token_id_case_sensitive_tokenizer():
    t = VocabTokenizer(lowercase=False)
    t.fit(["Paris"])
    assert t.token_id("paris") == 1
    assert t.token_id("Paris") == 2


def test_frequency_counts(tok):
    assert tok.frequency("the") == 3


def test_frequency_case_sensitive_tokenizer():
    t = VocabTokenizer(lowercase=False)
    t.fit(["Apple apple Apple"])
    assert t.frequency("Apple") == 2
    assert t.frequency("APPLE") == 0


def test_frequency_unseen_is_zero(tok):
    assert tok.frequency("elephant") == 0


# prune
def test_prune_drops_rare_tokens(tok):
    assert tok.prune(2) == 7
    assert tok.vocab_size() == 4


def test_prune_min_count_one_drops_nothing(tok):
    assert tok.prune(1) == 0


def test_prune_forgets_frequency(tok):
    tok.prune(3)
    assert tok.frequency("sat") == 0
    assert tok.token_id("sat") == 1


def test_prune_invalid_min_count_raises_value_error(tok):
    with pytest.raises(ValueError):
        tok.prune(0)


# encode
def test_encode_natural_length(tok):
    assert tok.encode("the cat sat") == [2, 6, 3]


def test_encode_unknown_words(tok):
    assert tok.encode("the bird flew") == [2, 1, 1]


def test_encode_pads_to_length(tok):
    assert tok.encode("the cat", 4) == [2, 6, 0, 0]


def test_encode_truncates_to_length(tok):
    assert tok.encode("the cat sat on", 2) == [2, 6]


def test_encode_zero_length(tok):
    assert tok.encode("the cat", 0) == []


def test_encode_negative_length_raises_value_error(tok):
    with pytest.raises(ValueError):
        tok.encode("the", -1)


# decode
def test_decode_attaches_punctuation(tok):
    assert tok.decode([7, 3, 5, 10, 4]) == "dog sat, too!"


def test_decode_skips_pad_and_unk(tok):
    assert tok.decode([0, 2, 1, 6, 0]) == "the cat"


def test_decode_keeps_unk_when_asked(tok):
    assert tok.decode([2, 1], skip_special=False) == "the <unk>"


def test_decode_leading_punctuation_stands_alone(tok):
    assert tok.decode([4, 2]) == "! the"


def test_decode_unknown_id_raises_index_error(tok):
    with pytest.raises(IndexError):
        tok.decode([2, 99])


def test_decode_negative_id_raises_index_error(tok):
    with pytest.raises(IndexError):
        tok.decode([-1])


# scenarios
def test_scenario_encode_decode_round_trip():
    t = VocabTokenizer()
    assert t.fit(["Good morning, Vietnam!"]) == 7
    ids = t.encode("good morning, vietnam!")
    assert ids == [4, 5, 3, 6, 2]
    assert t.decode(ids) == "good morning, vietnam!"
    assert t.frequency("vietnam") == 1


def test_scenario_prune_then_refit_changes_ids():
    t = VocabTokenizer()
    t.fit(["red red blue", "green"])
    assert t.encode("blue red") == [3, 2]
    assert t.prune(2) == 2
    assert t.encode("blue red") == [1, 2]
    assert t.vocab_size() == 3
    assert t.fit(["blue blue blue"]) == 4
    assert t.token_id("blue") == 2
    assert t.encode("blue red", 3) == [2, 3, 0]
    assert t.decode([2, 3]) == "blue red"
    assert t.frequency("green") == 0
    assert t.prune(3) == 1
    assert t.decode([2]) == "blue"
