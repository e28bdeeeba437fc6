import pytest

from combat_tracker import CombatTracker


def duel(seed):
    fight = CombatTracker(seed)
    fight.add_fighter("ash", "red", 20, 6, 2, 5)
    fight.add_fighter("bex", "blue", 18, 5, 3, 4)
    return fight


def skirmish(seed):
    fight = CombatTracker(seed)
    fight.add_fighter("ash", "red", 20, 6, 2, 5)
    fight.add_fighter("cy", "red", 4, 2, 0, 3)
    fight.add_fighter("bex", "blue", 30, 7, 3, 4)
    return fight


def test_add_fighter_duplicate_rejected():
    fight = duel(1)
    with pytest.raises(ValueError):
        fight.add_fighter("ash", "blue", 5, 1, 1, 1)


def test_add_fighter_zero_hp_rejected():
    with pytest.raises(ValueError):
        CombatTracker().add_fighter("ash", "red", 0, 1, 1, 1)


def test_add_fighter_sets_hit_points():
    fight = CombatTracker()
    fight.add_fighter("dov", "green", 12, 3, 1, 2)
    assert fight.hit_points("dov") == 12


def test_add_fighter_after_initiative_rejected():
    fight = duel(7)
    fight.roll_initiative()
    with pytest.raises(ValueError):
        fight.add_fighter("cy", "red", 5, 1, 1, 1)


def test_roll_initiative_is_seeded():
    assert duel(7).roll_initiative() == ["ash", "bex"]
    assert duel(22).roll_initiative() == ["bex", "ash"]


def test_roll_initiative_much_faster_fighter_first():
    fight = CombatTracker(5)
    fight.add_fighter("slow", "red", 5, 1, 1, 0)
    fight.add_fighter("zip", "blue", 5, 1, 1, 50)
    assert fight.roll_initiative() == ["zip", "slow"]


def test_roll_initiative_needs_two_teams():
    fight = CombatTracker()
    fight.add_fighter("ash", "red", 5, 1, 1, 1)
    fight.add_fighter("cy", "red", 5, 1, 1, 1)
    with pytest.raises(ValueError):
        fight.roll_initiative()


def test_roll_initiative_twice_rejected():
    fight = duel(7)
    fight.roll_initiative()
    with pytest.raises(ValueError):
        fight.roll_initiative()


def test_current_is_first_in_order():
    fight = duel(22)
    fight.roll_initiative()
    assert fight.current() == "bex"


def test_current_before_initiative_rejected():
    with pytest.raises(ValueError):
        duel(7).current()


def test_hit_points_unknown_fighter():
    with pytest.raises(KeyError):
        duel(7).hit_points("zed")


def test_attack_deals_seeded_damage_and_passes_turn():
    fight = duel(7)
    fight.roll_initiative()
    assert fight.attack("bex") == 9
    assert fight.hit_points("bex") == 9
    assert fight.current() == "bex"


def test_attack_roll_of_one_misses():
    fight = duel(22)
    fight.roll_initiative()
    assert fight.attack("ash") == 0
    assert fight.hit_points("ash") == 20


def test_attack_roll_of_twenty_doubles_damage():
    fight = duel(30)
    fight.roll_initiative()
    assert fight.attack("bex") == 8


def test_attack_team_mate_rejected():
    fight = skirmish(3)
    fight.roll_initiative()
    fight.attack("cy")
    with pytest.raises(ValueError):
        fight.attack("ash")


def test_attack_unknown_target():
    fight = duel(7)
    fight.roll_initiative()
    with pytest.raises(KeyError):
        fight.attack("zed")


def test_attack_downed_target_rejected():
    fight = skirmish(3)
    fight.roll_initiative()
    fight.attack("cy")
    fight.end_turn()
    with pytest.raises(ValueError):
        fight.attack("cy")


def test_attack_before_initiative_rejected():
    with pytest.raises(ValueError):
        duel(7).attack("bex")


