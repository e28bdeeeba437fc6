import pytest

from fixed_width_layout import FixedWidthLayout


@pytest.fixture
def payments():
    layout = FixedWidthLayout()
    layout.add_field("account", 8)
    layout.add_field("booked", 8, "date")
    layout.add_field("cents", 9, "int")
    layout.add_field("memo", 10)
    return layout


def test_add_field_returns_start_offsets():
    layout = FixedWidthLayout()
    assert [layout.add_field("a", 2), layout.add_field("b", 5, "int"), layout.add_field("c", 8, "date")] == [0, 2, 7]
    assert layout.record_length() == 15


def test_add_field_duplicate_name_raises(payments):
    with pytest.raises(ValueError):
        payments.add_field("memo", 3)


def test_add_field_unknown_kind_raises():
    with pytest.raises(ValueError):
        FixedWidthLayout().add_field("price", 6, "float")


def test_add_field_zero_width_raises():
    with pytest.raises(ValueError):
        FixedWidthLayout().add_field("gap", 0)


def test_add_field_date_with_wrong_width_raises():
    with pytest.raises(ValueError):
        FixedWidthLayout().add_field("day", 10, "date")


def test_record_length_sums_widths(payments):
    assert payments.record_length() == 35


def test_record_length_of_empty_layout_is_zero():
    assert FixedWidthLayout().record_length() == 0


def test_field_span_of_each_field(payments):
    assert [payments.field_span(n) for n in ("account", "booked", "cents", "memo")] == [(0, 8), (8, 16), (16, 25), (25, 35)]


def test_field_span_unknown_raises_key_error(payments):
    with pytest.raises(KeyError):
        payments.field_span("iban")


def test_remove_field_shifts_later_fields(payments):
    assert payments.remove_field("booked") == 27
    assert payments.field_span("cents") == (8, 17)


def test_remove_field_unknown_raises_key_error(payments):
    with pytest.raises(KeyError):
        payments.remove_field("iban")


def test_parse_line_converts_kinds(payments):
    line = "DE001234" + "20260115" + "-00012050" + "rent      "
    assert payments.parse_line(line) == {"account": "DE001234", "booked": "2026-01-15", "cents": -12050, "memo": "rent"}


def test_parse_line_keeps_leading_spaces_of_text():
    layout = FixedWidthLayout()
    layout.add_field("t", 6)
    assert layout.parse_line("  ab  ") == {"t": "  ab"}


def test_parse_line_wrong_length_raises(payments):
    with pytest.raises(ValueError):
        payments.parse_line("too short")


def test_parse_line_bad_integer_raises():
    layout = FixedWidthLayout()
    layout.add_field("n", 4, "int")
    with pytest.raises(ValueError):
        layout.parse_line("12a4")


def test_parse_line_lone_minus_is_not_an_integer():
    layout = FixedWidthLayout()
    layout.add_field("n", 1, "int")
    with pytest.raises(ValueError):
        layout.parse_line("-")


def test_parse_line_bad_date_raises():
    layout = FixedWidthLayout()
    layout.add_field("d", 8, "date")
    with pytest.raises(ValueError):
        layout.parse_line("2026-1-1")


def test_format_record_pads_each_kind(payments):
    line = payments.format_record({"account": "FR77", "booked": "2025-12-31", "cents": 990, "memo": "fee"})
    assert line == "FR77    20251231000000990fee       "


def test_format_record_negative_integer_keeps_sign(payments):
    line = payments.format_record({"booked": "2025-01-02", "cents": -5})
    assert line == "        20250102-00000005          "


def test_format_record_missing_date_raises_key_error(payments):
    with pytest.raises(KeyError):
        payments.format_record({"account": "X"})


def test_format_record_unknown_field_raises_key_error(payments):
    with pytest.raises(KeyError):
        payments.format_record({"booked": "2025-01-02", "iban": "X"})


def test_format_record_too_wide_text_raises(payments):
    with pytest.raises(ValueError):
        payments.format_record({"account": "ACCOUNT-TOO-LONG", "booked": "2025-01-02"})


