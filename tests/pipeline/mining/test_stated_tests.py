"""A repository's tests that check what the skeleton does not state are dropped before the gate."""

from __future__ import annotations

import ast

from core.analysis.skeleton import make_skeleton
from pipeline.mining.stated_tests import keep_stated_tests

SOURCE = '''class Node:
    """A stored entry."""

    def __init__(self, key):
        self.key = key
        self.height = 0


class Tree:
    """A tree of ``key`` entries."""

    def __init__(self):
        """Start empty."""
        self.root = None
        self.count = 0

    def add(self, key):
        """Add ``key``; the first one added is the ``root``."""
        if self.root is None:
            self.root = Node(key)
        self.count += 1

    def size(self):
        """How many keys were added."""
        return self.count
'''

TESTS = '''import unittest

import pytest

from tree import Node, Tree


@pytest.fixture
def tree():
    return Tree()


def test_size(tree):
    tree.add(1)
    assert tree.size() == 1


@pytest.mark.parametrize("key", [1, 2])
def test_leaf_height(tree, key):
    tree.add(key)
    assert tree.root.height == 0


class TestTree(unittest.TestCase):
    def setUp(self):
        self.tree = Tree()

    def test_root_key(self):
        self.tree.add(5)
        self.assertEqual(self.tree.root.key, 5)

    def test_unstated_error(self):
        with self.assertRaises(KeyError):
            self.tree.size()
'''


def _kept(tests: str = TESTS):
    return keep_stated_tests(tests, make_skeleton(SOURCE, "Tree"), "Tree", SOURCE)


def test_tests_checking_an_unstated_field_or_exception_are_dropped_and_the_rest_kept():
    result = _kept()
    names = {n.name for n in ast.walk(ast.parse(result.test_code)) if isinstance(n, ast.FunctionDef)}
    assert names == {"tree", "test_size", "setUp", "test_root_key"}  # `key` is stated in the docstrings
    assert set(result.dropped) == {"test_leaf_height", "test_unstated_error"}
    assert "height" in result.dropped["test_leaf_height"] and "KeyError" in result.dropped["test_unstated_error"]
    assert "@pytest.mark.parametrize" not in result.test_code  # the decorator went with its test


def test_a_suite_within_the_skeleton_is_kept_byte_for_byte_and_one_left_with_no_test_is_none():
    within = TESTS.split("@pytest.mark.parametrize")[0]
    assert _kept(within).test_code == within and not _kept(within).dropped
    only_bad = 'from tree import Tree\n\n\ndef test_leaf():\n    t = Tree()\n    t.add(1)\n    assert t.root.height == 0\n'
    assert _kept(only_bad).test_code is None and set(_kept(only_bad).dropped) == {"test_leaf"}
