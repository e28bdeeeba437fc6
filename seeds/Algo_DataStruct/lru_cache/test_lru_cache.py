import pytest

from lru_cache import LRUCache


@pytest.fixture
def cache() -> LRUCache:
    c = LRUCache(3)
    c.put("a", "alpha")
    c.put("b", "beta")
    c.put("c", "gamma")
    return c


# constructor
def test_init_capacity_must_be_positive():
    with pytest.raises(ValueError):
        LRUCache(0)
    assert LRUCache(1).stats()["capacity"] == 1


# put
def test_put_within_capacity_evicts_nothing():
    c = LRUCache(2)
    assert c.put("x", "1") == []
    assert c.keys() == ["x"]


def test_put_over_capacity_evicts_least_recent(cache):
    assert cache.put("d", "delta") == ["a"]
    assert cache.keys() == ["b", "c", "d"]


def test_put_existing_key_overwrites_and_refreshes(cache):
    assert cache.put("a", "ALPHA") == []
    assert cache.keys() == ["b", "c", "a"]
    assert cache.peek("a") == "ALPHA"


def test_put_non_string_value_raises_type_error(cache):
    with pytest.raises(TypeError):
        cache.put("n", 5)


def test_put_non_string_key_raises_type_error(cache):
    with pytest.raises(TypeError):
        cache.put(7, "seven")


# get
def test_get_hit_returns_value(cache):
    assert cache.get("b") == "beta"


def test_get_hit_refreshes_recency(cache):
    cache.get("a")
    assert cache.keys() == ["b", "c", "a"]


def test_get_miss_returns_none(cache):
    assert cache.get("zzz") is None


def test_get_counts_hits_and_misses(cache):
    cache.get("a")
    cache.get("a")
    cache.get("q")
    assert cache.stats()["hits"] == 2
    assert cache.stats()["misses"] == 1


# peek
def test_peek_does_not_refresh_recency(cache):
    assert cache.peek("a") == "alpha"
    assert cache.keys() == ["a", "b", "c"]


def test_peek_does_not_count_statistics(cache):
    cache.peek("a")
    cache.peek("missing")
    assert cache.stats()["hits"] == 0
    assert cache.stats()["misses"] == 0


def test_peek_missing_returns_none(cache):
    assert cache.peek("nope") is None


# delete
def test_delete_existing_returns_true(cache):
    assert cache.delete("b") is True
    assert cache.keys() == ["a", "c"]


def test_delete_missing_returns_false(cache):
    assert cache.delete("zzz") is False


def test_delete_is_not_an_eviction(cache):
    cache.delete("a")
    assert cache.stats()["evictions"] == 0


# resize
def test_resize_shrink_evicts_oldest(cache):
    assert cache.resize(1) == ["a", "b"]
    assert cache.keys() == ["c"]


def test_resize_grow_keeps_entries(cache):
    assert cache.resize(10) == []
    assert cache.stats()["capacity"] == 10


def test_resize_invalid_raises_value_error(cache):
    with pytest.raises(ValueError):
        cache.resize(0)


# stats / hit_rate / reset_stats
def test_stats_reports_all_counters(cache):
    cache.get("a")
    cache.get("x")
    cache.put("d", "delta")
    assert cache.stats() == {"hits": 1, "misses": 1, "evictions": 1, "size": 3, "capacity": 3}


def test_hit_rate_without_lookups_is_zero(cache):
    assert cache.hit_rate() == 0.0


def test_hit_rate_mixed_lookups(cache):
    cache.get("a")
    cache.get("b")
    cache.get("c")
    cache.get("x")
    assert cache.hit_rate() == 0.75


def test_reset_stats_zeroes_counters_keeps_entries(cache):
    cache.get("a")
    cache.get("x")
    cache.put("d", "delta")
    cache.reset_stats()
    assert cache.stats() == {"hits": 0, "misses": 0, "evictions": 0, "size": 3, "capacity": 3}
    assert cache.keys() == ["c", "a", "d"]


# scenarios
def test_scenario_get_protects_entry_from_eviction():
    c = LRUCache(2)
    c.put("home", "<html>home</html>")
    c.put("about", "<html>about</html>")
    assert c.get("home") == "<html>home</html>"
    assert c.put("blog", "<html>blog</html>") == ["about"]
    assert c.get("about") is None
    assert c.keys() == ["home", "blog"]
    assert c.hit_rate() == 0.5
    assert c.stats()["evictions"] == 1


def test_scenario_delete_then_put_needs_no_eviction():
    c = LRUCache(2)
    c.put("a", "1")
    c.put("b", "2")
    assert c.delete("a") is True
    assert c.put("c", "3") == []
    assert c.get("b") == "2"
    assert c.delete("b") is True
    assert c.keys() == ["c"]
    assert c.stats()["size"] == 1


def test_scenario_reset_then_evictions_count_from_zero():
    c = LRUCache(1)
    c.put("a", "1")
    c.put("b", "2")
    c.reset_stats()
    assert c.put("c", "3") == ["b"]
    assert c.get("c") == "3"
    assert c.stats() == {"hits": 1, "misses": 0, "evictions": 1, "size": 1, "capacity": 1}
    c.reset_stats()
    assert c.hit_rate() == 0.0


def test_scenario_resize_then_put_and_get():
    c = LRUCache(4)
    for key in ["w", "x", "y", "z"]:
        c.put(key, key * 2)
    assert c.get("w") == "ww"
    assert c.resize(2) == ["x", "y"]
    assert c.put("v", "vv") == ["z"]
    assert c.get("w") == "ww"
    assert c.delete("v") is True
    assert c.resize(3) == []
    assert c.peek("w") == "ww"
    assert c.stats() == {"hits": 2, "misses": 0, "evictions": 3, "size": 1, "capacity": 3}


def test_scenario_get_delete_get_counts_miss():
    c = LRUCache(2)
    c.put("k", "v")
    assert c.get("k") == "v"
    c.delete("k")
    assert c.get("k") is None
    c.put("k", "w")
    c.reset_stats()
    c.get("k")
    c.put("m", "n")
    c.put("o", "p")
    assert c.keys() == ["m", "o"]
    assert c.hit_rate() == 1.0
