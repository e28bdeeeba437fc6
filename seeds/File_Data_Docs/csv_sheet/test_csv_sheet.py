import pytest

from csv_sheet import CsvSheet


INVENTORY = "item,qty,price\nbolt,40,0.25\nnut,100,0.1\nwasher,15,0.05\n"


def sheet_from(text, delimiter=","):
    sheet = CsvSheet(delimiter)
    sheet.load(text)
    return sheet


def test_load_returns_row_count_and_skips_blank_lines():
    sheet = CsvSheet()
    assert sheet.load("a,b\n1,2\n\n3,4\n") == 2
    assert sheet.column_values("a") == ["1", "3"]


def test_load_rejects_ragged_row():
    with pytest.raises(ValueError):
        CsvSheet().load("a,b\n1,2\n3\n")


def test_load_rejects_duplicate_header():
    with pytest.raises(ValueError):
        CsvSheet().load("a,a\n1,2\n")


def test_load_failure_keeps_previous_content():
    sheet = sheet_from("a\n1\n")
    with pytest.raises(ValueError):
        sheet.load("x,y\n1\n")
    assert sheet.to_csv() == "a\n1\n"


def test_load_replaces_earlier_content():
    sheet = sheet_from("a\n1\n")
    sheet.add_column("b", "2")
    assert sheet.load("c\n3\n4\n") == 2
    assert sheet.to_csv() == "c\n3\n4\n"


def test_load_empty_text_gives_no_columns():
    sheet = sheet_from("a\n1\n")
    assert sheet.load("") == 0
    assert sheet.to_csv() == ""


def test_column_index_finds_position():
    assert sheet_from(INVENTORY).column_index("price") == 2


def test_column_index_unknown_column_raises_key_error():
    with pytest.raises(KeyError):
        sheet_from(INVENTORY).column_index("colour")


def test_add_column_fills_existing_rows_with_default():
    sheet = sheet_from("a\n1\n2\n")
    assert sheet.add_column("flag", "no") == 1
    assert sheet.column_values("flag") == ["no", "no"]


def test_add_column_existing_name_raises():
    with pytest.raises(ValueError):
        sheet_from(INVENTORY).add_column("qty")


def test_add_column_to_empty_sheet_builds_header():
    sheet = CsvSheet()
    sheet.add_column("id")
    sheet.add_column("label")
    assert sheet.to_csv() == "id,label\n"


def test_append_row_fills_missing_cells_with_empty_text():
    sheet = sheet_from("a,b,c\n")
    assert sheet.append_row({"c": "z", "a": "x"}) == 0
    assert sheet.to_csv() == "a,b,c\nx,,z\n"


def test_append_row_unknown_column_raises():
    sheet = sheet_from("a,b\n")
    with pytest.raises(KeyError):
        sheet.append_row({"q": "1"})


def test_set_cell_changes_single_value():
    sheet = sheet_from(INVENTORY)
    sheet.set_cell(2, "qty", "12")
    assert sheet.column_values("qty") == ["40", "100", "12"]


def test_set_cell_row_out_of_range_raises_index_error():
    with pytest.raises(IndexError):
        sheet_from(INVENTORY).set_cell(3, "qty", "1")


def test_set_cell_negative_row_raises_index_error():
    with pytest.raises(IndexError):
        sheet_from(INVENTORY).set_cell(-1, "qty", "1")


def test_set_cell_unknown_column_raises_key_error():
    with pytest.raises(KeyError):
        sheet_from(INVENTORY).set_cell(0, "weight", "1")


def test_column_values_returns_column_in_order():
    assert sheet_from(INVENTORY).column_values("item") == ["bolt", "nut", "washer"]


def test_delete_where_removes_matching_rows_and_counts():
    sheet = sheet_from("k,v\nx,1\ny,2\nx,3\n")
    assert sheet.delete_where("k", "x") == 2
    assert sheet.to_csv() == "k,v\ny,2\n"


def test_delete_where_without_match_returns_zero():
    sheet = sheet_from(INVENTORY)
    assert sheet.delete_where("item", "screw") == 0
    assert sheet.column_values("item") == ["bolt", "nut", "washer"]