def test_damage_never_exceeds_remaining_hit_points():
    fight = skirmish(3)
    fight.roll_initiative()
    assert fight.attack("cy") == 4
    assert fight.hit_points("cy") == 0


def test_defend_halves_next_hit():
    fight = duel(7)
    fight.roll_initiative()
    assert fight.defend() == "bex"
    assert fight.attack("ash") == 4
    assert fight.hit_points("ash") == 16


def test_defending_ends_on_own_turn():
    fight = duel(7)
    fight.roll_initiative()
    fight.defend()
    fight.end_turn()
    fight.end_turn()
    assert fight.attack("ash") == 9


def test_end_turn_cycles_and_counts_rounds():
    fight = duel(7)
    fight.roll_initiative()
    assert fight.end_turn() == "bex"
    assert fight.end_turn() == "ash"
    assert fight.round == 2


def test_end_turn_skips_downed_fighters():
    fight = skirmish(3)
    assert fight.roll_initiative() == ["bex", "cy", "ash"]
    fight.attack("cy")
    assert fight.current() == "ash"


def test_end_turn_before_initiative_rejected():
    with pytest.raises(ValueError):
        duel(7).end_turn()


def test_alive_by_team():
    fight = skirmish(3)
    fight.roll_initiative()
    fight.attack("cy")
    assert fight.alive("red") == ["ash"]
    assert fight.alive() == ["ash", "bex"]


def test_winner_empty_while_fighting():
    fight = duel(7)
    fight.roll_initiative()
    fight.attack("bex")
    assert fight.winner() == ""


def test_winner_empty_before_initiative():
    assert duel(7).winner() == ""


def test_full_duel_is_reproducible():
    fight = duel(7)
    fight.roll_initiative()
    dealt = []
    while not fight.winner():
        target = "bex" if fight.current() == "ash" else "ash"
        dealt.append(fight.attack(target))
    assert dealt == [9, 4, 4, 8, 5]
    assert fight.winner() == "red"
    assert fight.hit_points("ash") == 8
    assert fight.alive() == ["ash"]


def test_skirmish_scenario():
    fight = skirmish(3)
    assert fight.roll_initiative() == ["bex", "cy", "ash"]
    assert fight.current() == "bex"
    assert fight.attack("cy") == 4
    assert fight.alive("red") == ["ash"]
    assert fight.attack("bex") == 14
    assert fight.current() == "bex"
    assert fight.defend() == "ash"
    assert fight.end_turn() == "bex"
    assert fight.round == 3
    assert fight.hit_points("bex") == 16
    assert fight.winner() == ""


def test_no_actions_after_fight_ends():
    fight = duel(7)
    fight.roll_initiative()
    for target in ["bex", "ash", "bex", "ash", "bex"]:
        fight.attack(target)
    assert fight.winner() == "red"
    with pytest.raises(ValueError):
        fight.attack("bex")
    with pytest.raises(ValueError):
        fight.end_turn()
    with pytest.raises(ValueError):
        fight.defend()


def test_setup_is_closed_once_fighting():
    fight = duel(7)
    fight.roll_initiative()
    assert fight.defend() == "bex"
    with pytest.raises(ValueError):
        fight.add_fighter("cy", "red", 5, 1, 1, 1)
    with pytest.raises(ValueError):
        fight.roll_initiative()
    assert fight.current() == "bex"


def test_no_joining_or_rerolling_after_an_attack():
    fight = duel(7)
    fight.roll_initiative()
    assert fight.attack("bex") == 9
    with pytest.raises(ValueError):
        fight.add_fighter("cy", "red", 5, 1, 1, 1)
    with pytest.raises(ValueError):
        fight.roll_initiative()
    assert fight.alive() == ["ash", "bex"]


def test_fighter_with_one_hit_point_is_alive():
    fight = CombatTracker(2)
    fight.add_fighter("ash", "red", 1, 1, 1, 1)
    assert fight.alive("red") == ["ash"]
