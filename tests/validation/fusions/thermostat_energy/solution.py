class MeteredThermostat:
    """A thermostat driving a heater, with an energy meter on the heater's supply.

    Time passes in ticks of whole minutes. While the room is below the target temperature the heater runs
    and warms the room by one degree per ten minutes run; the meter then records the heater's power for
    the minutes it ran. Between ticks the room cools by the `drop` given.
    """

    def __init__(self, room, target, heater_watts):
        """Start with the room at `room` degrees, the target at `target` degrees and a heater drawing
        `heater_watts` watts; the meter reads zero."""
        self.room = room
        self.target = target
        self.heater_watts = heater_watts
        self.watt_minutes = 0
        self.readings = 0

    def set_target(self, degrees):
        """Set the target temperature to `degrees`.

        :raises ValueError: if `degrees` is outside 5..30; the target is then left unchanged.
        """
        if not 5 <= degrees <= 30:
            raise ValueError(degrees)
        self.target = degrees

    def tick(self, minutes, drop=0):
        """Let `minutes` minutes pass: the room first cools by `drop` degrees, then the heater runs (and is
        metered) for as long as the room is below the target, at most `minutes`. Returns the minutes it
        ran.
        """
        self.room -= drop
        ran = min(minutes, max(0, (self.target - self.room) * 10))
        if ran:
            self.room += ran / 10
            self.meter(ran * self.heater_watts)
        return ran

    def temperature(self):
        """Return the room's temperature in degrees."""
        return self.room

    def meter(self, watt_minutes):
        """Record a draw of `watt_minutes` watt-minutes on the supply.

        :raises ValueError: if `watt_minutes` is negative; the meter is then left unchanged.
        """
        if watt_minutes < 0:
            raise ValueError(watt_minutes)
        self.watt_minutes += watt_minutes
        self.readings += 1

    def kwh(self):
        """Return the energy recorded, in kilowatt-hours."""
        return self.watt_minutes / 60000

    def draws(self):
        """Return how many draws the meter recorded."""
        return self.readings
