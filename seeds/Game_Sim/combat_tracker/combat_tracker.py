"""Turn-based combat between teams, driven by a seeded random number generator."""

import random


class CombatTracker:
    """Track a skirmish between two or more teams, one fighter acting per turn.

    Initiative is speed plus a d20 roll; the highest total acts first (ties:
    higher speed, then name). On an attack a d20 of 1 misses (no d6 is
    rolled) and 20 is a critical hit doing double damage; otherwise damage is
    ``attack + d6 - defence`` (at least 1). A defending fighter takes half
    damage (rounded down) until its own next turn. Damage never exceeds the
    target's remaining hit points: a blow that would take it below 0 deals
    what it had left. Downed fighters (0 hit points) are skipped.
    All dice come from ``random.Random(seed)``, so a fight replays exactly: a
    die of ``n`` sides is ``randint(1, n)`` of that generator, initiative rolls
    one d20 per fighter in order of name, and an attack rolls its d20 first,
    then (unless it missed) its d6.

    >>> fight = CombatTracker(seed=7)
    >>> fight.add_fighter("ash", "red", 20, 6, 2, 5)
    >>> fight.add_fighter("bex", "blue", 18, 5, 3, 4)
    >>> fight.roll_initiative()
    ['ash', 'bex']
    >>> fight.attack("bex")
    9
    >>> fight.current(), fight.hit_points("bex")
    ('bex', 9)
    """

    def __init__(self, seed: int = 0) -> None:
        """Create an empty fight.

        :param seed: seed of the fight's own ``random.Random``.

        >>> CombatTracker(seed=3).alive()
        []
        """
        self.rng = random.Random(seed)
        self.fighters: dict[str, dict] = {}
        self.order: list[str] = []
        self.turn_index = 0
        self.round = 0

    def add_fighter(self, name: str, team: str, hp: int, attack: int, defence: int, speed: int) -> None:
        """Add a fighter before initiative is rolled.

        :param name: unique fighter name.
        :param team: team name; fighters of one team never attack each other.
        :param hp: starting hit points, >= 1.
        :param attack: attack strength.
        :param defence: defence subtracted from incoming damage.
        :param speed: added to the initiative roll.
        :raises ValueError: if the name is taken, ``hp`` is below 1, or the fight has started.

        >>> CombatTracker().add_fighter("cy", "red", 10, 3, 1, 2)
        """
        if self.order:
            raise ValueError("fighters cannot join after initiative is rolled")
        if name in self.fighters:
            raise ValueError(f"fighter {name!r} already exists")
        if hp < 1:
            raise ValueError("hit points must be at least 1")
        self.fighters[name] = {
            "team": team, "hp": hp, "attack": attack, "defence": defence,
            "speed": speed, "defending": False,
        }

    def roll_initiative(self) -> list[str]:
        """Roll speed + d20 for every fighter (in name order) and fix the turn order.

        :return: names in acting order.
        :raises ValueError: if fewer than two teams take part, or initiative was already rolled.

        >>> fight = CombatTracker(seed=1)
        >>> fight.add_fighter("a", "x", 5, 1, 0, 0)
        >>> fight.roll_initiative()
        Traceback (most recent call last):
        ...
        ValueError: a fight needs at least two teams
        """
        if self.order:
            raise ValueError("initiative was already rolled")
        if len({f["team"] for f in self.fighters.values()}) < 2:
            raise ValueError("a fight needs at least two teams")
        totals = {name: self.fighters[name]["speed"] + self.rng.randint(1, 20) for name in sorted(self.fighters)}
        self.order = sorted(totals, key=lambda n: (-totals[n], -self.fighters[n]["speed"], n))
        self.turn_index = 0
        self.round = 1
        return list(self.order)

    def current(self) -> str:
        """Name of the fighter whose turn it is.

        :return: the acting fighter's name.
        :raises ValueError: if initiative has not been rolled.

        >>> CombatTracker().current()
        Traceback (most recent call last):
        ...
        ValueError: roll initiative first
        """
        if not self.order:
            raise ValueError("roll initiative first")
        return self.order[self.turn_index]

    def hit_points(self, name: str) -> int:
        """Remaining hit points of ``name``.

        :param name: a fighter.
        :return: hit points left (0 when downed).
        :raises KeyError: if there is no such fighter.

        >>> fight = CombatTracker()
        >>> fight.add_fighter("cy", "red", 10, 3, 1, 2)
        >>> fight.hit_points("cy")
        10
        """
        return self.fighters[name]["hp"]

    def alive(self, team: str = "") -> list[str]:
        """Fighters still standing.

        :param team: only this team's fighters; all teams when empty.
        :return: names of fighters with hit points left, sorted.

        >>> CombatTracker().alive()
        []
        """
        return sorted(
            name for name, f in self.fighters.items()
            if f["hp"] > 0 and (not team or f["team"] == team)
        )

    def winner(self) -> str:
        """The team left standing.

        :return: the only team that still has fighters with hit points once
            initiative was rolled, else ``""`` (fight not started or still going).

        >>> CombatTracker().winner()
        ''
        """
        teams = {self.fighters[name]["team"] for name in self.alive()}
        return teams.pop() if len(teams) == 1 and self.order else ""

    def end_turn(self) -> str:
        """Pass the turn to the next fighter still standing.

        Wrapping past the end of the order starts a new round. The next fighter
        stops defending.

        :return: the name of the fighter now acting.
        :raises ValueError: if initiative has not been rolled or the fight is over.

        >>> fight = CombatTracker(seed=7)
        >>> fight.add_fighter("ash", "red", 20, 6, 2, 5)
        >>> fight.add_fighter("bex", "blue", 18, 5, 3, 4)
        >>> _ = fight.roll_initiative()
        >>> fight.end_turn(), fight.end_turn()
        ('bex', 'ash')
        """
        self.current()
        if self.winner():
            raise ValueError("the fight is over")
        while True:
            self.turn_index += 1
            if self.turn_index == len(self.order):
                self.turn_index = 0
                self.round += 1
            fighter = self.fighters[self.order[self.turn_index]]
            if fighter["hp"] > 0:
                fighter["defending"] = False
                return self.order[self.turn_index]

    def defend(self) -> str:
        """The acting fighter defends (half damage until its next turn) and ends its turn.

        :return: the name of the next fighter.
        :raises ValueError: if initiative has not been rolled or the fight is over.

        >>> fight = CombatTracker(seed=7)
        >>> fight.add_fighter("ash", "red", 20, 6, 2, 5)
        >>> fight.add_fighter("bex", "blue", 18, 5, 3, 4)
        >>> _ = fight.roll_initiative()
        >>> fight.defend()
        'bex'
        """
        self.fighters[self.current()]["defending"] = True
        return self.end_turn()

    def attack(self, target: str) -> int:
        """The acting fighter attacks ``target``, then the turn passes on (unless the fight ends).

        :param target: a fighter of another team with hit points left.
        :return: damage dealt (0 on a miss), at most the target's remaining hit points.
        :raises ValueError: if initiative has not been rolled, the fight is over,
            or the target is downed or on the attacker's team.
        :raises KeyError: if there is no such target.

        >>> fight = CombatTracker(seed=7)
        >>> fight.add_fighter("ash", "red", 20, 6, 2, 5)
        >>> fight.add_fighter("bex", "blue", 18, 5, 3, 4)
        >>> _ = fight.roll_initiative()
        >>> fight.attack("ash")
        Traceback (most recent call last):
        ...
        ValueError: ash cannot attack a team mate
        """
        attacker = self.fighters[self.current()]
        if self.winner():
            raise ValueError("the fight is over")
        victim = self.fighters[target]
        if victim["team"] == attacker["team"]:
            raise ValueError(f"{self.current()} cannot attack a team mate")
        if victim["hp"] == 0:
            raise ValueError(f"{target} is already down")
        roll = self.rng.randint(1, 20)
        damage = 0
        if roll > 1:
            damage = max(1, attacker["attack"] + self.rng.randint(1, 6) - victim["defence"])
            if roll == 20:
                damage *= 2
            if victim["defending"]:
                damage //= 2
        damage = min(damage, victim["hp"])
        victim["hp"] -= damage
        if not self.winner():
            self.end_turn()
        return damage
