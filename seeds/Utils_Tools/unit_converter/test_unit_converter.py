import pytest

from unit_converter import UnitConverter


@pytest.fixture
def units():
    converter = UnitConverter()
    converter.define_unit("m", "length", 1.0)
    converter.derive_unit("km", 1000, "m")
    converter.derive_unit("cm", 0.01, "m")
    converter.derive_unit("inch", 2.54, "cm")
    converter.define_unit("K", "temperature", 1.0)
    converter.define_unit("C", "temperature", 1.0, 273.15)
    converter.define_unit("F", "temperature", 5 / 9, 273.15 - 32 * 5 / 9)
    return converter


def test_define_unit_counts_per_dimension():
    converter = UnitConverter()
    assert converter.define_unit("s", "time", 1.0) == 1
    assert converter.define_unit("ms", "time", 0.001) == 2
    assert converter.define_unit("B", "data", 1.0) == 1


def test_define_unit_duplicate_raises(units):
    with pytest.raises(ValueError):
        units.define_unit("m", "length", 1.0)


def test_define_unit_rejects_non_positive_factor():
    with pytest.raises(ValueError):
        UnitConverter().define_unit("void", "length", 0.0)


def test_define_unit_rejects_whitespace_name():
    with pytest.raises(ValueError):
        UnitConverter().define_unit("light year", "length", 9.46e15)


def test_lookup_unit_and_alias(units):
    units.add_alias("metre", "m")
    assert units._lookup("metre") == ("length", 1.0, 0.0)
    assert units._lookup("C") == ("temperature", 1.0, 273.15)


def test_lookup_unknown_raises(units):
    with pytest.raises(KeyError):
        units._lookup("furlong")


def test_derive_unit_chains_factors(units):
    assert units.derive_unit("ft", 12, "inch") == pytest.approx(0.3048)
    assert units.convert(1, "ft", "cm") == 30.48


def test_derive_unit_from_offset_unit_raises(units):
    with pytest.raises(ValueError):
        units.derive_unit("deciC", 0.1, "C")


def test_derive_unit_unknown_base_raises(units):
    with pytest.raises(KeyError):
        units.derive_unit("mile", 1760, "yard")


def test_derive_unit_taken_name_raises(units):
    with pytest.raises(ValueError):
        units.derive_unit("km", 1000, "m")


def test_add_alias_returns_all_aliases(units):
    assert units.add_alias("meter", "m") == ["meter"]
    assert units.add_alias("metre", "meter") == ["meter", "metre"]


def test_add_alias_unknown_unit_raises(units):
    with pytest.raises(KeyError):
        units.add_alias("mi", "mile")


def test_add_alias_taken_name_raises(units):
    with pytest.raises(ValueError):
        units.add_alias("km", "m")


def test_alias_name_cannot_become_unit(units):
    units.add_alias("klick", "km")
    with pytest.raises(ValueError):
        units.define_unit("klick", "length", 1000.0)


def test_units_sorted_without_aliases(units):
    units.add_alias("metre", "m")
    assert units.units("length") == ["cm", "inch", "km", "m"]
    assert units.units("mass") == []


def test_convert_length(units):
    assert units.convert(3, "km", "m") == 3000.0
    assert units.convert(1, "inch", "cm") == 2.54


def test_convert_temperature_with_offsets(units):
    assert units.convert(100, "C", "F") == 212.0
    assert units.convert(-40, "F", "C") == -40.0
    assert units.convert(0, "K", "C") == -273.15


def test_convert_zero_is_positive_zero(units):
    assert str(units.convert(32, "F", "C")) == "0.0"


def test_convert_between_dimensions_raises(units):
    with pytest.raises(ValueError) as raised:
        units.convert(1, "m", "K")
    assert "length" in str(raised.value) and "temperature" in str(raised.value)


def test_convert_unknown_unit_raises(units):
    with pytest.raises(KeyError):
        units.convert(1, "m", "parsec")


def test_parse_quantity_variants(units):
    assert units.parse_quantity("3.5 km") == (3.5, "km")
    assert units.parse_quantity("-40C") == (-40.0, "C")
    assert units.parse_quantity("1.5e3m") == (1500.0, "m")


def test_parse_quantity_missing_unit(units):
    with pytest.raises(ValueError):
        units.parse_quantity("42")


def test_parse_quantity_missing_number(units):
    with pytest.raises(ValueError):
        units.parse_quantity("km")


def test_parse_quantity_unknown_unit(units):
    with pytest.raises(KeyError):
        units.parse_quantity("5 parsec")


def test_convert_text(units):
    assert units.convert_text("1500 m", "km") == "1.5 km"
    assert units.convert_text("98.6 F", "C") == "37 C"


def test_convert_text_via_alias(units):
    units.add_alias("celsius", "C")
    assert units.convert_text("20 celsius", "K") == "293.15 K"


def test_humanize_picks_largest_unit_at_least_one(units):
    assert units.humanize(1500, "m") == (1.5, "km")
    assert units.humanize(0.02, "m") == (2.0, "cm")
    assert units.humanize(0.5, "m") == (19.68503937, "inch")


def test_humanize_falls_back_to_smallest_unit(units):
    assert units.humanize(0.001, "cm") == (0.001, "cm")


def test_humanize_ignores_offset_units(units):
    assert units.humanize(300, "C") == (573.15, "K")


def test_humanize_all_offset_dimension_raises():
    converter = UnitConverter()
    converter.define_unit("shifted", "odd", 1.0, 5.0)
    with pytest.raises(ValueError):
        converter.humanize(1, "shifted")


def test_scenario_define_alias_convert_humanize():
    converter = UnitConverter()
    converter.define_unit("B", "data", 1.0)
    converter.derive_unit("KiB", 1024, "B")
    converter.derive_unit("MiB", 1024, "KiB")
    assert converter.add_alias("byte", "B") == ["byte"]
    assert converter.units("data") == ["B", "KiB", "MiB"]
    assert converter.convert(3, "MiB", "byte") == 3145728.0
    assert converter.humanize(5242880, "byte") == (5.0, "MiB")
    assert converter.convert_text("2048 byte", "KiB") == "2 KiB"
    assert converter.parse_quantity("7 KiB") == (7.0, "KiB")


def test_scenario_alias_first_then_more_units(units):
    units.add_alias("meter", "m")
    assert units.derive_unit("mm", 0.001, "meter") == 0.001
    assert units.define_unit("mil", "length", 0.0000254) == 6
    assert units.humanize(0.003, "meter") == (3.0, "mm")
    assert units.convert(1, "inch", "mil") == 1000.0
    assert units.parse_quantity("2 mm") == (2.0, "mm")
    assert units.add_alias("millimetre", "mm") == ["millimetre"]


def test_convert_tiny_negative_noise_rounds_to_positive_zero(units):
    assert str(units.convert(-1e-12, "m", "km")) == "0.0"


def test_parse_quantity_unit_starting_with_e_needs_space():
    converter = UnitConverter()
    converter.define_unit("eV", "energy", 1.602176634e-19)
    assert converter.parse_quantity("5 eV") == (5.0, "eV")
    with pytest.raises(ValueError):
        converter.parse_quantity("5eV")
