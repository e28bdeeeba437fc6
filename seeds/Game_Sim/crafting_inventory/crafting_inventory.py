"""A weight-limited inventory that can turn ingredients into items by recipe."""


class CraftingInventory:
    """A player's bag of items with a carry limit and a book of crafting recipes.

    Every item kind has a weight per unit; the total weight carried may never
    exceed ``max_weight``. Crafting consumes a recipe's ingredients and produces
    its output in one step, and only happens if all ingredients are present and
    the result still fits the carry limit.

    >>> bag = CraftingInventory({"wood": 2, "stick": 1, "torch": 1, "coal": 1}, 20)
    >>> bag.add_item("wood", 3)
    3
    >>> bag.learn_recipe("sticks", {"wood": 1}, "stick", 4)
    >>> bag.craft("sticks", 2)
    8
    >>> bag.count("wood"), bag.count("stick"), bag.carried_weight()
    (1, 8, 10)
    """

    def __init__(self, weights: dict[str, int], max_weight: int) -> None:
        """Create an empty inventory.

        :param weights: item kind -> weight of one unit (>= 0); only these kinds can be held.
        :param max_weight: carry limit, >= 0.
        :raises ValueError: if the limit or a weight is negative.

        >>> CraftingInventory({"ore": 3}, 10).carried_weight()
        0
        """
        if max_weight < 0 or any(w < 0 for w in weights.values()):
            raise ValueError("weights and the carry limit must not be negative")
        self.weights = dict(weights)
        self.max_weight = max_weight
        self.items: dict[str, int] = {}
        self.recipes: dict[str, tuple[dict[str, int], str, int]] = {}

    def learn_recipe(self, name: str, ingredients: dict[str, int], output: str, quantity: int = 1) -> None:
        """Add a recipe to the book.

        :param name: unique recipe name.
        :param ingredients: item kind -> units consumed per craft (each >= 1, at least one kind).
        :param output: item kind produced.
        :param quantity: units produced per craft, >= 1.
        :raises KeyError: if an ingredient or the output is not a known item kind.
        :raises ValueError: if the name is taken, there are no ingredients, or a count is below 1.

        >>> CraftingInventory({"ore": 3, "bar": 2}, 10).learn_recipe("smelt", {"ore": 2}, "bar")
        """
        for item in sorted(ingredients) + [output]:
            if item not in self.weights:
                raise KeyError(item)
        if name in self.recipes:
            raise ValueError(f"recipe {name!r} is already known")
        if not ingredients or quantity < 1 or min(ingredients.values()) < 1:
            raise ValueError("a recipe needs ingredients and counts of at least 1")
        self.recipes[name] = (dict(ingredients), output, quantity)

    def count(self, item: str) -> int:
        """Units of ``item`` held.

        :param item: item kind.
        :return: the count, 0 if none is held.

        >>> CraftingInventory({"ore": 3}, 10).count("ore")
        0
        """
        return self.items.get(item, 0)

    def carried_weight(self) -> int:
        """Total weight of everything held.

        :return: the sum of unit weight times count over all items.

        >>> CraftingInventory({"ore": 3}, 10).carried_weight()
        0
        """
        return sum(self.weights[item] * n for item, n in self.items.items())

    def add_item(self, item: str, quantity: int) -> int:
        """Put ``quantity`` units of ``item`` in the bag.

        :param item: a known item kind.
        :param quantity: units to add, >= 1.
        :return: units of ``item`` now held.
        :raises KeyError: if the item kind is unknown.
        :raises ValueError: if the quantity is below 1 or the carry limit would be exceeded.

        >>> CraftingInventory({"ore": 3}, 10).add_item("ore", 3)
        3
        """
        if item not in self.weights:
            raise KeyError(item)
        if quantity < 1:
            raise ValueError("quantity must be at least 1")
        if self.carried_weight() + self.weights[item] * quantity > self.max_weight:
            raise ValueError(f"adding {quantity} {item} exceeds the carry limit of {self.max_weight}")
        self.items[item] = self.count(item) + quantity
        return self.items[item]

    def remove_item(self, item: str, quantity: int) -> int:
        """Take ``quantity`` units of ``item`` out of the bag.

        :param item: item kind.
        :param quantity: units to take, 1..held.
        :return: units of ``item`` left.
        :raises ValueError: if the quantity is below 1 or more than is held.

        >>> bag = CraftingInventory({"ore": 3}, 10)
        >>> _ = bag.add_item("ore", 3)
        >>> bag.remove_item("ore", 1)
        2
        """
        held = self.count(item)
        if not 1 <= quantity <= held:
            raise ValueError(f"cannot remove {quantity} {item}: holding {held}")
        if quantity == held:
            del self.items[item]
        else:
            self.items[item] = held - quantity
        return held - quantity

    def missing_for(self, recipe: str, times: int = 1) -> dict[str, int]:
        """Ingredients still lacking to craft ``recipe`` ``times`` times.

        :param recipe: a known recipe.
        :param times: number of crafts planned.
        :return: item kind -> units lacking, keys sorted; empty when nothing is missing.
        :raises KeyError: if the recipe is unknown.

        >>> bag = CraftingInventory({"ore": 3, "bar": 2}, 10)
        >>> bag.learn_recipe("smelt", {"ore": 2}, "bar")
        >>> bag.missing_for("smelt", 2)
        {'ore': 4}
        """
        ingredients = self.recipes[recipe][0]
        return {
            item: need * times - self.count(item)
            for item, need in sorted(ingredients.items())
            if need * times > self.count(item)
        }

    def _weight_change(self, recipe: str) -> int:
        """Change of carried weight caused by crafting ``recipe`` once.

        :param recipe: a known recipe.
        :return: output weight minus ingredient weight (may be negative).
        :raises KeyError: if the recipe is unknown.

        >>> bag = CraftingInventory({"ore": 3, "bar": 2}, 10)
        >>> bag.learn_recipe("smelt", {"ore": 2}, "bar")
        >>> bag._weight_change("smelt")
        -4
        """
        ingredients, output, quantity = self.recipes[recipe]
        used = sum(self.weights[item] * need for item, need in ingredients.items())
        return self.weights[output] * quantity - used

    def max_craftable(self, recipe: str) -> int:
        """How many times ``recipe`` can be crafted right now, counting ingredients and the carry limit.

        :param recipe: a known recipe.
        :return: the largest number of crafts that would succeed, 0 if none.
        :raises KeyError: if the recipe is unknown.

        >>> bag = CraftingInventory({"ore": 3, "bar": 2}, 10)
        >>> bag.learn_recipe("smelt", {"ore": 2}, "bar")
        >>> _ = bag.add_item("ore", 3)
        >>> bag.max_craftable("smelt")
        1
        """
        ingredients = self.recipes[recipe][0]
        limit = min(self.count(item) // need for item, need in ingredients.items())
        gain = self._weight_change(recipe)
        if gain > 0:
            limit = min(limit, (self.max_weight - self.carried_weight()) // gain)
        return limit

    def craft(self, recipe: str, times: int = 1) -> int:
        """Craft ``recipe`` ``times`` times in one step.

        :param recipe: a known recipe.
        :param times: number of crafts, >= 1.
        :return: units of the output item now held.
        :raises KeyError: if the recipe is unknown.
        :raises ValueError: if ``times`` is below 1, ingredients are missing,
            or the result would exceed the carry limit; a refused craft leaves
            the inventory unchanged.

        >>> bag = CraftingInventory({"ore": 3, "bar": 2}, 10)
        >>> bag.learn_recipe("smelt", {"ore": 2}, "bar")
        >>> _ = bag.add_item("ore", 2)
        >>> bag.craft("smelt")
        1
        """
        if times < 1:
            raise ValueError("times must be at least 1")
        missing = self.missing_for(recipe, times)
        if missing:
            raise ValueError(f"missing ingredients: {missing}")
        if self.carried_weight() + self._weight_change(recipe) * times > self.max_weight:
            raise ValueError("the crafted items would exceed the carry limit")
        ingredients, output, quantity = self.recipes[recipe]
        for item, need in sorted(ingredients.items()):
            self.remove_item(item, need * times)
        return self.add_item(output, quantity * times)
