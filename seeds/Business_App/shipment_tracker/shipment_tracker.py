"""Parcels followed from dispatch to delivery against the transit time their service promises."""


class ShipmentTracker:
    """Follow parcels from dispatch, through depot scans, to delivery.

    Each parcel is dispatched under a service level whose promised transit
    time (in hours) is fixed when the tracker is created. Scans record where
    a parcel was seen; delivery ends its journey and returns how long it was
    in transit. Time is an hour count passed in by the caller and may never
    go back for one parcel. Parcels in transit past their promise are
    overdue; delivered parcels count towards the on-time rate.

    >>> tracker = ShipmentTracker({"express": 24})
    >>> tracker.dispatch("P1", "express", 0)
    1
    >>> tracker.scan("P1", "Leeds", 6)
    1
    >>> tracker.deliver("P1", 20)
    20
    >>> tracker.history("P1")
    ['dispatched@0', 'scanned at Leeds@6', 'delivered@20']
    >>> tracker.on_time_rate()
    1.0
    """

    def __init__(self, promised_hours: dict[str, int] | None = None) -> None:
        """Create a tracker with no parcel.

        :param promised_hours: service level -> promised transit time in
            hours; by default ``{"express": 24, "standard": 72}``.

        >>> ShipmentTracker().in_transit()
        []
        """
        self.promised_hours = dict(promised_hours or {"express": 24, "standard": 72})
        self._transit: dict[str, tuple[str, int]] = {}
        self._events: dict[str, list[tuple[str, int]]] = {}
        self._delivered: dict[str, tuple[str, bool]] = {}

    def _last_time(self, tracking: str, now: int) -> int:
        """Check that a parcel is in transit and that ``now`` does not go back in its history.

        :param tracking: the parcel's tracking number.
        :param now: the hour of the new event.
        :return: the hour of the parcel's latest event.
        :raises KeyError: if the parcel is not in transit.
        :raises ValueError: if ``now`` is before the parcel's latest event.

        >>> tracker = ShipmentTracker(); _ = tracker.dispatch("P1", "standard", 3)
        >>> tracker._last_time("P1", 5)
        3
        """
        if tracking not in self._transit:
            raise KeyError(f"parcel not in transit: {tracking}")
        last = self._events[tracking][-1][1]
        if now < last:
            raise ValueError(f"time goes back for this parcel: {now}")
        return last

    def dispatch(self, tracking: str, service: str, now: int) -> int:
        """Hand a parcel to the carrier.

        :param tracking: a tracking number not used before.
        :param service: a service level the tracker knows.
        :param now: the hour of dispatch, at least 0.
        :return: the number of parcels now in transit.
        :raises ValueError: if the service is unknown, the tracking number was
            used before, or ``now`` is negative.

        >>> ShipmentTracker().dispatch("P1", "express", 0)
        1
        """
        if service not in self.promised_hours:
            raise ValueError(f"unknown service: {service}")
        if tracking in self._events:
            raise ValueError(f"tracking number already used: {tracking}")
        if now < 0:
            raise ValueError(f"time cannot be negative: {now}")
        self._transit[tracking] = (service, now)
        self._events[tracking] = [("dispatched", now)]
        return len(self._transit)

    def scan(self, tracking: str, location: str, now: int) -> int:
        """Record that a parcel in transit was seen at ``location``.

        :param tracking: a parcel in transit.
        :param location: where it was scanned.
        :param now: the hour of the scan, not before its latest event.
        :return: how many times the parcel has been scanned.
        :raises KeyError: if the parcel is not in transit.
        :raises ValueError: if ``now`` is before the parcel's latest event.

        >>> tracker = ShipmentTracker(); _ = tracker.dispatch("P1", "express", 0)
        >>> tracker.scan("P1", "York", 2)
        1
        """
        self._last_time(tracking, now)
        self._events[tracking].append((f"scanned at {location}", now))
        return len(self._events[tracking]) - 1

    def deliver(self, tracking: str, now: int) -> int:
        """Hand a parcel to its recipient, ending its journey.

        :param tracking: a parcel in transit.
        :param now: the hour of delivery, not before its latest event.
        :return: the parcel's transit time in hours, from dispatch to delivery.
        :raises KeyError: if the parcel is not in transit.
        :raises ValueError: if ``now`` is before the parcel's latest event.

        >>> tracker = ShipmentTracker(); _ = tracker.dispatch("P1", "express", 4)
        >>> tracker.deliver("P1", 30)
        26
        """
        self._last_time(tracking, now)
        service, dispatched = self._transit.pop(tracking)
        hours = now - dispatched
        self._events[tracking].append(("delivered", now))
        self._delivered[tracking] = (service, hours <= self.promised_hours[service])
        return hours

    def in_transit(self) -> list[str]:
        """Return the tracking numbers of the parcels in transit, sorted.

        >>> tracker = ShipmentTracker(); _ = tracker.dispatch("B", "express", 0); _ = tracker.dispatch("A", "express", 0)
        >>> tracker.in_transit()
        ['A', 'B']
        """
        return sorted(self._transit)

    def overdue(self, now: int) -> list[str]:
        """Return the parcels in transit longer than their service promises at hour ``now``, sorted.

        >>> tracker = ShipmentTracker({"express": 24}); _ = tracker.dispatch("P1", "express", 0)
        >>> tracker.overdue(24), tracker.overdue(25)
        ([], ['P1'])
        """
        return sorted(tracking for tracking, (service, dispatched) in self._transit.items()
                      if now - dispatched > self.promised_hours[service])

    def history(self, tracking: str) -> list[str]:
        """Return a parcel's events as ``"<event>@<hour>"``, oldest first.

        :raises KeyError: if the tracking number was never dispatched.

        >>> tracker = ShipmentTracker(); _ = tracker.dispatch("P1", "express", 1)
        >>> tracker.history("P1")
        ['dispatched@1']
        """
        if tracking not in self._events:
            raise KeyError(f"unknown parcel: {tracking}")
        return [f"{event}@{hour}" for event, hour in self._events[tracking]]

    def on_time_rate(self, service: str = "") -> float:
        """Return the share of delivered parcels that arrived within their promise.

        :param service: only parcels of this service level; all when empty.
        :return: a fraction between 0 and 1.
        :raises ValueError: if no parcel of that service has been delivered.

        >>> ShipmentTracker().on_time_rate()
        Traceback (most recent call last):
        ...
        ValueError: no delivered parcel to rate
        """
        outcomes = [on_time for kind, on_time in self._delivered.values() if not service or kind == service]
        if not outcomes:
            raise ValueError("no delivered parcel to rate")
        return sum(outcomes) / len(outcomes)
