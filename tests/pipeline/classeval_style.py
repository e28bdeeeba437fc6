"""A small corpus in ClassEval's shape, written for these tests (no ClassEval text is copied): the method
docstrings live in the skeleton and not in the solution, the solution has no type hints, and the tests are
`unittest.TestCase` classes named `<Class>Test<Method>` plus one `<Class>TestMain` driving several methods.

Imported by name (`from classeval_style import ...`); `write_corpus` writes it as a ClassEval-format JSON file.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path


def _d(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


SHOPPING_CART = {
    "task_id": "Style_01",
    "class_name": "ShoppingCart",
    "class_description": "A shopping cart that keeps items with their prices and quantities, takes a discount "
                         "in percent and computes what the customer pays.",
    "import_statement": [],
    "skeleton": _d('''
        class ShoppingCart:
            """
            A shopping cart: items with a unit price and a quantity, and one discount in percent.
            """

            def __init__(self):
                """
                Start with no items and no discount.
                """
                self.items = {}
                self.discount = 0

            def add_item(self, name, price, quantity=1):
                """
                Add a quantity of an item; an item already in the cart keeps its price and gains the quantity.
                :param name: str, the item's name
                :param price: float, the unit price
                :param quantity: int, how many, at least 1
                :return: int, the item's quantity in the cart afterwards
                :raises ValueError: when quantity is below 1
                >>> cart = ShoppingCart()
                >>> cart.add_item("apple", 0.5, 3)
                3
                """

            def remove_item(self, name, quantity=1):
                """
                Take a quantity of an item out; the item leaves the cart when none is left.
                :param name: str, the item's name
                :param quantity: int, how many to take out
                :return: bool, False when the item is not in the cart, else True
                >>> cart = ShoppingCart()
                >>> cart.remove_item("apple")
                False
                """

            def item_count(self):
                """
                The number of units in the cart, all items together.
                :return: int
                >>> cart = ShoppingCart()
                >>> cart.add_item("pear", 1.0, 2)
                2
                >>> cart.item_count()
                2
                """

            def apply_discount(self, percent):
                """
                Set the discount, replacing any earlier one.
                :param percent: int, from 0 to 100
                :return: None
                :raises ValueError: when percent is outside 0..100
                """

            def total(self):
                """
                What the customer pays: the sum of price times quantity, less the discount, rounded to cents.
                :return: float
                >>> cart = ShoppingCart()
                >>> cart.add_item("pear", 2.0, 2)
                2
                >>> cart.apply_discount(25)
                >>> cart.total()
                3.0
                """

            def most_expensive(self):
                """
                The name of the item with the highest unit price (the first added among equals), None when empty.
                :return: str or None
                """
    '''),
    "solution_code": _d('''
        class ShoppingCart:
            def __init__(self):
                self.items = {}
                self.discount = 0

            def add_item(self, name, price, quantity=1):
                if quantity < 1:
                    raise ValueError("quantity must be at least 1")
                if name in self.items:
                    self.items[name]["quantity"] += quantity
                else:
                    self.items[name] = {"price": price, "quantity": quantity}
                return self.items[name]["quantity"]

            def remove_item(self, name, quantity=1):
                if name not in self.items:
                    return False
                self.items[name]["quantity"] -= quantity
                if self.items[name]["quantity"] <= 0:
                    del self.items[name]
                return True

            def item_count(self):
                return sum(entry["quantity"] for entry in self.items.values())

            def apply_discount(self, percent):
                if percent < 0 or percent > 100:
                    raise ValueError("percent must be between 0 and 100")
                self.discount = percent

            def total(self):
                subtotal = sum(entry["price"] * entry["quantity"] for entry in self.items.values())
                return round(subtotal * (100 - self.discount) / 100, 2)

            def most_expensive(self):
                best = None
                for name, entry in self.items.items():
                    if best is None or entry["price"] > self.items[best]["price"]:
                        best = name
                return best
    '''),
    "test": _d('''
        import unittest


        class ShoppingCartTestAddItem(unittest.TestCase):
            def test_add_item_1(self):
                cart = ShoppingCart()
                self.assertEqual(cart.add_item("apple", 0.5, 3), 3)
                self.assertEqual(cart.items, {"apple": {"price": 0.5, "quantity": 3}})

            def test_add_item_2(self):
                cart = ShoppingCart()
                cart.add_item("apple", 0.5, 3)
                self.assertEqual(cart.add_item("apple", 0.7, 2), 5)
                self.assertEqual(cart.items["apple"]["price"], 0.5)

            def test_add_item_3(self):
                cart = ShoppingCart()
                with self.assertRaises(ValueError):
                    cart.add_item("apple", 0.5, 0)


        class ShoppingCartTestRemoveItem(unittest.TestCase):
            def test_remove_item_1(self):
                cart = ShoppingCart()
                cart.add_item("pear", 1.0, 3)
                self.assertTrue(cart.remove_item("pear", 2))
                self.assertEqual(cart.item_count(), 1)

            def test_remove_item_2(self):
                cart = ShoppingCart()
                cart.add_item("pear", 1.0, 1)
                self.assertTrue(cart.remove_item("pear"))
                self.assertEqual(cart.items, {})

            def test_remove_item_3(self):
                cart = ShoppingCart()
                self.assertFalse(cart.remove_item("plum"))


        class ShoppingCartTestItemCount(unittest.TestCase):
            def test_item_count_1(self):
                cart = ShoppingCart()
                self.assertEqual(cart.item_count(), 0)

            def test_item_count_2(self):
                cart = ShoppingCart()
                cart.add_item("pear", 1.0, 2)
                cart.add_item("fig", 3.0, 4)
                self.assertEqual(cart.item_count(), 6)


        class ShoppingCartTestApplyDiscount(unittest.TestCase):
            def test_apply_discount_1(self):
                cart = ShoppingCart()
                cart.apply_discount(10)
                self.assertEqual(cart.discount, 10)

            def test_apply_discount_2(self):
                cart = ShoppingCart()
                with self.assertRaises(ValueError):
                    cart.apply_discount(101)

            def test_apply_discount_3(self):
                cart = ShoppingCart()
                with self.assertRaises(ValueError):
                    cart.apply_discount(-1)


        class ShoppingCartTestTotal(unittest.TestCase):
            def test_total_1(self):
                cart = ShoppingCart()
                cart.add_item("pear", 2.0, 2)
                cart.apply_discount(25)
                self.assertEqual(cart.total(), 3.0)

            def test_total_2(self):
                cart = ShoppingCart()
                self.assertEqual(cart.total(), 0)


        class ShoppingCartTestMostExpensive(unittest.TestCase):
            def test_most_expensive_1(self):
                cart = ShoppingCart()
                self.assertIsNone(cart.most_expensive())

            def test_most_expensive_2(self):
                cart = ShoppingCart()
                cart.add_item("pear", 2.0)
                cart.add_item("fig", 3.0)
                cart.add_item("kiwi", 3.0)
                self.assertEqual(cart.most_expensive(), "fig")


        class ShoppingCartTestMain(unittest.TestCase):
            def test_main(self):
                cart = ShoppingCart()
                cart.add_item("pear", 2.0, 3)
                cart.add_item("fig", 5.0)
                cart.remove_item("pear")
                cart.apply_discount(50)
                self.assertEqual(cart.item_count(), 3)
                self.assertEqual(cart.total(), 4.5)
                cart.remove_item("fig")
                self.assertEqual(cart.most_expensive(), "pear")
    '''),
}

WALLET = {
    "task_id": "Style_02",
    "class_name": "Wallet",
    "class_description": "A wallet for one owner that records deposits, withdrawals and payments in a history "
                         "and reports the balance.",
    "import_statement": [],
    "skeleton": _d('''
        class Wallet:
            """
            A wallet with a whole-number balance and a history of what changed it.
            """

            def __init__(self, owner):
                """
                An empty wallet.
                :param owner: str, the owner's name
                """
                self.owner = owner
                self.balance = 0
                self.history = []

            def deposit(self, amount):
                """
                Put money in and record ("deposit", amount).
                :param amount: int, more than 0
                :return: int, the balance afterwards
                :raises ValueError: when amount is not more than 0
                >>> w = Wallet("ann")
                >>> w.deposit(30)
                30
                """

            def withdraw(self, amount):
                """
                Take money out when the balance covers it, recording ("withdraw", amount).
                :param amount: int
                :return: bool, False (and nothing changes) when the balance is short
                """

            def pay(self, payee, amount):
                """
                Pay someone: a withdrawal recorded as ("pay", payee, amount) instead.
                :param payee: str
                :param amount: int
                :return: int, the balance afterwards
                :raises ValueError: when the balance is short
                """

            def get_history(self, kind=None):
                """
                The recorded entries in order, or only those of one kind ("deposit", "withdraw" or "pay").
                :param kind: str or None
                :return: list of tuples
                """

            def largest_deposit(self):
                """
                The largest amount ever deposited, 0 when there was none.
                :return: int
                """
    '''),
    "solution_code": _d('''
        class Wallet:
            def __init__(self, owner):
                self.owner = owner
                self.balance = 0
                self.history = []

            def deposit(self, amount):
                if amount <= 0:
                    raise ValueError("amount must be positive")
                self.balance += amount
                self.history.append(("deposit", amount))
                return self.balance

            def withdraw(self, amount):
                if amount > self.balance:
                    return False
                self.balance -= amount
                self.history.append(("withdraw", amount))
                return True

            def pay(self, payee, amount):
                if amount > self.balance:
                    raise ValueError("insufficient balance")
                self.balance -= amount
                self.history.append(("pay", payee, amount))
                return self.balance

            def get_history(self, kind=None):
                if kind is None:
                    return list(self.history)
                return [entry for entry in self.history if entry[0] == kind]

            def largest_deposit(self):
                amounts = [entry[1] for entry in self.get_history("deposit")]
                return max(amounts) if amounts else 0
    '''),
    "test": _d('''
        import unittest


        class WalletTestDeposit(unittest.TestCase):
            def test_deposit_1(self):
                w = Wallet("ann")
                self.assertEqual(w.deposit(30), 30)
                self.assertEqual(w.deposit(12), 42)

            def test_deposit_2(self):
                w = Wallet("ann")
                with self.assertRaises(ValueError):
                    w.deposit(0)


        class WalletTestWithdraw(unittest.TestCase):
            def test_withdraw_1(self):
                w = Wallet("bob")
                w.deposit(20)
                self.assertTrue(w.withdraw(15))
                self.assertEqual(w.balance, 5)

            def test_withdraw_2(self):
                w = Wallet("bob")
                w.deposit(20)
                self.assertFalse(w.withdraw(21))
                self.assertEqual(w.balance, 20)


        class WalletTestPay(unittest.TestCase):
            def test_pay_1(self):
                w = Wallet("cat")
                w.deposit(50)
                self.assertEqual(w.pay("shop", 20), 30)
                self.assertEqual(w.get_history(), [("deposit", 50), ("pay", "shop", 20)])

            def test_pay_2(self):
                w = Wallet("cat")
                with self.assertRaises(ValueError):
                    w.pay("shop", 1)


        class WalletTestGetHistory(unittest.TestCase):
            def test_get_history_1(self):
                w = Wallet("dan")
                self.assertEqual(w.get_history(), [])

            def test_get_history_2(self):
                w = Wallet("dan")
                w.deposit(10)
                w.withdraw(4)
                w.deposit(7)
                self.assertEqual(w.get_history("deposit"), [("deposit", 10), ("deposit", 7)])
                self.assertEqual(w.get_history("withdraw"), [("withdraw", 4)])


        class WalletTestLargestDeposit(unittest.TestCase):
            def test_largest_deposit_1(self):
                w = Wallet("eve")
                self.assertEqual(w.largest_deposit(), 0)

            def test_largest_deposit_2(self):
                w = Wallet("eve")
                w.deposit(8)
                w.deposit(19)
                w.deposit(3)
                self.assertEqual(w.largest_deposit(), 19)


        class WalletTestMain(unittest.TestCase):
            def test_main(self):
                w = Wallet("fay")
                w.deposit(40)
                w.pay("cafe", 15)
                w.withdraw(5)
                w.deposit(9)
                self.assertEqual(w.balance, 29)
                self.assertEqual(w.largest_deposit(), 40)
                self.assertEqual(len(w.get_history()), 4)
    '''),
}

INVOICE_BOOK = {
    "task_id": "Style_03",
    "class_name": "InvoiceBook",
    "class_description": "An invoice register that issues numbered invoices to customers, records payments "
                         "against them and lists the overdue ones.",
    "import_statement": [],
    "skeleton": _d('''
        class InvoiceBook:
            """
            Numbered invoices with an amount due, a due day and the payments received.
            """

            def __init__(self, prefix="INV"):
                """
                An empty book whose invoice numbers start with prefix.
                :param prefix: str
                """
                self.prefix = prefix
                self.invoices = {}

            def issue(self, customer, amount, due_day):
                """
                Issue the next invoice: numbers are prefix, a dash and a four-digit counter from 0001.
                :param customer: str
                :param amount: int, more than 0
                :param due_day: int, the last day to pay
                :return: str, the invoice number
                :raises ValueError: when amount is not more than 0
                >>> book = InvoiceBook()
                >>> book.issue("acme", 100, 30)
                'INV-0001'
                """

            def pay(self, number, amount):
                """
                Record a payment; paying more than is due is refused.
                :param number: str, an issued invoice number
                :param amount: int
                :return: int, what remains due
                :raises KeyError: when no invoice has that number
                :raises ValueError: when amount is more than remains due
                """

            def remaining(self, number):
                """
                What remains due on one invoice.
                :param number: str
                :return: int
                :raises KeyError: when no invoice has that number
                """

            def outstanding(self, customer=None):
                """
                The total still due, over all invoices or one customer's.
                :param customer: str or None
                :return: int
                """

            def overdue(self, today):
                """
                Numbers of the invoices not fully paid whose due day is before today, in issue order.
                :param today: int
                :return: list of str
                """
    '''),
    "solution_code": _d('''
        class InvoiceBook:
            def __init__(self, prefix="INV"):
                self.prefix = prefix
                self.invoices = {}

            def issue(self, customer, amount, due_day):
                if amount <= 0:
                    raise ValueError("amount must be positive")
                number = "%s-%04d" % (self.prefix, len(self.invoices) + 1)
                self.invoices[number] = {"customer": customer, "amount": amount, "due_day": due_day, "paid": 0}
                return number

            def pay(self, number, amount):
                due = self.remaining(number)
                if amount > due:
                    raise ValueError("payment exceeds the amount due")
                self.invoices[number]["paid"] += amount
                return due - amount

            def remaining(self, number):
                invoice = self.invoices[number]
                return invoice["amount"] - invoice["paid"]

            def outstanding(self, customer=None):
                return sum(self.remaining(number) for number, invoice in self.invoices.items()
                           if customer is None or invoice["customer"] == customer)

            def overdue(self, today):
                return [number for number, invoice in self.invoices.items()
                        if invoice["due_day"] < today and self.remaining(number) > 0]
    '''),
    "test": _d('''
        import unittest


        class InvoiceBookTestIssue(unittest.TestCase):
            def test_issue_1(self):
                book = InvoiceBook()
                self.assertEqual(book.issue("acme", 100, 30), "INV-0001")
                self.assertEqual(book.issue("bolt", 50, 10), "INV-0002")

            def test_issue_2(self):
                book = InvoiceBook("B")
                self.assertEqual(book.issue("acme", 1, 1), "B-0001")

            def test_issue_3(self):
                book = InvoiceBook()
                with self.assertRaises(ValueError):
                    book.issue("acme", 0, 5)


        class InvoiceBookTestPay(unittest.TestCase):
            def test_pay_1(self):
                book = InvoiceBook()
                number = book.issue("acme", 100, 30)
                self.assertEqual(book.pay(number, 40), 60)
                self.assertEqual(book.pay(number, 60), 0)

            def test_pay_2(self):
                book = InvoiceBook()
                number = book.issue("acme", 100, 30)
                with self.assertRaises(ValueError):
                    book.pay(number, 101)

            def test_pay_3(self):
                book = InvoiceBook()
                with self.assertRaises(KeyError):
                    book.pay("INV-0009", 1)


        class InvoiceBookTestRemaining(unittest.TestCase):
            def test_remaining_1(self):
                book = InvoiceBook()
                book.issue("acme", 70, 3)
                self.assertEqual(book.remaining("INV-0001"), 70)

            def test_remaining_2(self):
                book = InvoiceBook()
                with self.assertRaises(KeyError):
                    book.remaining("INV-0001")


        class InvoiceBookTestOutstanding(unittest.TestCase):
            def test_outstanding_1(self):
                book = InvoiceBook()
                book.issue("acme", 100, 30)
                book.issue("bolt", 50, 10)
                book.issue("acme", 25, 12)
                self.assertEqual(book.outstanding(), 175)
                self.assertEqual(book.outstanding("acme"), 125)

            def test_outstanding_2(self):
                book = InvoiceBook()
                self.assertEqual(book.outstanding("acme"), 0)


        class InvoiceBookTestOverdue(unittest.TestCase):
            def test_overdue_1(self):
                book = InvoiceBook()
                book.issue("acme", 100, 30)
                book.issue("bolt", 50, 10)
                self.assertEqual(book.overdue(20), ["INV-0002"])
                self.assertEqual(book.overdue(10), [])


        class InvoiceBookTestMain(unittest.TestCase):
            def test_main(self):
                book = InvoiceBook()
                first = book.issue("acme", 100, 5)
                second = book.issue("acme", 40, 8)
                book.pay(first, 100)
                book.pay(second, 15)
                self.assertEqual(book.overdue(9), ["INV-0002"])
                self.assertEqual(book.outstanding("acme"), 25)
                self.assertEqual(book.remaining(first), 0)
    '''),
}

SNAKE_GAME = {
    "task_id": "Style_04",
    "class_name": "SnakeGame",
    "class_description": "A snake game on a rectangular board: the snake moves one cell per step, grows when "
                         "it eats the food and the game is over when it leaves the board or runs into itself.",
    "import_statement": [],
    "skeleton": _d('''
        class SnakeGame:
            """
            The snake is a list of cells, head first, starting as the one cell (0, 0) on a width x height board.
            """

            def __init__(self, width, height):
                """
                :param width: int, number of columns (x from 0 to width - 1)
                :param height: int, number of rows (y from 0 to height - 1)
                """
                self.width = width
                self.height = height
                self.snake = [(0, 0)]
                self.food = None
                self.score = 0
                self.over = False

            def place_food(self, x, y):
                """
                Put the food on a cell of the board that the snake does not occupy.
                :param x: int
                :param y: int
                :return: None
                :raises ValueError: when the cell is off the board or under the snake
                """

            def move(self, direction):
                """
                Move the head one cell: "U" is y - 1, "D" is y + 1, "L" is x - 1, "R" is x + 1. On the food the
                snake grows by one and the score goes up by one (the food is then gone); otherwise the tail follows.
                Leaving the board or entering the snake's own body ends the game.
                :param direction: str, one of "U", "D", "L", "R"
                :return: bool, True when the snake moved, False when the game is (now) over
                :raises ValueError: for any other direction
                >>> game = SnakeGame(3, 3)
                >>> game.move("R")
                True
                >>> game.move("U")
                False
                """

            def length(self):
                """
                :return: int, the number of cells of the snake
                """

            def head(self):
                """
                :return: tuple, the (x, y) cell of the head
                """
    '''),
    "solution_code": _d('''
        class SnakeGame:
            def __init__(self, width, height):
                self.width = width
                self.height = height
                self.snake = [(0, 0)]
                self.food = None
                self.score = 0
                self.over = False

            def place_food(self, x, y):
                if not (0 <= x < self.width and 0 <= y < self.height) or (x, y) in self.snake:
                    raise ValueError("food must go on a free cell of the board")
                self.food = (x, y)

            def move(self, direction):
                steps = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
                if direction not in steps:
                    raise ValueError("unknown direction")
                if self.over:
                    return False
                dx, dy = steps[direction]
                x, y = self.head()
                new_head = (x + dx, y + dy)
                if not (0 <= new_head[0] < self.width and 0 <= new_head[1] < self.height) or new_head in self.snake[:-1]:
                    self.over = True
                    return False
                self.snake.insert(0, new_head)
                if new_head == self.food:
                    self.score += 1
                    self.food = None
                else:
                    self.snake.pop()
                return True

            def length(self):
                return len(self.snake)

            def head(self):
                return self.snake[0]
    '''),
    "test": _d('''
        import unittest


        class SnakeGameTestPlaceFood(unittest.TestCase):
            def test_place_food_1(self):
                game = SnakeGame(4, 4)
                game.place_food(2, 3)
                self.assertEqual(game.food, (2, 3))

            def test_place_food_2(self):
                game = SnakeGame(4, 4)
                with self.assertRaises(ValueError):
                    game.place_food(0, 0)

            def test_place_food_3(self):
                game = SnakeGame(4, 4)
                with self.assertRaises(ValueError):
                    game.place_food(4, 1)


        class SnakeGameTestMove(unittest.TestCase):
            def test_move_1(self):
                game = SnakeGame(4, 4)
                self.assertTrue(game.move("R"))
                self.assertEqual(game.head(), (1, 0))
                self.assertEqual(game.length(), 1)

            def test_move_2(self):
                game = SnakeGame(4, 4)
                self.assertFalse(game.move("L"))
                self.assertTrue(game.over)
                self.assertFalse(game.move("R"))

            def test_move_3(self):
                game = SnakeGame(4, 4)
                game.place_food(1, 0)
                self.assertTrue(game.move("R"))
                self.assertEqual(game.score, 1)
                self.assertEqual(game.length(), 2)
                self.assertIsNone(game.food)

            def test_move_4(self):
                game = SnakeGame(4, 4)
                with self.assertRaises(ValueError):
                    game.move("X")


        class SnakeGameTestLength(unittest.TestCase):
            def test_length_1(self):
                game = SnakeGame(2, 2)
                self.assertEqual(game.length(), 1)


        class SnakeGameTestHead(unittest.TestCase):
            def test_head_1(self):
                game = SnakeGame(3, 3)
                game.move("D")
                game.move("R")
                self.assertEqual(game.head(), (1, 1))


        class SnakeGameTestMain(unittest.TestCase):
            def test_main(self):
                game = SnakeGame(5, 5)
                game.place_food(1, 0)
                game.move("R")
                game.place_food(2, 0)
                game.move("R")
                game.move("D")
                game.move("L")
                self.assertEqual(game.length(), 3)
                self.assertEqual(game.score, 2)
                self.assertFalse(game.move("R"))
                self.assertTrue(game.over)
    '''),
}

DICE_GAME = {
    "task_id": "Style_05",
    "class_name": "DiceGame",
    "class_description": "A dice game in which players take turns recording their rolls; doubles score twice, "
                         "and the scores and the leader can be asked for at any time.",
    "import_statement": [],
    "skeleton": _d('''
        class DiceGame:
            """
            Players in a fixed order take turns; each turn records the faces of one roll of the dice.
            """

            def __init__(self, players):
                """
                :param players: list of str, the players in turn order
                """
                self.players = players
                self.scores = {name: 0 for name in players}
                self.turn = 0

            def current_player(self):
                """
                :return: str, the player whose turn it is
                """

            def record_roll(self, dice):
                """
                Score a roll for the current player and pass the turn on. A roll scores the sum of its faces,
                twice that when all faces are equal and there are at least two.
                :param dice: list of int, each from 1 to 6
                :return: int, the points scored
                :raises ValueError: when the list is empty or a face is outside 1..6
                >>> game = DiceGame(["ann", "bob"])
                >>> game.record_roll([3, 3])
                12
                >>> game.current_player()
                'bob'
                """

            def score_of(self, player):
                """
                :param player: str
                :return: int, the player's total
                :raises KeyError: for someone not playing
                """

            def leader(self):
                """
                :return: str, the player with the highest total (the earliest in turn order among equals)
                """

            def reset(self):
                """
                Every total back to 0 and the turn back to the first player.
                :return: None
                """
    '''),
    "solution_code": _d('''
        class DiceGame:
            def __init__(self, players):
                self.players = players
                self.scores = {name: 0 for name in players}
                self.turn = 0

            def current_player(self):
                return self.players[self.turn]

            def record_roll(self, dice):
                if not dice or any(face < 1 or face > 6 for face in dice):
                    raise ValueError("faces must be between 1 and 6")
                points = sum(dice)
                if len(dice) > 1 and len(set(dice)) == 1:
                    points *= 2
                self.scores[self.current_player()] += points
                self.turn = (self.turn + 1) % len(self.players)
                return points

            def score_of(self, player):
                return self.scores[player]

            def leader(self):
                best = self.players[0]
                for name in self.players:
                    if self.scores[name] > self.scores[best]:
                        best = name
                return best

            def reset(self):
                for name in self.players:
                    self.scores[name] = 0
                self.turn = 0
    '''),
    "test": _d('''
        import unittest


        class DiceGameTestCurrentPlayer(unittest.TestCase):
            def test_current_player_1(self):
                game = DiceGame(["ann", "bob"])
                self.assertEqual(game.current_player(), "ann")

            def test_current_player_2(self):
                game = DiceGame(["ann", "bob"])
                game.record_roll([1, 2])
                game.record_roll([4])
                self.assertEqual(game.current_player(), "ann")


        class DiceGameTestRecordRoll(unittest.TestCase):
            def test_record_roll_1(self):
                game = DiceGame(["ann", "bob"])
                self.assertEqual(game.record_roll([3, 3]), 12)
                self.assertEqual(game.current_player(), "bob")

            def test_record_roll_2(self):
                game = DiceGame(["ann"])
                self.assertEqual(game.record_roll([2, 5, 1]), 8)
                self.assertEqual(game.record_roll([6]), 6)

            def test_record_roll_3(self):
                game = DiceGame(["ann"])
                with self.assertRaises(ValueError):
                    game.record_roll([7, 1])

            def test_record_roll_4(self):
                game = DiceGame(["ann"])
                with self.assertRaises(ValueError):
                    game.record_roll([])


        class DiceGameTestScoreOf(unittest.TestCase):
            def test_score_of_1(self):
                game = DiceGame(["ann", "bob"])
                game.record_roll([2, 2, 2])
                self.assertEqual(game.score_of("ann"), 12)
                self.assertEqual(game.score_of("bob"), 0)

            def test_score_of_2(self):
                game = DiceGame(["ann"])
                with self.assertRaises(KeyError):
                    game.score_of("zed")


        class DiceGameTestLeader(unittest.TestCase):
            def test_leader_1(self):
                game = DiceGame(["ann", "bob"])
                self.assertEqual(game.leader(), "ann")

            def test_leader_2(self):
                game = DiceGame(["ann", "bob"])
                game.record_roll([1, 2])
                game.record_roll([5, 6])
                self.assertEqual(game.leader(), "bob")


        class DiceGameTestReset(unittest.TestCase):
            def test_reset_1(self):
                game = DiceGame(["ann", "bob"])
                game.record_roll([4, 4])
                game.reset()
                self.assertEqual(game.score_of("ann"), 0)
                self.assertEqual(game.current_player(), "ann")


        class DiceGameTestMain(unittest.TestCase):
            def test_main(self):
                game = DiceGame(["ann", "bob", "cy"])
                game.record_roll([1, 1])
                game.record_roll([6, 5])
                game.record_roll([2])
                game.record_roll([3, 3])
                self.assertEqual(game.score_of("ann"), 16)
                self.assertEqual(game.leader(), "ann")
                self.assertEqual(game.current_player(), "bob")
    '''),
}

GAME_INVENTORY = {
    "task_id": "Style_06",
    "class_name": "GameInventory",
    "class_description": "A player's inventory in a game: a fixed number of slots, each holding a stack of one "
                         "item up to a stack limit; items are added, used and dropped.",
    "import_statement": [],
    "skeleton": _d('''
        class GameInventory:
            """
            Slots hold [item, count] stacks; an item may fill several slots.
            """

            def __init__(self, slots=4, stack_limit=10):
                """
                :param slots: int, the number of slots
                :param stack_limit: int, the most units one slot holds
                """
                self.slots = slots
                self.stack_limit = stack_limit
                self.stacks = []

            def add(self, item, count=1):
                """
                Add units of an item: first topping up the item's stacks in order, then opening new stacks while
                slots are free. What does not fit is not added.
                :param item: str
                :param count: int, at least 1
                :return: int, the number of units that did not fit
                :raises ValueError: when count is below 1
                >>> bag = GameInventory(1, 5)
                >>> bag.add("arrow", 7)
                2
                """

            def count(self, item):
                """
                :param item: str
                :return: int, the units of the item over all stacks
                """

            def remove(self, item, count=1):
                """
                Take units out, from the item's last stack backwards; an emptied stack frees its slot.
                :param item: str
                :param count: int
                :return: int, the units of the item left
                :raises ValueError: when there are fewer than count units
                """

            def use(self, item):
                """
                Use one unit of an item.
                :param item: str
                :return: int, the units of the item left
                :raises ValueError: when there is none
                """

            def free_slots(self):
                """
                :return: int, the number of empty slots
                """
    '''),
    "solution_code": _d('''
        class GameInventory:
            def __init__(self, slots=4, stack_limit=10):
                self.slots = slots
                self.stack_limit = stack_limit
                self.stacks = []

            def add(self, item, count=1):
                if count < 1:
                    raise ValueError("count must be at least 1")
                for stack in self.stacks:
                    if stack[0] == item and stack[1] < self.stack_limit:
                        moved = min(count, self.stack_limit - stack[1])
                        stack[1] += moved
                        count -= moved
                while count > 0 and self.free_slots() > 0:
                    moved = min(count, self.stack_limit)
                    self.stacks.append([item, moved])
                    count -= moved
                return count

            def count(self, item):
                return sum(stack[1] for stack in self.stacks if stack[0] == item)

            def remove(self, item, count=1):
                if self.count(item) < count:
                    raise ValueError("not enough units")
                for stack in reversed(list(self.stacks)):
                    if count == 0:
                        break
                    if stack[0] == item:
                        taken = min(count, stack[1])
                        stack[1] -= taken
                        count -= taken
                        if stack[1] == 0:
                            self.stacks.remove(stack)
                return self.count(item)

            def use(self, item):
                return self.remove(item, 1)

            def free_slots(self):
                return self.slots - len(self.stacks)
    '''),
    "test": _d('''
        import unittest


        class GameInventoryTestAdd(unittest.TestCase):
            def test_add_1(self):
                bag = GameInventory(1, 5)
                self.assertEqual(bag.add("arrow", 7), 2)
                self.assertEqual(bag.count("arrow"), 5)

            def test_add_2(self):
                bag = GameInventory(3, 5)
                bag.add("arrow", 3)
                self.assertEqual(bag.add("arrow", 4), 0)
                self.assertEqual(bag.stacks, [["arrow", 5], ["arrow", 2]])

            def test_add_3(self):
                bag = GameInventory()
                with self.assertRaises(ValueError):
                    bag.add("arrow", 0)


        class GameInventoryTestCount(unittest.TestCase):
            def test_count_1(self):
                bag = GameInventory()
                self.assertEqual(bag.count("gem"), 0)

            def test_count_2(self):
                bag = GameInventory()
                bag.add("gem", 12)
                bag.add("rope")
                self.assertEqual(bag.count("gem"), 12)


        class GameInventoryTestRemove(unittest.TestCase):
            def test_remove_1(self):
                bag = GameInventory(4, 5)
                bag.add("gem", 7)
                self.assertEqual(bag.remove("gem", 3), 4)
                self.assertEqual(bag.free_slots(), 3)

            def test_remove_2(self):
                bag = GameInventory()
                bag.add("gem", 2)
                with self.assertRaises(ValueError):
                    bag.remove("gem", 3)


        class GameInventoryTestUse(unittest.TestCase):
            def test_use_1(self):
                bag = GameInventory()
                bag.add("potion", 2)
                self.assertEqual(bag.use("potion"), 1)
                self.assertEqual(bag.use("potion"), 0)
                self.assertEqual(bag.free_slots(), 4)

            def test_use_2(self):
                bag = GameInventory()
                with self.assertRaises(ValueError):
                    bag.use("potion")


        class GameInventoryTestFreeSlots(unittest.TestCase):
            def test_free_slots_1(self):
                bag = GameInventory(2, 3)
                bag.add("rope", 4)
                self.assertEqual(bag.free_slots(), 0)


        class GameInventoryTestMain(unittest.TestCase):
            def test_main(self):
                bag = GameInventory(3, 4)
                bag.add("arrow", 6)
                bag.add("potion")
                bag.use("arrow")
                self.assertEqual(bag.add("gem", 2), 2)
                bag.remove("potion")
                self.assertEqual(bag.free_slots(), 1)
                self.assertEqual(bag.count("arrow"), 5)
    '''),
}

TICKET_BOOKING = {
    "task_id": "Style_07",
    "class_name": "TicketBooking",
    "class_description": "A ticket booking desk for one show: seats are held at a fixed price per seat, then "
                         "checked out together.",
    "import_statement": [],
    "skeleton": _d('''
        class TicketBooking:
            """
            Seats of one show, held at a fixed price per seat and then checked out together.
            """

            def __init__(self, price, seats):
                """
                A show with no seat held or sold.
                :param price: int, the price of one seat
                :param seats: int, how many seats the show has
                """
                self.price = price
                self.seats = seats
                self.held = 0
                self.sold_seats = 0

            def hold(self, count):
                """
                Hold more seats for the customer at the desk.
                :param count: int, at least 1
                :return: int, the seats held so far
                :raises ValueError: when count is below 1 or more than the free seats
                >>> desk = TicketBooking(12, 10)
                >>> desk.hold(3)
                3
                """

            def free_seats(self):
                """
                The seats neither held nor sold.
                :return: int
                """

            def total_price(self):
                """
                The price of the seats held now.
                :return: int, the total price of the held seats
                """

            def checkout(self):
                """
                Sell the held seats: they count as sold and none is held any more.
                :return: False when no seat is held, or total(return value of total_price) otherwise.
                """

            def sold(self):
                """
                The seats sold so far.
                :return: int
                """
    '''),
    "solution_code": _d('''
        class TicketBooking:
            def __init__(self, price, seats):
                self.price = price
                self.seats = seats
                self.held = 0
                self.sold_seats = 0

            def hold(self, count):
                if count < 1 or count > self.free_seats():
                    raise ValueError("cannot hold that many seats")
                self.held += count
                return self.held

            def free_seats(self):
                return self.seats - self.held - self.sold_seats

            def total_price(self):
                return self.held * self.price

            def checkout(self):
                if self.held == 0:
                    return False
                total = self.total_price()
                self.sold_seats += self.held
                self.held = 0
                return total

            def sold(self):
                return self.sold_seats
    '''),
    "test": _d('''
        import unittest


        class TicketBookingTestHold(unittest.TestCase):
            def test_hold_1(self):
                desk = TicketBooking(12, 10)
                self.assertEqual(desk.hold(3), 3)
                self.assertEqual(desk.hold(2), 5)

            def test_hold_2(self):
                desk = TicketBooking(12, 2)
                with self.assertRaises(ValueError):
                    desk.hold(3)

            def test_hold_3(self):
                desk = TicketBooking(12, 2)
                with self.assertRaises(ValueError):
                    desk.hold(0)


        class TicketBookingTestFreeSeats(unittest.TestCase):
            def test_free_seats_1(self):
                desk = TicketBooking(12, 10)
                desk.hold(4)
                self.assertEqual(desk.free_seats(), 6)


        class TicketBookingTestTotalPrice(unittest.TestCase):
            def test_total_price_1(self):
                desk = TicketBooking(12, 10)
                desk.hold(3)
                self.assertEqual(desk.total_price(), 36)

            def test_total_price_2(self):
                self.assertEqual(TicketBooking(12, 10).total_price(), 0)


        class TicketBookingTestCheckout(unittest.TestCase):
            def test_checkout_1(self):
                desk = TicketBooking(12, 10)
                desk.hold(2)
                self.assertEqual(desk.checkout(), 24)
                self.assertEqual(desk.total_price(), 0)

            def test_checkout_2(self):
                self.assertFalse(TicketBooking(12, 10).checkout())


        class TicketBookingTestSold(unittest.TestCase):
            def test_sold_1(self):
                desk = TicketBooking(9, 10)
                desk.hold(2)
                desk.checkout()
                desk.hold(1)
                self.assertEqual(desk.sold(), 2)


        class TicketBookingTestMain(unittest.TestCase):
            def test_main(self):
                desk = TicketBooking(5, 6)
                desk.hold(2)
                self.assertEqual(desk.checkout(), 10)
                desk.hold(4)
                self.assertEqual(desk.free_seats(), 0)
                self.assertEqual(desk.checkout(), 20)
                self.assertEqual(desk.sold(), 6)
    '''),
}
"""Not in `CORPUS`: a Business_App class whose checkout returns what the customer pays, the producer of a
payment a wallet's deposit takes (the composition tests)."""


