import pytest

from crafting_inventory import CraftingInventory

WEIGHTS = {"wood": 2, "stick": 1, "coal": 1, "torch": 1, "ore": 3, "bar": 5, "gem": 0}


@pytest.fixture
def bag():
    inventory = CraftingInventory(WEIGHTS, 30)
    inventory.learn_recipe("sticks", {"wood": 1}, "stick", 4)
    inventory.learn_recipe("torch", {"stick": 1, "coal": 1}, "torch", 4)
    inventory.learn_recipe("smelt", {"ore": 1, "coal": 2}, "bar")
    return inventory


def test_init_rejects_negative_limit():
    with pytest.raises(ValueError):
        CraftingInventory(WEIGHTS, -1)


def test_learn_recipe_duplicate_rejected(bag):
    with pytest.raises(ValueError):
        bag.learn_recipe("sticks", {"wood": 2}, "stick")


def test_learn_recipe_unknown_ingredient(bag):
    with pytest.raises(KeyError):
        bag.learn_recipe("magic", {"unobtainium": 1}, "gem")


def test_learn_recipe_unknown_output(bag):
    with pytest.raises(KeyError):
        bag.learn_recipe("magic", {"gem": 1}, "wand")


def test_learn_recipe_without_ingredients(bag):
    with pytest.raises(ValueError):
        bag.learn_recipe("free", {}, "gem")


def test_learn_recipe_zero_quantity(bag):
    with pytest.raises(ValueError):
        bag.learn_recipe("none", {"gem": 1}, "bar", 0)


def test_learn_recipe_becomes_craftable(bag):
    bag.learn_recipe("polish", {"gem": 2}, "gem", 1)
    bag.add_item("gem", 4)
    assert bag.max_craftable("polish") == 2


def test_count_unheld_item(bag):
    assert bag.count("wood") == 0


def test_add_item_accumulates(bag):
    bag.add_item("wood", 2)
    assert bag.add_item("wood", 3) == 5


def test_add_item_unknown_kind(bag):
    with pytest.raises(KeyError):
        bag.add_item("sword", 1)


def test_add_item_zero_rejected(bag):
    with pytest.raises(ValueError):
        bag.add_item("wood", 0)


def test_add_item_over_limit_rejected(bag):
    bag.add_item("bar", 5)
    with pytest.raises(ValueError):
        bag.add_item("wood", 3)


def test_add_item_exactly_at_limit(bag):
    bag.add_item("bar", 5)
    assert bag.add_item("wood", 2) == 2
    assert bag.carried_weight() == 29


def test_weightless_items_ignore_limit(bag):
    bag.add_item("bar", 6)
    assert bag.add_item("gem", 100) == 100


def test_carried_weight_sums_kinds(bag):
    bag.add_item("wood", 3)
    bag.add_item("ore", 2)
    assert bag.carried_weight() == 12


def test_remove_item_partial(bag):
    bag.add_item("coal", 5)
    assert bag.remove_item("coal", 2) == 3


def test_remove_item_all(bag):
    bag.add_item("coal", 5)
    assert bag.remove_item("coal", 5) == 0
    assert bag.carried_weight() == 0


def test_remove_item_more_than_held(bag):
    bag.add_item("coal", 1)
    with pytest.raises(ValueError):
        bag.remove_item("coal", 2)


def test_remove_item_not_held(bag):
    with pytest.raises(ValueError):
        bag.remove_item("wood", 1)


def test_missing_for_reports_shortfall(bag):
    bag.add_item("coal", 3)
    assert bag.missing_for("smelt", 2) == {"coal": 1, "ore": 2}


def test_missing_for_nothing_missing(bag):
    bag.add_item("wood", 1)
    assert bag.missing_for("sticks") == {}


def test_missing_for_unknown_recipe(bag):
    with pytest.raises(KeyError):
        bag.missing_for("potion")


def test_max_craftable_limited_by_scarcest_ingredient(bag):
    bag.add_item("stick", 5)
    bag.add_item("coal", 3)
    assert bag.max_craftable("torch") == 3


def test_max_craftable_limited_by_weight(bag):
    bag.add_item("stick", 4)
    bag.add_item("coal", 4)
    bag.add_item("bar", 3)
    bag.add_item("wood", 1)
    assert bag.max_craftable("torch") == 2


