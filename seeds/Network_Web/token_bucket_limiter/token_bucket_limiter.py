"""A token-bucket rate limiter for many clients, driven by caller-supplied timestamps."""


class TokenBucketLimiter:
    """One token bucket per client key; time is passed in by the caller (seconds).

    A bucket starts full, holds at most ``capacity`` tokens and gains ``rate``
    tokens per second. A request of cost ``c`` is allowed when at least ``c``
    tokens are available and then consumes them. Timestamps for one key must never
    go backwards.

    >>> limiter = TokenBucketLimiter(capacity=2.0, rate=0.5)
    >>> [limiter.allow("ip-1", 0.0), limiter.allow("ip-1", 0.0), limiter.allow("ip-1", 0.0)]
    [True, True, False]
    >>> limiter.retry_after("ip-1", 0.0)
    2.0
    >>> limiter.allow("ip-1", 2.0)
    True
    """

    def __init__(self, capacity: float = 10.0, rate: float = 1.0) -> None:
        """Create a limiter with default limits for keys without an override.

        Args:
            capacity: default bucket size in tokens.
            rate: default refill rate in tokens per second.
        """
        self.default_limit = (capacity, rate)
        self.limits: dict[str, tuple[float, float]] = {}
        self.buckets: dict[str, tuple[float, float]] = {}
        self.denied: dict[str, int] = {}

    def set_limit(self, key: str, capacity: float, rate: float) -> None:
        """Give one key its own capacity and refill rate.

        An existing bucket keeps its tokens; they are capped to the new capacity
        the next time the bucket is refilled.

        Args:
            key: client key.
            capacity: bucket size, greater than zero.
            rate: refill rate per second, greater than zero.

        Raises:
            ValueError: if capacity or rate is not positive.

        >>> limiter = TokenBucketLimiter()
        >>> limiter.set_limit("vip", 100.0, 10.0)
        >>> limiter.limit_for("vip")
        (100.0, 10.0)
        """
        if capacity <= 0 or rate <= 0:
            raise ValueError("capacity and rate must be positive")
        self.limits[key] = (capacity, rate)

    def limit_for(self, key: str) -> tuple[float, float]:
        """Return the ``(capacity, rate)`` that applies to a key.

        Args:
            key: client key.

        Returns:
            The key's override, or the default limit.

        >>> TokenBucketLimiter(5.0, 0.25).limit_for("anyone")
        (5.0, 0.25)
        """
        return self.limits.get(key, self.default_limit)

    def _refill(self, key: str, now: float) -> float:
        """Bring a key's bucket up to time ``now``, store it and return its tokens."""
        capacity, rate = self.limit_for(key)
        tokens, stamp = self.buckets.get(key, (capacity, now))
        if now < stamp:
            raise ValueError(f"time went backwards for {key!r}: {now} < {stamp}")
        tokens = min(capacity, tokens + (now - stamp) * rate)
        self.buckets[key] = (tokens, now)
        return tokens

    def tokens(self, key: str, now: float) -> float:
        """Return the tokens a key has at time ``now`` (rounded to 6 decimals).

        Args:
            key: client key.
            now: current time in seconds.

        Returns:
            Available tokens; a key never seen before has a full bucket.

        Raises:
            ValueError: if ``now`` is earlier than the key's last update.

        >>> limiter = TokenBucketLimiter(4.0, 1.0)
        >>> limiter.allow("k", 10.0, 3.0)
        True
        >>> limiter.tokens("k", 11.5)
        2.5
        """
        return round(self._refill(key, now), 6)

    def allow(self, key: str, now: float, cost: float = 1.0) -> bool:
        """Try to spend ``cost`` tokens for one request.

        Args:
            key: client key.
            now: request time in seconds.
            cost: tokens the request needs, greater than zero.

        Returns:
            True and the tokens are consumed, or False and the denial is counted.

        Raises:
            ValueError: if ``cost`` is not positive or time went backwards.

        >>> limiter = TokenBucketLimiter(1.0, 1.0)
        >>> limiter.allow("k", 0.0), limiter.allow("k", 0.5), limiter.allow("k", 1.0)
        (True, False, True)
        """
        if cost <= 0:
            raise ValueError("cost must be positive")
        available = self._refill(key, now)
        if available + 1e-9 >= cost:
            self.buckets[key] = (max(0.0, available - cost), now)
            return True
        self.denied[key] = self.denied.get(key, 0) + 1
        return False

    def retry_after(self, key: str, now: float, cost: float = 1.0) -> float:
        """Seconds until a request of ``cost`` would be allowed (0.0 if it would be now).

        Args:
            key: client key.
            now: current time in seconds.
            cost: tokens the request needs.

        Returns:
            The wait in seconds, rounded to 6 decimals.

        Raises:
            ValueError: if ``cost`` exceeds the key's capacity (it can never be allowed)
                or time went backwards.

        >>> limiter = TokenBucketLimiter(3.0, 0.5)
        >>> limiter.allow("k", 0.0, 3.0)
        True
        >>> limiter.retry_after("k", 1.0, 2.0)
        3.0
        """
        capacity, rate = self.limit_for(key)
        if cost > capacity:
            raise ValueError(f"cost {cost} exceeds capacity {capacity}")
        missing = cost - self._refill(key, now)
        return round(max(0.0, missing / rate), 6)

    def denied_count(self, key: str) -> int:
        """Return how many requests of a key were denied so far.

        Args:
            key: client key.

        Returns:
            The number of denials (0 for unknown keys).

        >>> limiter = TokenBucketLimiter(1.0, 1.0)
        >>> limiter.allow("k", 0.0), limiter.allow("k", 0.0)
        (True, False)
        >>> limiter.denied_count("k")
        1
        """
        return self.denied.get(key, 0)

    def reset(self, key: str) -> bool:
        """Forget a key's bucket and denial count (its limit override stays).

        Args:
            key: client key.

        Returns:
            True if the key had a bucket or denials.

        >>> limiter = TokenBucketLimiter(1.0, 1.0)
        >>> limiter.allow("k", 0.0)
        True
        >>> limiter.reset("k"), limiter.tokens("k", 0.0)
        (True, 1.0)
        """
        known = key in self.buckets or key in self.denied
        self.buckets.pop(key, None)
        self.denied.pop(key, None)
        return known

    def snapshot(self, now: float) -> dict[str, float]:
        """Refill every known bucket to ``now`` and report the tokens per key.

        Args:
            now: current time in seconds.

        Returns:
            Key to available tokens (rounded to 6 decimals), keys sorted.

        Raises:
            ValueError: if ``now`` is earlier than some bucket's last update.

        >>> limiter = TokenBucketLimiter(2.0, 1.0)
        >>> limiter.allow("b", 0.0), limiter.allow("a", 0.0, 2.0)
        (True, True)
        >>> limiter.snapshot(0.5)
        {'a': 0.5, 'b': 1.5}
        """
        return {key: self.tokens(key, now) for key in sorted(self.buckets)}