def test_sort_by_text_column():
    sheet = sheet_from(INVENTORY)
    sheet.sort_by("item", descending=True)
    assert sheet.column_values("item") == ["washer", "nut", "bolt"]


def test_sort_by_numeric_column_uses_number_order():
    sheet = sheet_from(INVENTORY)
    sheet.sort_by("qty", numeric=True)
    assert sheet.column_values("qty") == ["15", "40", "100"]


def test_sort_by_numeric_column_with_text_raises():
    sheet = sheet_from("n\n1\nabc\n")
    with pytest.raises(ValueError):
        sheet.sort_by("n", numeric=True)


def test_sort_by_is_stable_for_equal_keys():
    sheet = sheet_from("g,id\nb,1\na,2\nb,3\na,4\n")
    sheet.sort_by("g")
    assert sheet.column_values("id") == ["2", "4", "1", "3"]


def test_column_total_skips_blank_cells():
    sheet = sheet_from("q\n2\n\"\"\n3.5\n")
    assert sheet.column_total("q") == 5.5


def test_column_total_non_numeric_raises():
    with pytest.raises(ValueError):
        sheet_from(INVENTORY).column_total("item")


def test_to_csv_quotes_fields_with_delimiter():
    sheet = sheet_from("name,note\n")
    sheet.append_row({"name": "a", "note": "x,y"})
    assert sheet.to_csv() == 'name,note\na,"x,y"\n'


def test_to_csv_uses_custom_delimiter():
    sheet = sheet_from("a;b\n1;2\n", delimiter=";")
    sheet.set_cell(0, "b", "5")
    assert sheet.to_csv() == "a;b\n1;5\n"


def test_to_csv_of_empty_sheet_is_empty():
    assert CsvSheet().to_csv() == ""


def test_scenario_restock_report():
    sheet = sheet_from(INVENTORY)
    sheet.add_column("supplier", "acme")
    sheet.append_row({"item": "rivet", "qty": "0", "price": "0.3", "supplier": "rivco"})
    sheet.set_cell(1, "qty", "0")
    assert sheet.delete_where("qty", "0") == 2
    sheet.sort_by("price", numeric=True, descending=True)
    assert sheet.column_values("item") == ["bolt", "washer"]
    assert sheet.column_total("qty") == 55.0
    assert sheet.to_csv() == "item,qty,price,supplier\nbolt,40,0.25,acme\nwasher,15,0.05,acme\n"


def test_scenario_sort_then_edit_then_add_column():
    sheet = sheet_from("name,score\nzoe,7\nadam,9\n")
    sheet.sort_by("name")
    sheet.set_cell(0, "score", "10")
    assert sheet.column_total("score") == 17.0
    sheet.delete_where("name", "zoe")
    sheet.append_row({"name": "bea", "score": "4"})
    sheet.add_column("rank", "-")
    sheet.sort_by("score", numeric=True)
    assert sheet.to_csv() == "name,score,rank\nbea,4,-\nadam,10,-\n"


def test_scenario_delete_then_append_then_total():
    sheet = sheet_from("k,v\na,1\nb,2\n")
    sheet.delete_where("k", "a")
    sheet.set_cell(0, "v", "5")
    sheet.add_column("w", "1")
    sheet.append_row({"k": "c", "v": "6"})
    sheet.sort_by("v", numeric=True, descending=True)
    sheet.delete_where("k", "zz")
    sheet.append_row({"k": "d"})
    sheet.set_cell(2, "w", "3")
    assert sheet.column_values("w") == ["", "1", "3"]
    assert sheet.column_total("v") == 11.0


def test_scenario_discard_edits_by_reloading():
    sheet = sheet_from("id,v\n1,a\n2,b\n")
    sheet.append_row({"id": "3", "v": "c"})
    sheet.delete_where("v", "a")
    sheet.sort_by("id", descending=True)
    sheet.set_cell(0, "v", "changed")
    assert sheet.column_values("id") == ["3", "2"]
    assert sheet.load("id,v\n9,z\n") == 1
    assert sheet.to_csv() == "id,v\n9,z\n"
