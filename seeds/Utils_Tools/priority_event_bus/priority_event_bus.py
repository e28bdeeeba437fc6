"""A topic-based publish/subscribe bus with priorities and dead letters."""


class PriorityEventBus:
    """Route published messages to subscriber inboxes by topic pattern.

    Topics are dot-separated words such as ``"order.created"``. In a
    pattern, ``*`` matches exactly one word and a final ``#`` matches zero or
    more trailing words. A publish delivers the message once to every
    subscriber with a matching subscription, highest priority first, ties
    broken by subscription age. One-shot subscriptions end after their
    first delivery. Messages nobody receives go to the dead-letter queue.

    >>> bus = PriorityEventBus()
    >>> bus.subscribe("audit", "order.#")
    1
    >>> bus.subscribe("billing", "order.paid", priority=10)
    2
    >>> bus.publish("order.paid", "#1001")
    ['billing', 'audit']
    >>> bus.drain("billing")
    ['order.paid: #1001']
    """

    def __init__(self) -> None:
        """Create a bus without subscriptions, inboxes or dead letters.

        >>> PriorityEventBus().dead_letters()
        []
        """
        self._subscriptions: dict[int, tuple[str, str, int, bool]] = {}
        self._next_id = 1
        self._inboxes: dict[str, list[str]] = {}
        self._dead_letters: list[tuple[str, str]] = []

    @staticmethod
    def _matches(pattern: str, topic: str) -> bool:
        """Tell whether ``topic`` matches ``pattern``.

        Args:
            pattern: a subscription pattern, possibly with ``*`` and a final ``#``.
            topic: a concrete topic.

        Returns:
            True if the topic matches the pattern.

        >>> PriorityEventBus._matches("a.*.c", "a.b.c"), PriorityEventBus._matches("a.#", "a")
        (True, True)
        """
        words, topic_words = pattern.split("."), topic.split(".")
        if words[-1] == "#":
            words = words[:-1]
            topic_words = topic_words[:len(words)] if len(topic_words) >= len(words) else topic_words + [""]
        if len(words) != len(topic_words):
            return False
        return all(w == "*" or w == t for w, t in zip(words, topic_words))

    def subscribe(self, subscriber: str, pattern: str, priority: int = 0, once: bool = False) -> int:
        """Subscribe ``subscriber`` to topics matching ``pattern``.

        Args:
            subscriber: the name whose inbox receives the messages.
            pattern: the topic pattern.
            priority: higher values are delivered first.
            once: end the subscription after its first delivery.

        Returns:
            The new subscription id (1, 2, 3, ... in order of creation).

        Raises:
            ValueError: if the pattern has an empty word or ``#`` anywhere but
                at the end.

        >>> PriorityEventBus().subscribe("log", "*.error", once=True)
        1
        """
        words = pattern.split(".")
        if "" in words or "#" in words[:-1]:
            raise ValueError(f"invalid pattern {pattern!r}")
        subscription_id = self._next_id
        self._next_id += 1
        self._subscriptions[subscription_id] = (subscriber, pattern, priority, once)
        self._inboxes.setdefault(subscriber, [])
        return subscription_id

    def unsubscribe(self, subscription_id: int) -> bool:
        """End a subscription; the subscriber keeps its inbox.

        Args:
            subscription_id: an id returned by ``subscribe``.

        Returns:
            True if the subscription existed, False otherwise.

        >>> PriorityEventBus().unsubscribe(7)
        False
        """
        return self._subscriptions.pop(subscription_id, None) is not None

    def publish(self, topic: str, payload: str) -> list[str]:
        """Deliver ``"<topic>: <payload>"`` to every matching subscriber.

        Args:
            topic: a concrete dot-separated topic.
            payload: the message text.

        Returns:
            The subscribers that received the message, in delivery order;
            empty if it went to the dead-letter queue.

        Raises:
            ValueError: if the topic is empty or contains wildcards.

        >>> PriorityEventBus().publish("nobody.listens", "hello")
        []
        """
        if not topic or "*" in topic or "#" in topic or "" in topic.split("."):
            raise ValueError(f"invalid topic {topic!r}")
        ranked = []
        for sid, (_, pattern, priority, _) in self._subscriptions.items():
            if self._matches(pattern, topic):
                ranked.append((-priority, sid))
        ranked.sort()
        delivered: list[str] = []
        for _, sid in ranked:
            subscriber, _, _, once = self._subscriptions[sid]
            if once:
                self.unsubscribe(sid)
            if subscriber not in delivered:
                delivered.append(subscriber)
                self._inboxes[subscriber].append(f"{topic}: {payload}")
        if not delivered:
            self._dead_letters.append((topic, payload))
        return delivered

    def pending(self, subscriber: str) -> int:
        """Return how many messages wait in the subscriber's inbox (0 if unknown).

        Args:
            subscriber: the subscriber name.

        Returns:
            The number of undrained messages.

        >>> PriorityEventBus().pending("ghost")
        0
        """
        return len(self._inboxes.get(subscriber, []))

    def drain(self, subscriber: str) -> list[str]:
        """Return and clear the subscriber's inbox, oldest message first.

        Args:
            subscriber: the subscriber name.

        Returns:
            The messages as ``"<topic>: <payload>"`` strings.

        Raises:
            KeyError: if the subscriber never subscribed.

        >>> bus = PriorityEventBus(); _ = bus.subscribe("ui", "x")
        >>> bus.drain("ui")
        []
        """
        messages = list(self._inboxes[subscriber])
        self._inboxes[subscriber].clear()
        return messages

    def dead_letters(self) -> list[str]:
        """Return the undelivered messages as ``"<topic>: <payload>"``, oldest first.

        Returns:
            A list of ``"<topic>: <payload>"`` strings; empty when everything was delivered.

        >>> bus = PriorityEventBus(); _ = bus.publish("a.b", "x")
        >>> bus.dead_letters()
        ['a.b: x']
        """
        return [f"{topic}: {payload}" for topic, payload in self._dead_letters]

    def replay_dead_letters(self) -> int:
        """Publish every dead letter again, in order.

        Messages that still find no subscriber return to the queue.

        Returns:
            How many dead letters were delivered this time.

        >>> bus = PriorityEventBus(); _ = bus.publish("a.b", "x"); _ = bus.subscribe("late", "a.*")
        >>> bus.replay_dead_letters()
        1
        """
        queued = list(self._dead_letters)
        self._dead_letters.clear()
        delivered = 0
        for topic, payload in queued:
            if self.publish(topic, payload):
                delivered += 1
        return delivered