def test_max_craftable_zero_without_ingredients(bag):
    assert bag.max_craftable("smelt") == 0


def test_max_craftable_unknown_recipe(bag):
    with pytest.raises(KeyError):
        bag.max_craftable("potion")


def test_craft_consumes_and_produces(bag):
    bag.add_item("wood", 2)
    assert bag.craft("sticks", 2) == 8
    assert bag.count("wood") == 0


def test_craft_adds_to_existing_output(bag):
    bag.add_item("stick", 1)
    bag.add_item("wood", 1)
    assert bag.craft("sticks") == 5


def test_craft_missing_ingredients_changes_nothing(bag):
    bag.add_item("ore", 1)
    bag.add_item("coal", 1)
    with pytest.raises(ValueError):
        bag.craft("smelt")
    assert (bag.count("ore"), bag.count("coal")) == (1, 1)


def test_craft_over_weight_limit_rejected(bag):
    bag.add_item("bar", 5)
    bag.add_item("wood", 1)
    bag.add_item("stick", 1)
    bag.add_item("coal", 1)
    with pytest.raises(ValueError):
        bag.craft("torch")
    assert bag.count("stick") == 1


def test_craft_zero_times_rejected(bag):
    with pytest.raises(ValueError):
        bag.craft("sticks", 0)


def test_craft_unknown_recipe(bag):
    with pytest.raises(KeyError):
        bag.craft("potion")


def test_gathering_and_crafting_scenario():
    bag = CraftingInventory(WEIGHTS, 16)
    assert bag.add_item("wood", 4) == 4
    bag.learn_recipe("sticks", {"wood": 1}, "stick", 4)
    bag.learn_recipe("torch", {"stick": 1, "coal": 1}, "torch", 4)
    assert bag.max_craftable("sticks") == 4
    assert bag.craft("sticks", 2) == 8
    assert bag.missing_for("torch", 3) == {"coal": 3}
    assert bag.add_item("coal", 2) == 2
    assert bag.max_craftable("torch") == 1
    assert bag.remove_item("wood", 2) == 0
    assert bag.max_craftable("torch") == 2
    assert bag.craft("torch") == 4
    assert bag.carried_weight() == 12
    assert bag.remove_item("stick", 7) == 0
    assert bag.max_craftable("torch") == 0
    assert bag.missing_for("torch") == {"stick": 1}
    assert bag.add_item("stick", 1) == 1
    assert bag.craft("torch") == 8
    assert bag.count("coal") == 0


def test_recipe_learned_after_items_scenario():
    bag = CraftingInventory(WEIGHTS, 12)
    bag.add_item("ore", 2)
    bag.add_item("coal", 4)
    bag.learn_recipe("smelt", {"ore": 1, "coal": 2}, "bar")
    assert bag.craft("smelt", 2) == 2
    assert bag.carried_weight() == 10
    assert bag.missing_for("smelt") == {"coal": 2, "ore": 1}
    bag.remove_item("bar", 1)
    assert bag.add_item("ore", 1) == 1


def test_zero_carry_limit_holds_only_weightless_items():
    bag = CraftingInventory(WEIGHTS, 0)
    assert bag.add_item("gem", 3) == 3
    with pytest.raises(ValueError):
        bag.add_item("coal", 1)


def test_learn_recipe_default_yields_one(bag):
    bag.learn_recipe("press", {"coal": 2}, "gem")
    bag.add_item("coal", 2)
    assert bag.craft("press") == 1


def test_max_craftable_with_weight_gain_of_one():
    bag = CraftingInventory(WEIGHTS, 5)
    bag.learn_recipe("split", {"coal": 1}, "stick", 2)
    bag.add_item("coal", 3)
    assert bag.max_craftable("split") == 2


def test_craft_several_times_checks_total_weight_gain():
    bag = CraftingInventory(WEIGHTS, 7)
    bag.learn_recipe("torch", {"stick": 1, "coal": 1}, "torch", 4)
    bag.add_item("stick", 2)
    bag.add_item("coal", 2)
    with pytest.raises(ValueError):
        bag.craft("torch", 2)
    assert bag.craft("torch") == 4
