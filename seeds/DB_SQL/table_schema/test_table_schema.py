import sqlite3

import pytest

from table_schema import TableSchema


@pytest.fixture
def products():
    schema = TableSchema("products")
    schema.add_column("sku", "TEXT", primary_key=True)
    schema.add_column("name", "TEXT", nullable=False)
    schema.add_column("price", "REAL", nullable=False, default=0.0)
    schema.add_column("stock", "INTEGER", default=0)
    schema.add_column("barcode", "TEXT", unique=True)
    schema.add_column("active", "BOOLEAN", nullable=False, default=True)
    return schema


def test_add_column_returns_positions():
    schema = TableSchema("t")
    assert [schema.add_column("a", "integer"), schema.add_column("b", "Text")] == [0, 1]
    assert schema.column_names() == ["a", "b"]


def test_add_column_duplicate_raises(products):
    with pytest.raises(ValueError):
        products.add_column("name", "TEXT")


def test_add_column_invalid_name_raises():
    with pytest.raises(ValueError):
        TableSchema("t").add_column("unit price", "REAL")


def test_add_column_name_starting_with_digit_raises():
    with pytest.raises(ValueError):
        TableSchema("t").add_column("1st", "TEXT")


def test_add_column_unknown_type_raises():
    with pytest.raises(ValueError):
        TableSchema("t").add_column("at", "DATETIME")


def test_add_column_second_primary_key_raises(products):
    with pytest.raises(ValueError):
        products.add_column("id", "INTEGER", primary_key=True)


def test_add_column_default_of_wrong_type_raises():
    with pytest.raises(ValueError):
        TableSchema("t").add_column("n", "INTEGER", default="zero")


def test_add_column_bool_default_for_integer_raises():
    with pytest.raises(ValueError):
        TableSchema("t").add_column("n", "INTEGER", default=True)


def test_column_names_in_declaration_order(products):
    assert products.column_names() == ["sku", "name", "price", "stock", "barcode", "active"]


def test_validate_row_valid_with_defaults(products):
    assert products.validate_row({"sku": "A-1", "name": "Lamp"}) == []


def test_validate_row_primary_key_is_not_null(products):
    assert products.validate_row({"name": "Lamp"}) == ["column 'sku' may not be NULL"]


def test_validate_row_explicit_null_overrides_default(products):
    assert products.validate_row({"sku": "A", "name": "L", "price": None}) == ["column 'price' may not be NULL"]


def test_validate_row_type_errors(products):
    row = {"sku": "A", "name": "L", "price": "9.99", "stock": 2.5, "active": 1}
    assert products.validate_row(row) == [
        "column 'price' expects REAL, got str",
        "column 'stock' expects INTEGER, got float",
        "column 'active' expects BOOLEAN, got int",
    ]


def test_validate_row_int_is_accepted_for_real(products):
    assert products.validate_row({"sku": "A", "name": "L", "price": 3}) == []


def test_validate_row_bool_is_not_an_integer(products):
    assert products.validate_row({"sku": "A", "name": "L", "stock": False}) == ["column 'stock' expects INTEGER, got bool"]


def test_validate_row_unknown_column(products):
    assert products.validate_row({"sku": "A", "name": "L", "colour": "red"}) == ["unknown column 'colour'"]


def test_coerce_row_converts_text(products):
    row = products.coerce_row({"sku": "B-2", "name": " Desk ", "price": "120.5", "stock": "3", "active": "no"})
    assert row == {"sku": "B-2", "name": "Desk", "price": 120.5, "stock": 3, "barcode": None, "active": False}


def test_coerce_row_empty_text_is_null_and_defaults_fill_absent(products):
    assert products.coerce_row({"sku": "C", "name": "Cup", "barcode": ""}) == {
        "sku": "C", "name": "Cup", "price": 0.0, "stock": 0, "barcode": None, "active": True}


def test_coerce_row_accepts_all_boolean_spellings():
    schema = TableSchema("flags")
    for name in ("a", "b", "c", "d", "e", "f"):
        schema.add_column(name, "BOOLEAN")
    row = schema.coerce_row({"a": "TRUE", "b": "false", "c": "Yes", "d": "no", "e": "1", "f": "0"})
    assert row == {"a": True, "b": False, "c": True, "d": False, "e": True, "f": False}


def test_coerce_row_bad_integer_raises(products):
    with pytest.raises(ValueError):
        products.coerce_row({"sku": "C", "name": "Cup", "stock": "many"})


def test_coerce_row_bad_boolean_raises(products):
    with pytest.raises(ValueError):
        products.coerce_row({"sku": "C", "name": "Cup", "active": "maybe"})


def test_coerce_row_invalid_after_conversion_raises(products):
    with pytest.raises(ValueError, match="may not be NULL"):
        products.coerce_row({"sku": "C", "name": ""})


