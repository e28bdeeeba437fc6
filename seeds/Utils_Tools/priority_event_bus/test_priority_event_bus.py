import pytest

from priority_event_bus import PriorityEventBus


@pytest.fixture
def bus():
    event_bus = PriorityEventBus()
    event_bus.subscribe("audit", "order.#", priority=-5)
    event_bus.subscribe("billing", "order.paid", priority=10)
    event_bus.subscribe("mailer", "order.*", priority=0)
    return event_bus


@pytest.mark.parametrize("pattern,topic,expected", [
    ("order.created", "order.created", True),
    ("order.created", "order.paid", False),
    ("order.*", "order.paid", True),
    ("order.*", "order", False),
    ("order.*", "order.paid.late", False),
    ("*.error", "db.error", True),
    ("order.#", "order", True),
    ("order.#", "order.paid.late", True),
    ("order.#", "orders.paid", False),
    ("a.b.#", "a", False),
    ("#", "anything.at.all", True),
])
def test_matches(pattern, topic, expected):
    assert PriorityEventBus._matches(pattern, topic) is expected


def test_subscribe_returns_increasing_ids(bus):
    assert bus.subscribe("ui", "cart.updated") == 4
    assert bus.subscribe("ui", "cart.cleared") == 5


@pytest.mark.parametrize("bad", ["order..paid", "#.order", "", "a.#.b"])
def test_subscribe_rejects_invalid_pattern(bad):
    with pytest.raises(ValueError):
        PriorityEventBus().subscribe("ui", bad)


def test_publish_orders_by_priority(bus):
    assert bus.publish("order.paid", "#7") == ["billing", "mailer", "audit"]


def test_publish_ties_broken_by_subscription_age():
    bus = PriorityEventBus()
    bus.subscribe("second", "job.done", priority=1)
    bus.subscribe("first", "job.done", priority=1)
    bus.subscribe("urgent", "job.done", priority=2)
    assert bus.publish("job.done", "ok") == ["urgent", "second", "first"]


def test_publish_delivers_once_per_subscriber(bus):
    bus.subscribe("audit", "order.paid", priority=50)
    assert bus.publish("order.paid", "#8") == ["audit", "billing", "mailer"]
    assert bus.pending("audit") == 1


def test_publish_partial_match(bus):
    assert bus.publish("order", "bulk import") == ["audit"]


def test_publish_without_match_goes_to_dead_letters(bus):
    assert bus.publish("user.created", "ada") == []
    assert bus.dead_letters() == ["user.created: ada"]


@pytest.mark.parametrize("bad", ["", "order.*", "order.#", "order..paid"])
def test_publish_rejects_invalid_topic(bus, bad):
    with pytest.raises(ValueError):
        bus.publish(bad, "x")


def test_once_subscription_fires_only_once():
    bus = PriorityEventBus()
    bus.subscribe("setup", "app.ready", once=True)
    assert bus.publish("app.ready", "1") == ["setup"]
    assert bus.publish("app.ready", "2") == []
    assert bus.drain("setup") == ["app.ready: 1"]


def test_unsubscribe(bus):
    assert bus.unsubscribe(2) is True
    assert bus.unsubscribe(2) is False
    assert bus.publish("order.paid", "#9") == ["mailer", "audit"]


def test_unsubscribe_keeps_inbox(bus):
    bus.publish("order.paid", "#10")
    bus.unsubscribe(2)
    assert bus.drain("billing") == ["order.paid: #10"]


def test_pending_counts_messages(bus):
    bus.publish("order.created", "#1")
    bus.publish("order.paid", "#1")
    assert bus.pending("mailer") == 2
    assert bus.pending("billing") == 1
    assert bus.pending("stranger") == 0


def test_drain_returns_in_order_and_clears(bus):
    bus.publish("order.created", "#1")
    bus.publish("order.shipped", "#1")
    assert bus.drain("mailer") == ["order.created: #1", "order.shipped: #1"]
    assert bus.drain("mailer") == []
    assert bus.pending("mailer") == 0


def test_drain_unknown_subscriber_raises(bus):
    with pytest.raises(KeyError):
        bus.drain("stranger")


def test_dead_letters_empty_initially_after_delivery(bus):
    bus.publish("order.paid", "#1")
    assert bus.dead_letters() == []


def test_replay_dead_letters_delivers_to_late_subscriber(bus):
    bus.publish("user.created", "ada")
    bus.publish("user.deleted", "bob")
    bus.publish("invoice.sent", "42")
    bus.subscribe("crm", "user.*")
    assert bus.replay_dead_letters() == 2
    assert bus.drain("crm") == ["user.created: ada", "user.deleted: bob"]
    assert bus.dead_letters() == ["invoice.sent: 42"]


def test_replay_with_nothing_queued(bus):
    assert bus.replay_dead_letters() == 0


def test_scenario_once_subscription_consumed_by_replay():
    bus = PriorityEventBus()
    bus.publish("cache.flush", "all")
    bus.publish("cache.flush", "users")
    sid = bus.subscribe("janitor", "cache.flush", once=True)
    assert sid == 1
    assert bus.replay_dead_letters() == 1
    assert bus.dead_letters() == ["cache.flush: users"]
    assert bus.unsubscribe(sid) is False
    assert bus.pending("janitor") == 1
    assert bus.drain("janitor") == ["cache.flush: all"]


def test_scenario_unsubscribe_then_publish_then_resubscribe(bus):
    bus.unsubscribe(1)
    bus.unsubscribe(3)
    assert bus.publish("order.created", "#5") == []
    assert bus.subscribe("mailer", "order.created", priority=3) == 4
    assert bus.replay_dead_letters() == 1
    assert bus.drain("mailer") == ["order.created: #5"]
    assert bus.publish("order.paid", "#6") == ["billing"]
    assert bus.pending("audit") == 0


def test_scenario_drain_between_publishes(bus):
    bus.publish("order.paid", "#1")
    assert bus.drain("billing") == ["order.paid: #1"]
    bus.subscribe("billing", "refund.*", priority=1)
    bus.publish("refund.issued", "#1")
    bus.publish("order.paid", "#2")
    assert bus.pending("billing") == 2
    assert bus.drain("billing") == ["refund.issued: #1", "order.paid: #2"]
