"""Exponential backoff with deterministic jitter and a shared retry budget."""

import hashlib


class RetryPolicy:
    """Decide whether and when to retry failing operations.

    Attempt numbers are supplied by the caller (1 for the first try). The
    wait before retrying after attempt ``n`` is ``base_delay * multiplier **
    (n - 1)``, capped at ``max_delay`` and then spread by up to ``jitter``
    (a fraction) in either direction. The jitter is derived from a hash of
    the seed, the operation name and the attempt, so it is reproducible
    without any random state. A retry budget shared by all operations stops
    retry storms: each retry spends one token and each success refunds half
    a token, up to the initial budget.

    >>> policy = RetryPolicy(base_delay=1.0, max_attempts=4)
    >>> policy.schedule()
    [1.0, 2.0, 4.0]
    >>> policy.record_failure("fetch", 1, "timeout")
    1.0
    >>> policy.record_success("fetch", 2)
    2
    >>> policy.attempts("fetch")
    ['1:timeout', '2:ok']
    """

    def __init__(self, base_delay: float = 0.5, multiplier: float = 2.0, max_delay: float = 30.0,
                 max_attempts: int = 5, jitter: float = 0.0, budget: float = 10.0, seed: int = 0) -> None:
        """Configure the policy.

        Args:
            base_delay: wait in seconds after the first failed attempt.
            multiplier: growth factor between consecutive waits.
            max_delay: cap applied before jitter.
            max_attempts: total attempts allowed per operation run.
            jitter: fraction (0 to 1) by which a wait may be spread.
            budget: initial and maximum number of retry tokens.
            seed: mixed into the jitter hash.

        >>> RetryPolicy(max_attempts=3).tokens()
        10.0
        """
        self.base_delay = base_delay
        self.multiplier = multiplier
        self.max_delay = max_delay
        self.max_attempts = max_attempts
        self.jitter = jitter
        self.budget = budget
        self.seed = seed
        self._tokens = budget
        self._retryable: set[str] = {"timeout", "unavailable"}
        self._history: dict[str, list[tuple[int, str, float]]] = {}

    def _jitter_factor(self, operation: str, attempt: int) -> float:
        """Return a reproducible factor in ``[1 - jitter, 1 + jitter]``.

        Args:
            operation: the operation name.
            attempt: the attempt number.

        Returns:
            A float between ``1 - jitter`` and ``1 + jitter``.

        >>> RetryPolicy(jitter=0.0)._jitter_factor("op", 1)
        1.0
        """
        digest = hashlib.sha256(f"{self.seed}:{operation}:{attempt}".encode()).digest()
        unit = int.from_bytes(digest[:8], "big") / 2 ** 64
        return 1.0 + self.jitter * (2 * unit - 1)

    def delay(self, attempt: int, operation: str = "") -> float:
        """Return the wait in seconds before retrying after ``attempt`` failed.

        Args:
            attempt: the attempt that failed (1 for the first try).
            operation: name mixed into the jitter.

        Returns:
            The wait in seconds, rounded to milliseconds.

        Raises:
            ValueError: if ``attempt`` is smaller than 1.

        >>> RetryPolicy(base_delay=0.5, max_delay=3.0).delay(5)
        3.0
        """
        if attempt < 1:
            raise ValueError("attempt numbers start at 1")
        raw = min(self.base_delay * self.multiplier ** (attempt - 1), self.max_delay)
        return round(raw * self._jitter_factor(operation, attempt), 3)

    def schedule(self, operation: str = "") -> list[float]:
        """Return the waits before every retry a run of ``operation`` may make.

        Args:
            operation: name mixed into the jitter.

        Returns:
            ``max_attempts - 1`` waits in seconds, one per possible retry.

        >>> RetryPolicy(base_delay=0.1, multiplier=3, max_attempts=3).schedule()
        [0.1, 0.3]
        """
        waits = []
        for attempt in range(1, self.max_attempts):
            waits.append(self.delay(attempt, operation))
        return waits

    def mark_retryable(self, error_kind: str, retryable: bool = True) -> list[str]:
        """Declare whether failures of kind ``error_kind`` may be retried.

        Args:
            error_kind: a short error name such as ``"timeout"``.
            retryable: True to allow retries for it, False to forbid them.

        Returns:
            The retryable error kinds, sorted.

        >>> RetryPolicy().mark_retryable("throttled")
        ['throttled', 'timeout', 'unavailable']
        """
        if retryable:
            self._retryable.add(error_kind)
        else:
            self._retryable.discard(error_kind)
        return sorted(self._retryable)

    def should_retry(self, attempt: int, error_kind: str) -> bool:
        """Tell whether a failure of ``attempt`` with ``error_kind`` deserves a retry.

        It does when the error kind is retryable, attempts remain and the
        budget holds at least one token.

        Args:
            attempt: the attempt that failed.
            error_kind: the kind of error it failed with.

        Returns:
            True if a retry is allowed.

        >>> RetryPolicy(max_attempts=2).should_retry(2, "timeout")
        False
        """
        return error_kind in self._retryable and attempt < self.max_attempts and self._tokens >= 1

    def _record(self, operation: str, attempt: int, outcome: str, wait: float) -> None:
        """Append an attempt to the operation's history, checking the numbering.

        Attempt 1 starts a new run and discards the previous one.

        Args:
            operation: the operation name.
            attempt: the attempt number.
            outcome: the error kind, or ``"ok"``.
            wait: the wait prescribed after this attempt.

        Raises:
            ValueError: if the attempt number does not follow the last one or
                the run already succeeded.

        >>> policy = RetryPolicy()
        >>> policy._record("job", 1, "timeout", 0.5)
        >>> policy.attempts("job")
        ['1:timeout']
        """
        if attempt == 1:
            self._history[operation] = []
        runs = self._history.get(operation, [])
        if attempt != len(runs) + 1 or (runs and runs[-1][1] == "ok"):
            raise ValueError(f"attempt {attempt} of {operation!r} is out of sequence")
        self._history[operation].append((attempt, outcome, wait))

    def record_failure(self, operation: str, attempt: int, error_kind: str) -> float:
        """Record a failed attempt and return how long to wait before the next one.

        Args:
            operation: the operation name.
            attempt: the attempt number that failed.
            error_kind: the kind of error.

        Returns:
            The wait in seconds, or -1.0 when the operation should give up.

        Raises:
            ValueError: if the attempt number is out of sequence.

        >>> RetryPolicy().record_failure("db", 1, "syntax_error")
        -1.0
        """
        wait = -1.0
        if self.should_retry(attempt, error_kind):
            wait = self.delay(attempt, operation)
        self._record(operation, attempt, error_kind, max(wait, 0.0))
        if wait >= 0:
            self._tokens -= 1
        return wait

    def record_success(self, operation: str, attempt: int) -> int:
        """Record that ``attempt`` succeeded and refund half a retry token.

        Args:
            operation: the operation name.
            attempt: the attempt number that succeeded.

        Returns:
            The number of attempts the run took.

        Raises:
            ValueError: if the attempt number is out of sequence.

        >>> RetryPolicy().record_success("db", 1)
        1
        """
        self._record(operation, attempt, "ok", 0.0)
        self._tokens = min(self.budget, self._tokens + 0.5)
        return attempt

    def tokens(self) -> float:
        """Return the retry tokens left in the shared budget.

        Returns:
            The current number of tokens as a float.

        >>> policy = RetryPolicy(budget=2)
        >>> _ = policy.record_failure("a", 1, "timeout")
        >>> policy.tokens()
        1.0
        """
        return float(self._tokens)

    def attempts(self, operation: str) -> list[str]:
        """Return the current run of ``operation`` as ``"<attempt>:<outcome>"`` strings.

        Args:
            operation: the operation name.

        Returns:
            One string per recorded attempt; empty for an unknown operation.

        >>> RetryPolicy().attempts("never")
        []
        """
        return [f"{attempt}:{outcome}" for attempt, outcome, _ in self._history.get(operation, [])]

    def total_wait(self, operation: str) -> float:
        """Return the total wait prescribed so far in the current run of ``operation``.

        Args:
            operation: the operation name.

        Returns:
            The sum in seconds, rounded to milliseconds; 0.0 for an unknown operation.

        >>> policy = RetryPolicy(base_delay=1.0)
        >>> _ = policy.record_failure("a", 1, "timeout"); _ = policy.record_failure("a", 2, "timeout")
        >>> policy.total_wait("a")
        3.0
        """
        return round(sum(wait for _, _, wait in self._history.get(operation, [])), 3)
