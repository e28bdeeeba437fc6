"""Ends declared so that classes a real program would join are joined: an order book whose orders reach a
surveillance log and an order feed; a price tracker's alerts, a scheduler's jobs, a key-value store's writes
and commits, a board game's moves and a skirmish's downed fighters published. Each event names its subject, each actor is a real one (a trader from the call or
the order's own), and only calls that changed something report. Built from the bundled seeds."""

from __future__ import annotations

import random

import pytest
from synthesis_samples import hybrid_instance

from core.records import SeedClass
from pipeline.synthesis.compose import Fusion, fuse


def _fused(seeds: dict[str, SeedClass], producer: str, consumer: str) -> Fusion:
    fusion = fuse(seeds[producer], seeds[consumer], random.Random(0), max_links=3)
    assert fusion.links and all(link.woven for link in fusion.links)
    return fusion


def test_every_order_entered_or_cancelled_is_on_record_under_its_trader(seeds):
    fusion = _fused(seeds, "order_book", "audit_chain")
    assert sorted(link.producer for link in fusion.links) == ["cancel", "submit_limit", "submit_market"]
    book = hybrid_instance(fusion)
    book.set_clock(7)
    book.submit_limit("sell", 101, 5, "ann")
    book.submit_market("buy", 2, "bob")
    book.cancel(1)
    entries = [tuple(line.split("|")[1:4]) for line in book.export_lines()]
    assert entries == [("7", "ann", "order 1 entered by ann: sell 5 at 101"),
                       ("7", "bob", "market buy order by bob for 2 filled 2"),
                       ("7", "ann", "order 1 cancelled with 3 open")]  # the order's own trader, not the caller
    with pytest.raises(KeyError):
        book.cancel(1)  # no longer resting: nothing cancelled, nothing recorded
    assert len(book.export_lines()) == 3


def test_the_order_feed_hears_each_order_as_it_is_entered(seeds):
    book = hybrid_instance(_fused(seeds, "order_book", "priority_event_bus"))
    book.subscribe("desk", "orders.#")
    book.submit_limit("buy", 99, 4, "dee")
    book.cancel(1)
    assert book.drain("desk") == ["orders.entered: order 1 entered by dee: buy 4 at 99",
                                  "orders.cancelled: order 1 cancelled with 4 open"]


def test_only_a_price_that_raises_an_alert_is_published(seeds):
    tracker = hybrid_instance(_fused(seeds, "price_tracker", "priority_event_bus"), alert_pct=5.0)
    tracker.subscribe("trader", "prices.alerts")
    assert tracker.record(100.0) is False
    assert tracker.record_many([101.0, 90.0]) == 1  # a batch reports through `record` too
    assert tracker.drain("trader") == [
        "prices.alerts: price 90.0 strayed beyond the alert threshold from the moving average"]


def test_a_scheduler_publishes_jobs_queued_finished_and_really_cancelled(seeds):
    fusion = _fused(seeds, "priority_scheduler", "priority_event_bus")
    assert sorted(link.producer for link in fusion.links) == ["cancel", "change_priority", "run_next", "submit"]
    scheduler = hybrid_instance(fusion)
    scheduler.subscribe("owner", "jobs.*")
    scheduler.submit("backup", 1, 30)
    scheduler.submit("report", 3, 10)
    scheduler.change_priority("report", 5)  # the job board shows the priority it now has
    assert scheduler.cancel("backup") is True and scheduler.cancel("backup") is False
    assert scheduler.run_until(5) == ["report"]
    assert scheduler.drain("owner") == ["jobs.queued: job backup queued with priority 1",
                                        "jobs.queued: job report queued with priority 3",
                                        "jobs.reprioritised: job report now has priority 5",
                                        "jobs.cancelled: job backup cancelled", "jobs.finished: job report finished"]


def test_watchers_hear_of_writes_that_stay_and_of_nothing_else(seeds):
    store = hybrid_instance(_fused(seeds, "revisioned_kv_store", "priority_event_bus"))
    store.subscribe("cache", "kv.*")
    store.put("color", "red")
    assert store.increment("hits") == 1  # through `put`
    store.begin()
    store.put("color", "blue")  # may still be rolled back
    store.rollback()
    assert store.delete("color") is True and store.delete("color") is False
    store.begin()
    store.begin()
    store.put("size", "L")
    assert store.commit() == 1  # the outer transaction may still roll it back: nothing is final yet
    assert store.commit() == 0
    assert store.drain("cache") == ["kv.written: key color written at revision 1",
                                    "kv.written: key hits written at revision 2", "kv.deleted: key color deleted",
                                    "kv.committed: transaction committed"]
    assert store.changes_since(3) == ["size"]  # what a watcher reads once it hears of the commit


def test_only_the_blow_that_downs_a_fighter_is_published(seeds):
    fight = hybrid_instance(_fused(seeds, "combat_tracker", "priority_event_bus"), seed=3)
    fight.subscribe("announcer", "combat.downed")
    fight.add_fighter("ash", "red", 30, 9, 0, 9)
    fight.add_fighter("bex", "blue", 12, 1, 0, 0)
    fight.roll_initiative()
    blows = []
    while not fight.winner():
        target = "bex" if fight.current() == "ash" else "ash"
        blows.append((target, fight.attack(target)))
    last_target, last_blow = blows[-1]
    assert fight.hit_points(last_target) == 0 and last_blow > 0
    assert fight.drain("announcer") == [f"combat.downed: {last_target} downed by a blow of {last_blow}"]


def test_an_opponent_sees_every_move_pass_and_take_back(seeds):
    fusion = _fused(seeds, "reversi_board", "priority_event_bus")
    assert sorted(link.producer for link in fusion.links) == ["pass_turn", "play", "undo"]
    board = hybrid_instance(fusion, size=4)
    board.subscribe("opponent", "reversi.moves")
    assert board.play(0, 1) == 1
    with pytest.raises(ValueError):
        board.play(0, 1)  # taken already: nothing happened, nothing is told
    assert board.undo() == "B"
    assert board.drain("opponent") == ["reversi.moves: disc placed at row 0, column 1, flipping 1",
                                       "reversi.moves: last move taken back; B to move"]