def test_format_record_too_wide_integer_raises(payments):
    with pytest.raises(ValueError):
        payments.format_record({"booked": "2025-01-02", "cents": 12345678901})


def test_format_record_malformed_date_raises(payments):
    with pytest.raises(ValueError):
        payments.format_record({"booked": "02/01/2025"})


def test_format_record_misplaced_dashes_in_date_raises(payments):
    with pytest.raises(ValueError):
        payments.format_record({"booked": "2025-0-102"})


def test_format_then_parse_round_trip(payments):
    record = {"account": "NL91ABNA", "booked": "2024-02-29", "cents": 123456789, "memo": "salary"}
    assert payments.parse_line(payments.format_record(record)) == record


def test_parse_text_skips_blank_lines_and_collects_rejects():
    layout = FixedWidthLayout()
    layout.add_field("id", 3, "int")
    layout.add_field("tag", 2)
    records = layout.parse_text("001ab\n\n0x2cd\n003\n004ef\n")
    assert records == [{"id": 1, "tag": "ab"}, {"id": 4, "tag": "ef"}]
    rejected = layout.rejected_lines()
    assert [entry.split(": ", 1)[0] for entry in rejected] == ["line 3", "line 4"]
    bad_digits, too_short = (entry.split(": ", 1)[1] for entry in rejected)
    assert "'0x2'" in bad_digits
    assert "5" in too_short and "3" in too_short


def test_parse_text_resets_rejections_each_call():
    layout = FixedWidthLayout()
    layout.add_field("n", 2, "int")
    layout.parse_text("zz\n")
    assert layout.parse_text("07\n") == [{"n": 7}]
    assert layout.rejected_lines() == []


def test_rejected_lines_returns_a_copy():
    layout = FixedWidthLayout()
    layout.add_field("n", 1, "int")
    layout.parse_text("a\n")
    layout.rejected_lines().clear()
    rejected = layout.rejected_lines()
    assert len(rejected) == 1
    assert rejected[0].startswith("line 1: ") and "'a'" in rejected[0]


def test_rejected_lines_empty_before_any_parse():
    layout = FixedWidthLayout()
    layout.add_field("n", 1, "int")
    assert layout.rejected_lines() == []


def test_scenario_evolve_layout_and_reparse():
    layout = FixedWidthLayout()
    layout.add_field("sku", 5)
    layout.add_field("qty", 4, "int")
    layout.add_field("note", 6)
    lines = layout.format_record({"sku": "A1", "qty": 3, "note": "rush"}) + "\n" + "B2   00x1      \n"
    assert layout.parse_text(lines) == [{"sku": "A1", "qty": 3, "note": "rush"}]
    rejected = layout.rejected_lines()
    assert len(rejected) == 1
    assert rejected[0].startswith("line 2: ") and "'00x1'" in rejected[0]
    assert layout.remove_field("note") == 9
    assert layout.add_field("due", 8, "date") == 9
    assert layout.field_span("due") == (9, 17)
    line = layout.format_record({"sku": "C3", "qty": 12, "due": "2026-07-04"})
    assert line == "C3   001220260704"
    assert layout.parse_text(line + "\nC3   0012\n") == [{"sku": "C3", "qty": 12, "due": "2026-07-04"}]
    rejected = layout.rejected_lines()
    assert len(rejected) == 1
    assert rejected[0].startswith("line 2: ")
    assert "17" in rejected[0] and "9" in rejected[0].split(": ", 1)[1]


def test_scenario_parse_then_remove_then_add_field():
    layout = FixedWidthLayout()
    layout.add_field("a", 2)
    layout.add_field("b", 2, "int")
    assert layout.parse_text("xy05\n") == [{"a": "xy", "b": 5}]
    layout.remove_field("a")
    layout.add_field("c", 1)
    assert layout.parse_line("05z") == {"b": 5, "c": "z"}
    assert layout.format_record({"b": 7}) == "07 "
    assert layout.rejected_lines() == []