def test_coerce_row_unknown_column_raises(products):
    with pytest.raises(ValueError, match="unknown column"):
        products.coerce_row({"sku": "C", "name": "Cup", "colour": "red"})


def test_check_rows_reports_duplicates_and_invalid_rows(products):
    rows = [
        {"sku": "A", "name": "One", "barcode": "111"},
        {"sku": "B", "name": "Two", "barcode": "111"},
        {"sku": "A", "name": None},
        {"sku": "D", "name": "Four"},
        {"sku": "E", "name": "Five"},
    ]
    assert products.check_rows(rows) == {
        1: ["column 'barcode' duplicates row 0"],
        2: ["column 'name' may not be NULL", "column 'sku' duplicates row 0"],
    }


def test_check_rows_nulls_never_collide_on_unique(products):
    rows = [{"sku": "A", "name": "x"}, {"sku": "B", "name": "y"}]
    assert products.check_rows(rows) == {}


def test_check_rows_defaults_take_part_in_uniqueness():
    schema = TableSchema("t")
    schema.add_column("slot", "INTEGER", unique=True, default=1)
    assert schema.check_rows([{}, {"slot": 2}, {}]) == {2: ["column 'slot' duplicates row 0"]}


def test_check_rows_empty_batch():
    assert TableSchema("t").check_rows([]) == {}


def test_create_table_sql_renders_constraints(products):
    assert products.create_table_sql() == (
        'CREATE TABLE "products" ("sku" TEXT PRIMARY KEY, "name" TEXT NOT NULL, '
        '"price" REAL NOT NULL DEFAULT 0.0, "stock" INTEGER DEFAULT 0, "barcode" TEXT UNIQUE, '
        '"active" BOOLEAN NOT NULL DEFAULT 1)'
    )


def test_create_table_sql_escapes_text_default():
    schema = TableSchema("notes")
    schema.add_column("body", "TEXT", default="don't")
    assert schema.create_table_sql() == 'CREATE TABLE "notes" ("body" TEXT DEFAULT \'don\'\'t\')'


def test_create_table_sql_without_columns_raises():
    with pytest.raises(ValueError):
        TableSchema("empty").create_table_sql()


def test_create_table_sql_is_accepted_by_sqlite(products):
    conn = sqlite3.connect(":memory:")
    conn.execute(products.create_table_sql())
    conn.execute('INSERT INTO "products" ("sku", "name") VALUES (?, ?)', ["X", "Thing"])
    assert conn.execute("SELECT price, stock, active FROM products").fetchone() == (0.0, 0, 1)
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute('INSERT INTO "products" ("sku", "name") VALUES (?, ?)', ["X", "Again"])


def test_insert_sql_fills_defaults_in_column_order(products):
    assert products.insert_sql({"name": "Pen", "sku": "P"}) == (
        'INSERT INTO "products" ("sku", "name", "price", "stock", "barcode", "active") VALUES (?, ?, ?, ?, ?, ?)',
        ["P", "Pen", 0.0, 0, None, True],
    )


def test_insert_sql_invalid_row_raises(products):
    with pytest.raises(ValueError, match="expects INTEGER"):
        products.insert_sql({"sku": "P", "name": "Pen", "stock": "2"})


def test_scenario_csv_import_into_sqlite(products):
    conn = sqlite3.connect(":memory:")
    conn.execute(products.create_table_sql())
    csv_rows = [
        {"sku": "K1", "name": "Kettle", "price": "29.9", "stock": "4", "barcode": "400"},
        {"sku": "K2", "name": "Kettle XL", "price": "", "stock": "1", "barcode": "400"},
        {"sku": "M1", "name": "Mug", "price": "4", "stock": "", "barcode": "", "active": "false"},
    ]
    typed = [products.coerce_row(csv_rows[0]), products.coerce_row(csv_rows[2])]
    assert typed[1] == {"sku": "M1", "name": "Mug", "price": 4.0, "stock": None, "barcode": None, "active": False}
    with pytest.raises(ValueError):
        products.coerce_row(csv_rows[1])
    batch = typed + [{"sku": "K2", "name": "Kettle XL", "price": 35.0, "barcode": "400"}]
    assert products.check_rows(batch) == {2: ["column 'barcode' duplicates row 0"]}
    products.add_column("note", "TEXT", default="")
    conn.execute("ALTER TABLE products ADD COLUMN note TEXT DEFAULT ''")
    typed.append(products.coerce_row({"sku": "T1", "name": "Teapot", "note": "fragile"}))
    for row in typed:
        conn.execute(*products.insert_sql(row))
    assert conn.execute("SELECT sku, stock, active, note FROM products ORDER BY sku").fetchall() == [
        ("K1", 4, 1, ""), ("M1", None, 0, ""), ("T1", 0, 1, "fragile")]
    assert products.column_names()[-1] == "note"
    assert products.validate_row({"sku": "Z", "name": "z", "note": None}) == []
