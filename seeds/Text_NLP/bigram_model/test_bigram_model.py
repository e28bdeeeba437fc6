import math

import pytest

from bigram_model import BigramModel


@pytest.fixture
def model() -> BigramModel:
    m = BigramModel(k=1.0)
    m.train(["the cat sat", "the cat ran", "a dog ran"])
    return m


# constructor
def test_init_rejects_non_positive_k_and_accepts_small_k():
    with pytest.raises(ValueError):
        BigramModel(k=0.0)
    m = BigramModel(k=0.01)
    m.train(["x"])
    assert m.probability("<s>", "x") == pytest.approx(1.01 / 1.02)


# train
def test_train_counts_bigrams_with_markers():
    assert BigramModel().train(["one two three"]) == 4


def test_train_skips_empty_sentences():
    assert BigramModel().train(["", "...", "hi"]) == 2


def test_train_lowercases_and_strips_punctuation():
    m = BigramModel()
    m.train(["Hello, World!"])
    assert m.vocabulary() == ["hello", "world"]


def test_train_accumulates_counts(model):
    model.train(["the cat sat"])
    assert model.count("cat", "sat") == 2


# vocabulary / count
def test_vocabulary_sorted(model):
    assert model.vocabulary() == ["a", "cat", "dog", "ran", "sat", "the"]


def test_count_known_bigram(model):
    assert model.count("the", "cat") == 2


def test_count_start_marker(model):
    assert model.count("<s>", "the") == 2


def test_count_end_marker(model):
    assert model.count("ran", "</s>") == 2


def test_count_unseen_bigram_is_zero(model):
    assert model.count("dog", "sat") == 0


def test_count_is_case_insensitive(model):
    assert model.count("The", "CAT") == 2


# probability
def test_probability_seen_bigram(model):
    assert model.probability("the", "cat") == pytest.approx(3 / 9)


def test_probability_unseen_bigram(model):
    assert model.probability("the", "dog") == pytest.approx(1 / 9)


def test_probability_unknown_context_is_uniform(model):
    assert model.probability("zebra", "cat") == pytest.approx(1 / 7)


def test_probability_sums_to_one_over_candidates(model):
    total = sum(model.probability("cat", w) for w in model.vocabulary() + ["</s>"])
    assert total == pytest.approx(1.0)


def test_probability_untrained_raises_value_error():
    with pytest.raises(ValueError):
        BigramModel().probability("a", "b")


# sentence_log_prob / perplexity
def test_sentence_log_prob_value(model):
    expected = math.log(3 / 10) + math.log(3 / 9) + math.log(2 / 9) + math.log(2 / 8)
    assert model.sentence_log_prob("the cat sat") == pytest.approx(expected)


def test_sentence_log_prob_prefers_seen_sentence(model):
    assert model.sentence_log_prob("the cat ran") > model.sentence_log_prob("ran the cat")


def test_sentence_log_prob_empty_sentence_scores_end_after_start(model):
    assert model.sentence_log_prob("") == pytest.approx(math.log(1 / 10))


def test_sentence_log_prob_untrained_raises_value_error():
    with pytest.raises(ValueError):
        BigramModel().sentence_log_prob("a b")


def test_perplexity_single_sentence():
    m = BigramModel(k=1.0)
    m.train(["a b"])
    assert m.perplexity(["a b"]) == pytest.approx(2.0)


def test_perplexity_lower_for_familiar_text(model):
    assert model.perplexity(["the cat sat"]) < model.perplexity(["dog the a"])


def test_perplexity_empty_list_raises_value_error(model):
    with pytest.raises(ValueError):
        model.perplexity([])


# next_words
def test_next_words_ranked_with_alphabetical_ties(model):
    assert model.next_words("cat", 2) == [("ran", pytest.approx(2 / 9)), ("sat", pytest.approx(2 / 9))]


def test_next_words_after_start(model):
    assert [w for w, _ in model.next_words("<s>", 2)] == ["the", "a"]


def test_next_words_can_predict_end(model):
    assert model.next_words("sat", 1) == [("</s>", pytest.approx(2 / 8))]


def test_next_words_caps_at_candidate_count(model):
    assert len(model.next_words("the", 50)) == 7


def test_next_words_invalid_n_raises_value_error(model):
    with pytest.raises(ValueError):
        model.next_words("the", 0)


# generate
def test_generate_from_word(model):
    assert model.generate("the") == "the cat ran"


def test_generate_from_empty_start(model):
    assert model.generate("") == "the cat ran"


def test_generate_stops_at_max_words():
    m = BigramModel()
    m.train(["go go go go"])
    assert m.generate("go", max_words=3) == "go go go"


def test_generate_single_word_budget_returns_start(model):
    assert model.generate("the", max_words=1) == "the"


def test_generate_uses_only_first_start_word(model):
    assert model.generate("A Dog", max_words=2) == "a dog"


def test_generate_invalid_max_words_raises_value_error(model):
    with pytest.raises(ValueError):
        model.generate("the", 0)


def test_generate_untrained_raises_value_error():
    with pytest.raises(ValueError):
        BigramModel().generate("hello")


# scenarios
def test_scenario_more_training_changes_predictions():
    m = BigramModel(k=0.5)
    m.train(["i like tea", "i like jam"])
    assert m.generate("i") == "i like jam"
    m.train(["you like tea"])
    assert m.vocabulary() == ["i", "jam", "like", "tea", "you"]
    assert m.count("like", "tea") == 2
    assert m.next_words("like", 1) == [("tea", pytest.approx(2.5 / 6))]
    assert m.generate("you") == "you like tea"
    assert m.probability("<s>", "you") == pytest.approx(1.5 / 6)
    assert m.sentence_log_prob("i like tea") > m.sentence_log_prob("i like jam")
    assert m.perplexity(["i like tea"]) < m.perplexity(["tea like i"])


def test_scenario_train_score_then_train_again():
    m = BigramModel()
    m.train(["red fish"])
    assert m.sentence_log_prob("blue fish") == pytest.approx(math.log(1 / 24))
    m.train(["blue fish", "blue fish"])
    assert m.sentence_log_prob("blue fish") == pytest.approx(math.log(6 / 49))
    assert m.next_words("<s>", 1)[0][0] == "blue"
    assert m.generate("") == "blue fish"
