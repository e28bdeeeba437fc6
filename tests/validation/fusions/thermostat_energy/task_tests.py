import pytest

from thermostat_energy import MeteredThermostat


@pytest.fixture
def home():
    return MeteredThermostat(room=18, target=20, heater_watts=3000)


def test_the_heater_runs_until_the_target_and_is_metered(home):
    assert home.tick(60) == 20
    assert home.temperature() == pytest.approx(20)
    assert home.kwh() == pytest.approx(1.0)
    assert home.draws() == 1


def test_a_warm_room_draws_nothing(home):
    home.tick(60)
    assert home.tick(30) == 0
    assert home.draws() == 1
    assert home.tick(30, drop=1) == 10
    assert home.draws() == 2
    assert home.kwh() == pytest.approx(1.5)


def test_a_higher_target_costs_more(home):
    home.set_target(22)
    assert home.tick(15) == 15
    assert home.temperature() == pytest.approx(19.5)
    assert home.tick(100) == 25
    assert home.kwh() == pytest.approx(2.0)


def test_outside_draws_and_refusals(home):
    home.meter(6000)
    assert home.kwh() == pytest.approx(0.1)
    with pytest.raises(ValueError):
        home.meter(-1)
    with pytest.raises(ValueError):
        home.set_target(40)
    assert home.tick(5) == 5
    assert home.draws() == 2