TRANSFER_WALLET = {
    **WALLET,
    "task_id": "Style_08",
    "class_description": WALLET["class_description"] + " Money moves from one wallet to another by a transfer.",
    "skeleton": WALLET["skeleton"] + "\n" + textwrap.indent(_d('''

        def transfer(self, other_wallet, amount):
            """
            Move money to another wallet: a withdrawal here, a deposit there.
            :param other_wallet: Wallet
            :param amount: int
            :return: bool, False (and nothing changes) when the balance is short
            """
    '''), "    "),
    "solution_code": WALLET["solution_code"] + "\n" + textwrap.indent(_d('''

        def transfer(self, other_wallet, amount):
            if not self.withdraw(amount):
                return False
            other_wallet.deposit(amount)
            return True
    '''), "    "),
    "test": WALLET["test"] + _d('''


        class WalletTestTransfer(unittest.TestCase):
            def test_transfer_1(self):
                a, b = Wallet("gus"), Wallet("hal")
                a.deposit(25)
                self.assertTrue(a.transfer(b, 10))
                self.assertEqual((a.balance, b.balance), (15, 10))

            def test_transfer_2(self):
                a, b = Wallet("gus"), Wallet("hal")
                self.assertFalse(a.transfer(b, 1))
                self.assertEqual(b.get_history(), [])
    '''),
}
"""The wallet with a method that takes another wallet: a hybrid leaves it out (`pipeline/synthesis/own_kind.py`)."""

CORPUS = (SHOPPING_CART, WALLET, INVOICE_BOOK, SNAKE_GAME, DICE_GAME, GAME_INVENTORY)


def write_corpus(path: Path, entries=CORPUS) -> Path:
    """The corpus as a ClassEval-format JSON file."""
    path.write_text(json.dumps([{**entry, "test_classes": [], "methods_info": [], "fields": []} for entry in entries],
                               indent=1), encoding="utf-8")
    return path
