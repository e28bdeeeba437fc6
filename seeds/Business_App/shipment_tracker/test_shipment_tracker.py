import pytest

from shipment_tracker import ShipmentTracker


@pytest.fixture
def tracker():
    return ShipmentTracker({"express": 24, "standard": 72})


def test_default_services():
    tracker = ShipmentTracker()
    assert tracker.dispatch("P1", "standard", 0) == 1
    assert tracker.overdue(72) == []
    assert tracker.overdue(73) == ["P1"]


def test_dispatch_counts_parcels_in_transit(tracker):
    assert tracker.dispatch("P1", "express", 0) == 1
    assert tracker.dispatch("P2", "standard", 3) == 2
    assert tracker.in_transit() == ["P1", "P2"]


def test_dispatch_rejects_unknown_service(tracker):
    with pytest.raises(ValueError):
        tracker.dispatch("P1", "overnight", 0)


def test_dispatch_rejects_reused_tracking_number(tracker):
    tracker.dispatch("P1", "express", 0)
    tracker.deliver("P1", 5)
    with pytest.raises(ValueError):
        tracker.dispatch("P1", "express", 10)


def test_dispatch_rejects_negative_time(tracker):
    with pytest.raises(ValueError):
        tracker.dispatch("P1", "express", -1)


def test_scan_counts_scans_and_extends_history(tracker):
    tracker.dispatch("P1", "express", 0)
    assert tracker.scan("P1", "Leeds", 3) == 1
    assert tracker.scan("P1", "York", 3) == 2
    assert tracker.history("P1") == ["dispatched@0", "scanned at Leeds@3", "scanned at York@3"]


def test_scan_of_unknown_parcel(tracker):
    with pytest.raises(KeyError):
        tracker.scan("P9", "Leeds", 1)


def test_scan_cannot_go_back_in_time(tracker):
    tracker.dispatch("P1", "express", 5)
    with pytest.raises(ValueError):
        tracker.scan("P1", "Leeds", 4)


def test_scan_after_delivery_fails(tracker):
    tracker.dispatch("P1", "express", 0)
    tracker.deliver("P1", 10)
    with pytest.raises(KeyError):
        tracker.scan("P1", "Leeds", 11)


def test_deliver_returns_transit_hours(tracker):
    tracker.dispatch("P1", "standard", 10)
    tracker.scan("P1", "Hub", 20)
    assert tracker.deliver("P1", 58) == 48
    assert tracker.in_transit() == []
    assert tracker.history("P1")[-1] == "delivered@58"


def test_deliver_same_hour_as_dispatch(tracker):
    tracker.dispatch("P1", "express", 7)
    assert tracker.deliver("P1", 7) == 0
    assert tracker.on_time_rate() == 1.0


def test_deliver_before_latest_scan_fails(tracker):
    tracker.dispatch("P1", "express", 0)
    tracker.scan("P1", "Hub", 10)
    with pytest.raises(ValueError):
        tracker.deliver("P1", 9)


def test_deliver_twice_fails(tracker):
    tracker.dispatch("P1", "express", 0)
    tracker.deliver("P1", 1)
    with pytest.raises(KeyError):
        tracker.deliver("P1", 2)


def test_last_time_reports_latest_event(tracker):
    tracker.dispatch("P1", "express", 2)
    tracker.scan("P1", "Hub", 9)
    assert tracker._last_time("P1", 9) == 9
    with pytest.raises(ValueError):
        tracker._last_time("P1", 8)
    with pytest.raises(KeyError):
        tracker._last_time("P2", 9)


def test_overdue_is_strictly_past_the_promise(tracker):
    tracker.dispatch("E", "express", 0)
    tracker.dispatch("S", "standard", 0)
    assert tracker.overdue(24) == []
    assert tracker.overdue(25) == ["E"]
    assert tracker.overdue(73) == ["E", "S"]


def test_delivered_parcel_is_not_overdue(tracker):
    tracker.dispatch("E", "express", 0)
    tracker.deliver("E", 30)
    assert tracker.overdue(100) == []


def test_history_of_unknown_parcel(tracker):
    with pytest.raises(KeyError):
        tracker.history("P1")


def test_on_time_rate_counts_the_promise_boundary(tracker):
    for tracking, hours in (("A", 24), ("B", 25), ("C", 3), ("D", 40)):
        tracker.dispatch(tracking, "express", 0)
        tracker.deliver(tracking, hours)
    assert tracker.on_time_rate() == 0.5


def test_on_time_rate_by_service(tracker):
    tracker.dispatch("E", "express", 0)
    tracker.dispatch("S", "standard", 0)
    tracker.deliver("E", 30)
    tracker.deliver("S", 30)
    assert tracker.on_time_rate("express") == 0.0
    assert tracker.on_time_rate("standard") == 1.0
    assert tracker.on_time_rate() == 0.5


def test_on_time_rate_without_deliveries(tracker):
    tracker.dispatch("E", "express", 0)
    with pytest.raises(ValueError):
        tracker.on_time_rate()
    tracker.deliver("E", 1)
    with pytest.raises(ValueError):
        tracker.on_time_rate("standard")


def test_round_of_parcels_scenario(tracker):
    assert tracker.dispatch("P1", "express", 0) == 1
    assert tracker.dispatch("P2", "express", 2) == 2
    assert tracker.scan("P1", "Hub", 8) == 1
    assert tracker.overdue(30) == ["P1", "P2"]
    assert tracker.deliver("P2", 20) == 18
    assert tracker.overdue(30) == ["P1"]
    assert tracker.deliver("P1", 31) == 31
    assert tracker.on_time_rate() == 0.5
    assert tracker.dispatch("P3", "standard", 40) == 1
    assert tracker.in_transit() == ["P3"]
    assert tracker.history("P1") == ["dispatched@0", "scanned at Hub@8", "delivered@31"]
