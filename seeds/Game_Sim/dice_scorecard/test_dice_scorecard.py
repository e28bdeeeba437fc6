import pytest

from dice_scorecard import DiceScorecard


@pytest.fixture
def card():
    return DiceScorecard(seed=5)


def test_first_roll_is_seeded():
    assert DiceScorecard(seed=1).roll() == [2, 5, 1, 3, 1]


def test_reroll_keeps_chosen_positions(card):
    assert card.roll() == [5, 3, 6, 3, 6]
    assert card.roll(keep=[0]) == [5, 6, 6, 5, 1]
    assert card.roll(keep=[0, 4]) == [5, 4, 2, 6, 1]


def test_keep_on_first_roll_rejected(card):
    with pytest.raises(ValueError):
        card.roll(keep=[0])


def test_fourth_roll_rejected(card):
    card.roll()
    card.roll()
    card.roll()
    with pytest.raises(ValueError):
        card.roll()


def test_keep_position_out_of_range(card):
    card.roll()
    with pytest.raises(ValueError):
        card.roll(keep=[5])


def test_keep_position_repeated(card):
    card.roll()
    with pytest.raises(ValueError):
        card.roll(keep=[1, 1])


@pytest.mark.parametrize(
    "category, dice, points",
    [
        ("ones", [1, 1, 2, 3, 1], 3),
        ("sixes", [6, 2, 6, 3, 1], 12),
        ("fours", [1, 2, 3, 5, 6], 0),
        ("three_kind", [3, 3, 3, 5, 6], 20),
        ("three_kind", [3, 3, 2, 5, 6], 0),
        ("four_kind", [2, 2, 2, 2, 6], 14),
        ("four_kind", [2, 2, 2, 6, 6], 0),
        ("full_house", [5, 2, 5, 2, 5], 25),
        ("full_house", [5, 5, 5, 5, 5], 0),
        ("small_straight", [3, 4, 1, 2, 6], 30),
        ("small_straight", [6, 5, 4, 3, 3], 30),
        ("small_straight", [1, 2, 3, 5, 6], 0),
        ("small_straight", [1, 2, 4, 6, 6], 0),
        ("small_straight", [1, 3, 4, 6, 6], 0),
        ("small_straight", [2, 3, 4, 6, 6], 0),
        ("small_straight", [2, 4, 5, 6, 6], 0),
        ("small_straight", [1, 1, 3, 4, 5], 0),
        ("large_straight", [2, 3, 4, 5, 6], 40),
        ("large_straight", [1, 2, 3, 4, 6], 0),
        ("five_kind", [4, 4, 4, 4, 4], 50),
        ("five_kind", [4, 4, 4, 4, 3], 0),
        ("chance", [1, 2, 3, 4, 6], 16),
    ],
)
def test_score_for_categories(card, category, dice, points):
    assert card.score_for(category, dice) == points


def test_score_for_unknown_category(card):
    with pytest.raises(ValueError):
        card.score_for("yacht", [1, 1, 1, 1, 1])


def test_score_for_wrong_number_of_dice(card):
    with pytest.raises(ValueError):
        card.score_for("chance", [1, 2, 3, 4])


def test_score_for_invalid_face(card):
    with pytest.raises(ValueError):
        card.score_for("chance", [1, 2, 3, 4, 7])


def test_available_initially_all_in_card_order(card):
    assert card.available() == [
        "ones", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
        "full_house", "small_straight", "large_straight", "five_kind", "chance",
    ]


def test_available_drops_recorded_category(card):
    card.roll()
    card.record("sixes")
    assert "sixes" not in card.available()
    assert len(card.available()) == 12


def test_best_category_before_roll(card):
    with pytest.raises(ValueError):
        card.best_category()


def test_best_category_tie_goes_to_earlier_category():
    card = DiceScorecard(seed=3)
    card.roll()
    assert card.roll(keep=[1, 2]) == [5, 5, 5, 4, 6]
    assert card.best_category() == "three_kind"


def test_best_category_skips_used_categories():
    card = DiceScorecard(seed=3)
    card.roll()
    card.roll(keep=[1, 2])
    card.record("three_kind")
    card.roll()
    assert card.best_category() != "three_kind"


def test_record_returns_points(card):
    card.roll()
    assert card.record("sixes") == 12


def test_record_before_roll_rejected(card):
    with pytest.raises(ValueError):
        card.record("chance")


def test_record_used_category_rejected(card):
    card.roll()
    card.record("chance")
    card.roll()
    with pytest.raises(ValueError):
        card.record("chance")


def test_record_unknown_category_rejected(card):
    card.roll()
    with pytest.raises(ValueError):
        card.record("yacht")


def test_record_starts_a_new_turn(card):
    card.roll()
    card.roll()
    card.roll()
    card.record("chance")
    assert len(card.roll()) == 5
    assert len(card.roll(keep=[0, 1])) == 5


def test_upper_bonus_zero_below_threshold(card):
    card.roll()
    card.record("sixes")
    assert card.upper_bonus() == 0


def test_total_sums_scores(card):
    card.roll()
    card.record("sixes")
    card.roll()
    card.record("chance")
    assert card.total() == 34


def test_upper_section_bonus_scenario():
    card = DiceScorecard(seed=1085)
    assert card.roll() == [6, 6, 6, 6, 6]
    assert card.best_category() == "five_kind"
    assert card.record("sixes") == 30
    card.roll()
    card.roll(keep=[0, 1, 3])
    assert card.roll(keep=[0, 1, 3]) == [5, 5, 2, 5, 1]
    assert card.record("fives") == 15
    card.roll()
    card.roll(keep=[4])
    assert card.roll(keep=[0, 1, 4]) == [4, 4, 2, 1, 4]
    assert card.record("fours") == 12
    assert card.upper_bonus() == 0
    card.roll()
    card.roll()
    card.roll()
    assert card.record("threes") == 3
    card.roll()
    card.roll(keep=[1, 3])
    assert card.roll(keep=[1, 3, 4]) == [6, 2, 2, 2, 2]
    assert card.record("twos") == 8
    card.roll()
    card.roll(keep=[3])
    card.roll(keep=[0, 3])
    assert card.record("ones") == 4
    assert card.upper_bonus() == 35
    assert card.total() == 107
    assert card.is_complete() is False
    assert card.available()[0] == "three_kind"


def test_full_game_scenario():
    card = DiceScorecard(seed=4)
    recorded = []
    while not card.is_complete():
        card.roll()
        recorded.append(card.record(card.best_category()))
    assert recorded == [30, 9, 40, 18, 6, 25, 6, 10, 6, 2, 0, 0, 0]
    assert card.upper_bonus() == 0
    assert card.total() == 152
    assert card.available() == []
    with pytest.raises(ValueError):
        card.roll()
