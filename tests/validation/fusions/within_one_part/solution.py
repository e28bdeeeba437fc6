class ThermostatAndMeter:
    """A thermostat and an energy meter, with a sync that sets the target to the room's temperature.

    The meter records draws given to it; the thermostat's heating is never metered.
    """

    def __init__(self, room, target):
        """Start with the room at `room` degrees, the target at `target` and the meter at zero."""
        self.room = room
        self.target = target
        self.watt_minutes = 0

    def warm(self, degrees):
        """Warm the room by `degrees` degrees, at most up to the target; returns the new temperature."""
        self.room = min(self.target, self.room + degrees)
        return self.room

    def set_target(self, degrees):
        """Set the target to `degrees`.

        :raises ValueError: if `degrees` is outside 5..30; the target is then left unchanged.
        """
        if not 5 <= degrees <= 30:
            raise ValueError(degrees)
        self.target = degrees

    def sync_target(self):
        """Set the target to the room's temperature; returns it."""
        self.target = self.room
        return self.target

    def meter(self, watt_minutes):
        """Record a draw of `watt_minutes` watt-minutes."""
        self.watt_minutes += watt_minutes

    def kwh(self):
        """Return the energy recorded in kilowatt-hours."""
        return self.watt_minutes / 60000
