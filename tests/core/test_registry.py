"""A registry of plug-ins: name -> "module:attr", in registration order, loaded on use, no name twice."""

from __future__ import annotations

import pytest

from core.registry import Registry


def test_a_registry_keeps_its_order_and_loads_on_use():
    registry = Registry("thing", {"b": "json:dumps", "a": "json:loads"})
    assert list(registry) == ["b", "a"] and "a" in registry and len(registry) == 2
    assert registry.load("a")("[1]") == [1]


def test_a_second_plug_in_under_one_name_is_refused():
    registry = Registry("thing", {"a": "json:loads"})
    with pytest.raises(ValueError, match="thing 'a' is registered already"):
        registry.register("a", "json:dumps")
    with pytest.raises(ValueError, match="not 'module:attr'"):
        registry.register("b", "json.dumps")


def test_an_unknown_name_says_which_are_known():
    with pytest.raises(KeyError, match="unknown thing 'c'; known: a"):
        Registry("thing", {"a": "json:loads"}).load("c")


def test_a_plug_in_registered_for_a_block_is_gone_after_it():
    registry = Registry("thing", {"a": "json:loads"})
    with registry.registered("toy", "json:dumps"):
        assert list(registry) == ["a", "toy"]
    assert list(registry) == ["a"]
