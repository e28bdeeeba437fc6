"""Pools of a mined class from the constants its methods compare parameters with, and the long walks that
call one method with all of them: the states a run of calls reaches (a won game, a full buffer)."""

from __future__ import annotations

import ast
import random

from core.analysis.class_model import analyse
from pipeline.mining.pools import compared_constants, static_pools
from pipeline.synthesis.long_walks import long_walks

BOARD = '''
EMPTY = " "


class Board:
    """A 3x3 board two players fill in turn."""

    def __init__(self):
        self.cells = [[EMPTY] * 3 for _ in range(3)]
        self.player = "X"

    def move(self, row: int, col: int) -> bool:
        """Mark (row, col) for the player to move; False when it is off the board or taken."""
        if not (0 <= row <= 2 and 0 <= col <= 2):
            return False
        if self.cells[row][col] != EMPTY:
            return False
        self.cells[row][col] = self.player
        self.player = "O" if self.player == "X" else "X"
        return True

    def winner(self):
        """The player holding a full row, or None."""
        for line in self.cells:
            if line[0] != EMPTY and line.count(line[0]) == 3:
                return line[0]
        return None

    def set_mode(self, mode: str) -> None:
        """Switch the rules."""
        if mode in ("classic", "misere"):
            self.mode = mode
'''


def _function(source: str, name: str) -> ast.FunctionDef:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef) and n.name == name)


def test_compared_constants_read_bounds_and_members_per_parameter():
    assert compared_constants(_function(BOARD, "move"), "row") == [0, 2]
    assert compared_constants(_function(BOARD, "set_mode"), "mode") == ["classic", "misere"]
    assert compared_constants(_function("def f(self, n):\n    return n > -3\n", "f"), "n") == [-3]
    assert compared_constants(_function(BOARD, "move"), "player") == []  # not a parameter compared


def test_a_bounded_method_is_called_with_every_in_range_combination_and_just_outside():
    calls = {call.args for call in static_pools(BOARD, "Board").calls["move"]}
    assert {(str(r), str(c)) for r in range(3) for c in range(3)} <= calls
    assert {("-1", "0"), ("3", "0"), ("0", "-1"), ("0", "3")} <= calls
    assert ("1", "10") in calls  # the hinted values are still tried
    modes = {call.args for call in static_pools(BOARD, "Board").calls["set_mode"]}
    assert {("'classic'",), ("'misere'",)} <= modes


def test_long_walks_call_a_mutator_with_each_pooled_call_then_the_queries():
    pools = static_pools(BOARD, "Board")
    model = analyse(BOARD, "Board")
    walks = long_walks(model, pools, random.Random(1))
    moves = [w for w in walks if w.steps[0].method == "move"]
    assert len(moves) == 3  # pool order and two shuffles
    for walk in moves:
        assert len([s for s in walk.steps if s.method == "move"]) == len(pools.calls["move"])
        assert walk.steps[-1].method == "winner"
    assert sorted(map(repr, moves[1].steps[:-1])) == sorted(map(repr, moves[0].steps[:-1]))
    assert not [w for w in walks if w.steps[0].method == "winner"]  # queries are not walked on their own



def test_a_constructor_whose_compared_constants_are_its_checks_is_also_tried_with_hinted_values():
    """`capacity < 1` and `ttl <= 0` raise: the combinations of the compared values alone (1 with 0, 0 with 0)
    built no instance in any scenario; hinted values are tried too."""
    source = '''
class Cache:
    def __init__(self, capacity: int, ttl: float) -> None:
        if capacity < 1:
            raise ValueError("capacity")
        if ttl <= 0:
            raise ValueError("ttl")
        self.capacity, self.ttl = capacity, ttl

    def put(self, key: str) -> None:
        self.key = key
'''
    ctors = [ast.literal_eval(f"({', '.join(c.args)},)") for c in static_pools(source, "Cache").ctors]
    assert any(capacity >= 1 and ttl > 0 for capacity, ttl in ctors)


def test_a_task_module_is_never_named_like_a_standard_or_driver_module():
    from pipeline.mining.candidates import module_name_for

    assert module_name_for("Queue") == "m_queue" and module_name_for("Literals") == "m_literals"
    assert module_name_for("TTLCache") == "ttlcache" and module_name_for("BankAccount") == "bank_account"
