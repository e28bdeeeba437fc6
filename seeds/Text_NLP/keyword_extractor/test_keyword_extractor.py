import math

import pytest

from keyword_extractor import KeywordExtractor


@pytest.fixture
def kx() -> KeywordExtractor:
    k = KeywordExtractor()
    k.add_document("pasta", "Boil the pasta. Drain the pasta and add the tomato sauce.")
    k.add_document("bread", "Knead the dough, proof the dough and bake the bread.")
    k.add_document("pizza", "Stretch the dough, add tomato sauce and bake.")
    return k


# constructor
def test_init_rejects_zero_min_length_and_accepts_custom_stopwords():
    with pytest.raises(ValueError):
        KeywordExtractor(min_length=0)
    k = KeywordExtractor(stopwords=["Dough"], min_length=5)
    assert k.terms("the dough bread flour") == ["bread", "flour"]


# terms
def test_terms_drops_default_stopwords():
    assert KeywordExtractor().terms("The cat and the hat") == ["cat", "hat"]


def test_terms_keeps_hyphen_and_apostrophe_words():
    assert KeywordExtractor().terms("State-of-the-art, don't") == ["state-of-the-art", "don't"]


def test_terms_drops_single_letters_and_numbers():
    assert KeywordExtractor().terms("x marks 42 spots") == ["marks", "spots"]


def test_terms_min_length_one_keeps_single_letters():
    assert KeywordExtractor(min_length=1).terms("x marks the spot") == ["x", "marks", "spot"]


def test_terms_empty_stopword_list_keeps_everything():
    assert KeywordExtractor(stopwords=[]).terms("to be") == ["to", "be"]


# add_document / remove_document / document_frequency
def test_add_document_returns_distinct_terms():
    assert KeywordExtractor().add_document("d", "apple apple pear") == 2


def test_add_document_duplicate_id_raises_value_error(kx):
    with pytest.raises(ValueError):
        kx.add_document("pasta", "again")


def test_add_document_without_terms_raises_value_error():
    k = KeywordExtractor()
    with pytest.raises(ValueError):
        k.add_document("empty", "the and of")


def test_document_frequency_counts_documents_not_occurrences(kx):
    assert kx.document_frequency("dough") == 2


def test_document_frequency_case_insensitive(kx):
    assert kx.document_frequency("TOMATO") == 2


def test_document_frequency_unknown_term(kx):
    assert kx.document_frequency("sushi") == 0


def test_remove_document_updates_frequencies(kx):
    kx.remove_document("pizza")
    assert kx.document_frequency("dough") == 1
    assert kx.document_frequency("stretch") == 0


def test_remove_document_unknown_raises_key_error(kx):
    with pytest.raises(KeyError):
        kx.remove_document("soup")


# idf
def test_idf_of_term_in_every_document_is_one():
    k = KeywordExtractor()
    k.add_document("a", "salt pepper")
    k.add_document("b", "salt")
    assert k.idf("salt") == 1.0


def test_idf_of_rare_term(kx):
    assert kx.idf("knead") == pytest.approx(math.log(4 / 2) + 1)


def test_idf_of_unseen_term(kx):
    assert kx.idf("sushi") == pytest.approx(math.log(4) + 1)


def test_idf_empty_collection():
    k = KeywordExtractor()
    k.add_document("a", "word")
    k.remove_document("a")
    assert k.idf("word") == 1.0


# tfidf
def test_tfidf_value(kx):
    assert kx.tfidf("pasta", "pasta") == pytest.approx(2 / 7 * (math.log(2) + 1))


def test_tfidf_absent_term_is_zero(kx):
    assert kx.tfidf("bread", "pasta") == 0.0


def test_tfidf_case_insensitive(kx):
    assert kx.tfidf("pasta", "PASTA") == pytest.approx(2 / 7 * (math.log(2) + 1))


def test_tfidf_unknown_document_raises_key_error(kx):
    with pytest.raises(KeyError):
        kx.tfidf("soup", "pasta")


# top_keywords
def test_top_keywords_ranking(kx):
    assert [term for term, _ in kx.top_keywords("bread", 3)] == ["dough", "bread", "knead"]


def test_top_keywords_weights_descend(kx):
    weights = [w for _, w in kx.top_keywords("pizza", 10)]
    assert weights == sorted(weights, reverse=True)
    assert len(weights) == 6


def test_top_keywords_ties_alphabetical(kx):
    assert [term for term, _ in kx.top_keywords("pasta", 4)] == ["pasta", "boil", "drain", "add"]


def test_top_keywords_invalid_k_raises_value_error(kx):
    with pytest.raises(ValueError):
        kx.top_keywords("pasta", 0)


def test_top_keywords_unknown_document_raises_key_error(kx):
    with pytest.raises(KeyError):
        kx.top_keywords("soup")


# similarity
def test_similarity_with_itself_is_one(kx):
    assert kx.similarity("bread", "bread") == 1.0


def test_similarity_shared_terms_is_between_zero_and_one(kx):
    assert 0.0 < kx.similarity("pasta", "pizza") < 1.0


def test_similarity_is_symmetric(kx):
    assert kx.similarity("pasta", "pizza") == kx.similarity("pizza", "pasta")


def test_similarity_disjoint_documents_is_zero():
    k = KeywordExtractor()
    k.add_document("a", "cats purr")
    k.add_document("b", "dogs bark")
    assert k.similarity("a", "b") == 0.0


def test_similarity_unknown_document_raises_key_error(kx):
    with pytest.raises(KeyError):
        kx.similarity("pasta", "soup")


# scenarios
def test_scenario_adding_documents_shifts_keywords():
    k = KeywordExtractor()
    k.add_document("news", "election results turnout")
    assert k.top_keywords("news", 1)[0][0] == "election"
    k.add_document("old", "election election election history")
    k.add_document("older", "election archive")
    assert k.document_frequency("election") == 3
    assert k.idf("election") == 1.0
    assert [t for t, _ in k.top_keywords("news", 2)] == ["results", "turnout"]
    assert k.tfidf("news", "election") == pytest.approx(1 / 3)
    assert k.similarity("news", "old") > 0.0


def test_scenario_remove_then_add_restores_scores():
    k = KeywordExtractor()
    k.add_document("a", "solar panel panel")
    k.add_document("b", "solar wind")
    assert k.tfidf("a", "panel") == pytest.approx(2 / 3 * (math.log(1.5) + 1))
    k.remove_document("b")
    assert k.idf("solar") == 1.0
    assert k.tfidf("a", "panel") == pytest.approx(2 / 3)
    k.add_document("b", "solar wind")
    assert k.tfidf("a", "panel") == pytest.approx(2 / 3 * (math.log(1.5) + 1))
    assert k.top_keywords("b", 1) == [("wind", pytest.approx(0.5 * (math.log(1.5) + 1)))]
    k.remove_document("a")
    assert k.similarity("b", "b") == 1.0
    assert k.document_frequency("panel") == 0
