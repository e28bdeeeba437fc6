"""A five-dice poker scorecard with up to three rolls per turn."""

import random


class DiceScorecard:
    """One player's scorecard for a five-dice game of thirteen turns.

    Each turn the player rolls all five dice, may re-roll any of them twice more
    (keeping the dice at chosen positions), and then scores the dice in one
    unused category. Upper categories (``ones`` .. ``sixes``) earn a bonus of 35
    when together they reach 63. Dice come from ``random.Random(seed)``.

    >>> card = DiceScorecard(seed=3)
    >>> card.roll()
    [2, 5, 5, 2, 3]
    >>> card.roll(keep=[1, 2])
    [5, 5, 5, 4, 6]
    >>> card.best_category()
    'three_kind'
    >>> card.record("three_kind")
    25
    """

    UPPER = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
    CATEGORIES = tuple(UPPER) + (
        "three_kind", "four_kind", "full_house", "small_straight", "large_straight", "five_kind", "chance",
    )
    BONUS_THRESHOLD = 63
    BONUS = 35

    def __init__(self, seed: int = 0) -> None:
        """Start an empty scorecard.

        :param seed: seed of the card's own ``random.Random``.

        >>> DiceScorecard(seed=9).total()
        0
        """
        self.rng = random.Random(seed)
        self.dice: list[int] = []
        self.rolls_left = 3
        self.scores: dict[str, int] = {}

    def roll(self, keep: list[int] | None = None) -> list[int]:
        """Roll the dice, keeping those at the positions in ``keep`` (0..4).

        The first roll of a turn rolls all five dice and may not keep any.

        :param keep: positions of dice to keep; None or empty re-rolls all five.

        :return: the five dice after the roll.
        :raises ValueError: if no rolls are left this turn, the game is complete,
            ``keep`` is given on the first roll, or a position is invalid or repeated.

        >>> DiceScorecard(seed=1).roll()
        [2, 5, 1, 3, 1]
        """
        keep = keep or []
        if self.is_complete():
            raise ValueError("the scorecard is complete")
        if self.rolls_left == 0:
            raise ValueError("no rolls left this turn; record a category")
        if keep and not self.dice:
            raise ValueError("nothing to keep before the first roll")
        if len(set(keep)) != len(keep) or any(not 0 <= i < 5 for i in keep):
            raise ValueError("keep must list distinct positions 0..4")
        old = self.dice or [0] * 5
        self.dice = [old[i] if i in keep else self.rng.randint(1, 6) for i in range(5)]
        self.rolls_left -= 1
        return list(self.dice)

    def score_for(self, category: str, dice: list[int]) -> int:
        """Points ``dice`` would earn in ``category`` (nothing is recorded).

        :param category: one of :attr:`CATEGORIES`.
        :param dice: five values from 1 to 6.
        :return: the points.
        :raises ValueError: if the category is unknown or the dice are not five values 1..6.

        >>> DiceScorecard().score_for("full_house", [2, 3, 2, 3, 3])
        25
        """
        if category not in self.CATEGORIES:
            raise ValueError(f"unknown category {category!r}")
        if len(dice) != 5 or any(not 1 <= d <= 6 for d in dice):
            raise ValueError("need five dice with values 1..6")
        counts = sorted((dice.count(face) for face in set(dice)), reverse=True)
        faces = set(dice)
        if category in self.UPPER:
            return self.UPPER[category] * dice.count(self.UPPER[category])
        if category == "three_kind":
            return sum(dice) if counts[0] >= 3 else 0
        if category == "four_kind":
            return sum(dice) if counts[0] >= 4 else 0
        if category == "full_house":
            return 25 if counts == [3, 2] else 0
        if category == "small_straight":
            runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
            return 30 if any(run <= faces for run in runs) else 0
        if category == "large_straight":
            return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
        if category == "five_kind":
            return 50 if counts[0] == 5 else 0
        return sum(dice)

    def available(self) -> list[str]:
        """Categories not yet scored.

        :return: their names, in scorecard order.

        >>> len(DiceScorecard().available())
        13
        """
        return [c for c in self.CATEGORIES if c not in self.scores]

    def best_category(self) -> str:
        """The open category worth most for the current dice (earliest on the card on a tie).

        :return: the category name.
        :raises ValueError: if the dice have not been rolled this turn.

        >>> card = DiceScorecard(seed=1)
        >>> card.roll()
        [2, 5, 1, 3, 1]
        >>> card.best_category()
        'chance'
        """
        if not self.dice:
            raise ValueError("roll the dice first")
        return max(self.available(), key=lambda c: (self.score_for(c, self.dice), -self.CATEGORIES.index(c)))

    def record(self, category: str) -> int:
        """Score the current dice in ``category`` and start the next turn.

        :param category: an unused category.
        :return: the points recorded.
        :raises ValueError: if the dice have not been rolled this turn, the
            category is unknown, or it was already used.

        >>> card = DiceScorecard(seed=1)
        >>> _ = card.roll()
        >>> card.record("ones")
        2
        """
        if not self.dice:
            raise ValueError("roll the dice first")
        if category in self.scores:
            raise ValueError(f"{category} is already scored")
        points = self.score_for(category, self.dice)
        self.scores[category] = points
        self.dice = []
        self.rolls_left = 3
        return points

    def upper_bonus(self) -> int:
        """Bonus for the upper categories.

        :return: 35 if ``ones`` .. ``sixes`` add up to at least 63, else 0.

        >>> DiceScorecard().upper_bonus()
        0
        """
        upper = sum(self.scores.get(c, 0) for c in self.UPPER)
        return self.BONUS if upper >= self.BONUS_THRESHOLD else 0

    def total(self) -> int:
        """Score so far.

        :return: all recorded points plus the upper bonus.

        >>> DiceScorecard().total()
        0
        """
        return sum(self.scores.values()) + self.upper_bonus()

    def is_complete(self) -> bool:
        """Whether the game is finished.

        :return: True once every category has been scored.

        >>> DiceScorecard().is_complete()
        False
        """
        return not self.available()
