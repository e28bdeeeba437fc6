"""A least-recently-used cache with hit/miss/eviction statistics."""

from collections import OrderedDict


class LRUCache:
    """A fixed-capacity mapping from ``str`` keys to ``str`` values.

    Entries are kept in an :class:`~collections.OrderedDict` from least to
    most recently used.  :meth:`get` and :meth:`put` refresh an entry's
    position; when the cache is over capacity the least recently used entries
    are evicted by :meth:`_evict_overflow`, which :meth:`put` and
    :meth:`resize` share.  Hits, misses and evictions are counted so
    :meth:`stats` and :meth:`hit_rate` can report on cache effectiveness.

    >>> cache = LRUCache(2)
    >>> cache.put("a", "alpha"), cache.put("b", "beta")
    ([], [])
    >>> cache.get("a")
    'alpha'
    >>> cache.put("c", "gamma")
    ['b']
    >>> cache.keys()
    ['a', 'c']
    """

    def __init__(self, capacity: int) -> None:
        """Create an empty cache.

        :param capacity: maximum number of entries, at least 1.
        :raises ValueError: if ``capacity < 1``.

        >>> LRUCache(3).stats()["capacity"]
        3
        """
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self._capacity = capacity
        self._entries: OrderedDict[str, str] = OrderedDict()
        self._hits = 0
        self._misses = 0
        self._evictions = 0

    def _evict_overflow(self) -> list[str]:
        """Drop least recently used entries until the size fits the capacity.

        :return: the evicted keys, oldest first.

        >>> LRUCache(1)._evict_overflow()
        []
        """
        evicted: list[str] = []
        while len(self._entries) > self._capacity:
            key, _ = self._entries.popitem(last=False)
            evicted.append(key)
        self._evictions += len(evicted)
        return evicted

    def get(self, key: str) -> str | None:
        """Look ``key`` up, counting a hit or a miss.

        A hit makes the entry the most recently used one.

        :param key: the key to look up.
        :return: the cached value, or ``None`` on a miss.

        >>> cache = LRUCache(2)
        >>> _ = cache.put("k", "v")
        >>> cache.get("k"), cache.get("x")
        ('v', None)
        """
        if key not in self._entries:
            self._misses += 1
            return None
        self._hits += 1
        self._entries.move_to_end(key)
        return self._entries[key]

    def peek(self, key: str) -> str | None:
        """Read ``key`` without touching recency or statistics.

        :param key: the key to look up.
        :return: the cached value, or ``None`` if absent.

        >>> cache = LRUCache(2)
        >>> _ = cache.put("k", "v")
        >>> cache.peek("k"), cache.stats()["hits"]
        ('v', 0)
        """
        return self._entries.get(key)

    def put(self, key: str, value: str) -> list[str]:
        """Insert or overwrite an entry and make it the most recently used.

        :param key: the key to store.
        :param value: the value to store.
        :return: keys evicted to make room (empty if nothing was evicted).
        :raises TypeError: if ``key`` or ``value`` is not a ``str``.

        >>> cache = LRUCache(1)
        >>> cache.put("a", "1"), cache.put("b", "2")
        ([], ['a'])
        """
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("keys and values must be str")
        self._entries[key] = value
        self._entries.move_to_end(key)
        return self._evict_overflow()

    def delete(self, key: str) -> bool:
        """Remove ``key`` if present (not counted as an eviction).

        :param key: the key to remove.
        :return: ``True`` if an entry was removed.

        >>> cache = LRUCache(2)
        >>> _ = cache.put("a", "1")
        >>> cache.delete("a"), cache.delete("a")
        (True, False)
        """
        if key not in self._entries:
            return False
        del self._entries[key]
        return True

    def resize(self, capacity: int) -> list[str]:
        """Change the capacity, evicting least recently used entries if it shrinks.

        :param capacity: the new capacity, at least 1.
        :return: the evicted keys, oldest first.
        :raises ValueError: if ``capacity < 1``.

        >>> cache = LRUCache(3)
        >>> for k in "xyz":
        ...     _ = cache.put(k, k.upper())
        >>> cache.resize(1)
        ['x', 'y']
        """
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self._capacity = capacity
        return self._evict_overflow()

    def keys(self) -> list[str]:
        """List the keys from least to most recently used.

        :return: the cached keys in eviction order.

        >>> cache = LRUCache(3)
        >>> _ = cache.put("a", "1"); _ = cache.put("b", "2"); _ = cache.get("a")
        >>> cache.keys()
        ['b', 'a']
        """
        return list(self._entries)

    def stats(self) -> dict[str, int]:
        """Report counters and occupancy.

        :return: ``hits``, ``misses``, ``evictions``, ``size`` and ``capacity``.

        >>> cache = LRUCache(2)
        >>> _ = cache.get("nothing")
        >>> cache.stats()
        {'hits': 0, 'misses': 1, 'evictions': 0, 'size': 0, 'capacity': 2}
        """
        return {
            "hits": self._hits,
            "misses": self._misses,
            "evictions": self._evictions,
            "size": len(self._entries),
            "capacity": self._capacity,
        }

    def hit_rate(self) -> float:
        """Return the share of lookups that were hits.

        :return: hits / (hits + misses), or ``0.0`` before any lookup.

        >>> cache = LRUCache(2)
        >>> _ = cache.put("a", "1"); _ = cache.get("a"); _ = cache.get("b")
        >>> cache.hit_rate()
        0.5
        """
        counters = self.stats()
        lookups = counters["hits"] + counters["misses"]
        return counters["hits"] / lookups if lookups else 0.0

    def reset_stats(self) -> None:
        """Zero the hit, miss and eviction counters; entries are kept.

        >>> cache = LRUCache(2)
        >>> _ = cache.get("a"); cache.reset_stats()
        >>> cache.stats()["misses"]
        0
        """
        self._hits = 0
        self._misses = 0
        self._evictions = 0
