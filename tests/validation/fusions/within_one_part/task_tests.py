import pytest

from within_one_part import ThermostatAndMeter


def test_sync_and_metering_side_by_side():
    home = ThermostatAndMeter(room=18, target=21)
    assert home.warm(1) == 19
    assert home.sync_target() == 19
    assert home.warm(5) == 19
    home.meter(6000)
    home.set_target(22)
    assert home.warm(2) == 21
    home.meter(6000)
    assert home.kwh() == pytest.approx(0.2)


def test_refusal():
    home = ThermostatAndMeter(room=18, target=21)
    with pytest.raises(ValueError):
        home.set_target(35)
    assert home.warm(10) == 21
