import pytest

from spell_checker import SpellChecker


@pytest.fixture
def checker() -> SpellChecker:
    c = SpellChecker()
    c.add_text("the quick brown fox jumps over the lazy dog while the cat naps")
    c.add_word("quack", 1)
    c.add_word("quick", 2)
    return c


# constructor
def test_init_rejects_zero_distance_and_accepts_one():
    with pytest.raises(ValueError):
        SpellChecker(max_distance=0)
    c = SpellChecker(max_distance=1)
    c.add_word("house")
    assert c.candidates("hose") == ["house"]
    assert c.candidates("hoe") == []


# edit_distance
def test_edit_distance_identical_is_zero():
    assert SpellChecker.edit_distance("word", "word") == 0


def test_edit_distance_classic_example():
    assert SpellChecker.edit_distance("kitten", "sitting") == 3


def test_edit_distance_transposition_costs_one():
    assert SpellChecker.edit_distance("teh", "the") == 1


def test_edit_distance_from_empty():
    assert SpellChecker.edit_distance("", "abc") == 3


def test_edit_distance_is_osa_not_full_damerau():
    assert SpellChecker.edit_distance("ca", "abc") == 3


# add_word / add_text / known
def test_add_word_returns_frequency():
    c = SpellChecker()
    c.add_word("tea")
    assert c.add_word("Tea", 2) == 3


def test_add_word_with_apostrophe():
    c = SpellChecker()
    assert c.add_word("don't") == 1
    assert c.known("DON'T") is True


def test_add_word_with_space_raises_value_error():
    with pytest.raises(ValueError):
        SpellChecker().add_word("two words")


def test_add_word_with_digits_raises_value_error():
    with pytest.raises(ValueError):
        SpellChecker().add_word("r2d2")


def test_add_word_zero_count_raises_value_error():
    with pytest.raises(ValueError):
        SpellChecker().add_word("ok", 0)


def test_add_text_returns_word_count():
    assert SpellChecker().add_text("One, two; THREE? 4") == 3


def test_add_text_empty_learns_nothing():
    c = SpellChecker()
    assert c.add_text("123 !!!") == 0
    assert c.known("123") is False


def test_known_after_add_text(checker):
    assert checker.known("Fox") is True


def test_known_unknown_word(checker):
    assert checker.known("wolf") is False


# candidates
def test_candidates_ranked_by_distance_then_frequency(checker):
    assert checker.candidates("quck") == ["quick", "quack"]


def test_candidates_known_word_first(checker):
    assert checker.candidates("the")[0] == "the"


def test_candidates_limit(checker):
    assert checker.candidates("quck", 1) == ["quick"]


def test_candidates_alphabetical_tie():
    c = SpellChecker()
    c.add_text("bat cat")
    assert c.candidates("at") == ["bat", "cat"]


def test_candidates_none_within_distance(checker):
    assert checker.candidates("xylophone") == []


def test_candidates_case_insensitive(checker):
    assert checker.candidates("LAZZY") == ["lazy"]


def test_candidates_invalid_limit_raises_value_error(checker):
    with pytest.raises(ValueError):
        checker.candidates("fox", 0)


# correct
def test_correct_known_word_unchanged(checker):
    assert checker.correct("Dog") == "Dog"


def test_correct_transposition(checker):
    assert checker.correct("teh") == "the"


def test_correct_keeps_capitalisation(checker):
    assert checker.correct("Jumsp") == "Jumps"


def test_correct_keeps_all_caps(checker):
    assert checker.correct("BROWM") == "BROWN"


def test_correct_two_letter_all_caps_word():
    c = SpellChecker()
    c.add_word("to")
    assert c.correct("TP") == "TO"


def test_correct_single_capital_letter_is_capitalised():
    c = SpellChecker()
    c.add_word("a")
    assert c.correct("I") == "A"


def test_correct_without_candidate_returns_input(checker):
    assert checker.correct("Zzzzzzz") == "Zzzzzzz"


# correct_text / correction_log
def test_correct_text_preserves_punctuation(checker):
    assert checker.correct_text("Teh quikc, brwn fox!") == "The quick, brown fox!"


def test_correct_text_keeps_leading_punctuation(checker):
    assert checker.correct_text('"teh" fox') == '"the" fox'


def test_correct_text_logs_changes_in_order(checker):
    checker.correct_text("teh lazzy dog")
    assert checker.correction_log() == [("teh", "the"), ("lazzy", "lazy")]


def test_correct_text_without_errors_logs_nothing(checker):
    assert checker.correct_text("the dog naps.") == "the dog naps."
    assert checker.correction_log() == []


def test_correction_log_accumulates_across_calls(checker):
    checker.correct_text("teh")
    checker.correct_text("fxo")
    assert checker.correction_log() == [("teh", "the"), ("fxo", "fox")]


def test_correction_log_clear(checker):
    checker.correct_text("teh")
    assert checker.correction_log(clear=True) == [("teh", "the")]
    assert checker.correction_log() == []


# scenarios
def test_scenario_learning_changes_correction():
    c = SpellChecker()
    c.add_text("form")
    assert c.correct("fom") == "form"
    c.add_word("from", 5)
    assert c.candidates("fom") == ["from", "form"]
    assert c.correct("fom") == "from"
    assert c.known("from") is True
    assert c.correct_text("Fom here") == "From here"
    assert c.correction_log() == [("Fom", "From")]


def test_scenario_log_then_more_corrections_after_learning():
    c = SpellChecker(max_distance=1)
    c.add_word("cat")
    assert c.correct_text("cta bird") == "cat bird"
    assert c.correction_log(clear=True) == [("cta", "cat")]
    c.add_text("bird birds")
    assert c.correct_text("brid") == "bird"
    assert c.correction_log() == [("brid", "bird")]
    assert c.candidates("bird") == ["bird", "birds"]
