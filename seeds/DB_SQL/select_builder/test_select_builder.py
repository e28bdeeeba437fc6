import sqlite3

import pytest

from select_builder import SelectBuilder


@pytest.fixture
def db():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE books (id INTEGER, title TEXT, author TEXT, year INTEGER, isbn TEXT)")
    conn.executemany("INSERT INTO books VALUES (?, ?, ?, ?, ?)", [
        (1, "Dune", "Herbert", 1965, "x1"),
        (2, "Emma", "Austen", 1815, None),
        (3, "Persuasion", "Austen", 1817, "x3"),
        (4, "Solaris", "Lem", 1961, None),
        (5, "Ubik", "Dick", 1969, "x5"),
    ])
    yield conn
    conn.close()


def test_quote_plain_and_dotted():
    builder = SelectBuilder("t")
    assert (builder.quote("title"), builder.quote("b.title")) == ('"title"', '"b"."title"')


def test_quote_rejects_injection():
    with pytest.raises(ValueError):
        SelectBuilder("t").quote('title"; DROP TABLE books; --')


def test_quote_rejects_leading_digit():
    with pytest.raises(ValueError):
        SelectBuilder("t").quote("1col")


def test_build_default_selects_everything():
    assert SelectBuilder("books").build() == ('SELECT * FROM "books"', [])


def test_build_invalid_table_raises():
    with pytest.raises(ValueError):
        SelectBuilder("books b").build()


def test_columns_replaces_previous_choice():
    builder = SelectBuilder("books").columns(["id"]).columns(["title", "year"])
    assert builder.build() == ('SELECT "title", "year" FROM "books"', [])


def test_columns_empty_list_means_star():
    assert SelectBuilder("books").columns([]).build()[0] == 'SELECT * FROM "books"'


def test_columns_invalid_name_raises():
    with pytest.raises(ValueError):
        SelectBuilder("books").columns(["title", "count(*)"])


def test_where_renders_placeholder(db):
    sql, params = SelectBuilder("books").columns(["title"]).where("year", "<", 1900).build()
    assert (sql, params) == ('SELECT "title" FROM "books" WHERE "year" < ?', [1900])
    assert db.execute(sql, params).fetchall() == [("Emma",), ("Persuasion",)]


def test_where_operator_is_case_insensitive():
    assert SelectBuilder("t").where("name", "like", "A%").build() == ('SELECT * FROM "t" WHERE "name" LIKE ?', ["A%"])


def test_where_multiple_conditions_joined_with_and(db):
    sql, params = SelectBuilder("books").columns(["id"]).where("author", "=", "Austen").where("year", ">=", 1816).build()
    assert params == ["Austen", 1816]
    assert db.execute(sql, params).fetchall() == [(3,)]


def test_where_none_becomes_is_null(db):
    sql, params = SelectBuilder("books").columns(["id"]).where("isbn", "=", None).build()
    assert sql == 'SELECT "id" FROM "books" WHERE "isbn" IS NULL'
    assert db.execute(sql, params).fetchall() == [(2,), (4,)]


def test_where_not_none_becomes_is_not_null():
    assert SelectBuilder("t").where("isbn", "!=", None).build() == ('SELECT * FROM "t" WHERE "isbn" IS NOT NULL', [])


def test_where_none_with_ordering_operator_raises():
    with pytest.raises(ValueError):
        SelectBuilder("t").where("isbn", "<", None)


def test_where_unknown_operator_raises():
    with pytest.raises(ValueError):
        SelectBuilder("t").where("a", "<>", 1)


def test_where_value_is_never_inlined(db):
    sql, params = SelectBuilder("books").where("title", "=", "x' OR '1'='1").build()
    assert "OR" not in sql
    assert db.execute(sql, params).fetchall() == []


def test_where_in_renders_one_placeholder_per_value(db):
    sql, params = SelectBuilder("books").columns(["title"]).where_in("id", [5, 1]).order_by("id").build()
    assert sql == 'SELECT "title" FROM "books" WHERE "id" IN (?, ?) ORDER BY "id"'
    assert db.execute(sql, params).fetchall() == [("Dune",), ("Ubik",)]


def test_where_in_empty_list_matches_nothing(db):
    sql, params = SelectBuilder("books").where_in("id", []).build()
    assert (sql, params) == ('SELECT * FROM "books" WHERE 1 = 0', [])
    assert db.execute(sql, params).fetchall() == []


def test_where_in_invalid_column_raises():
    with pytest.raises(ValueError):
        SelectBuilder("t").where_in("a-b", [1])


def test_order_by_several_keys(db):
    sql, params = SelectBuilder("books").columns(["title"]).order_by("author").order_by("year", descending=True).build()
    assert sql == 'SELECT "title" FROM "books" ORDER BY "author", "year" DESC'
    assert [row[0] for row in db.execute(sql, params)] == ["Persuasion", "Emma", "Ubik", "Dune", "Solaris"]


def test_order_by_invalid_column_raises():
    with pytest.raises(ValueError):
        SelectBuilder("t").order_by("year desc")


def test_limit_adds_paging_parameters(db):
    sql, params = SelectBuilder("books").columns(["id"]).order_by("id").limit(2, 2).build()
    assert params == [2, 2]
    assert db.execute(sql, params).fetchall() == [(3,), (4,)]


def test_limit_replaces_earlier_paging():
    assert SelectBuilder("t").limit(10).limit(3, 6).build() == ('SELECT * FROM "t" LIMIT ? OFFSET ?', [3, 6])


def test_limit_zero_count_raises():
    with pytest.raises(ValueError):
        SelectBuilder("t").limit(0)


def test_limit_negative_offset_raises():
    with pytest.raises(ValueError):
        SelectBuilder("t").limit(5, -1)


def test_count_sql_ignores_columns_order_and_paging(db):
    builder = SelectBuilder("books").columns(["title"]).where("author", "=", "Austen").order_by("year").limit(1)
    sql, params = builder.count_sql()
    assert (sql, params) == ('SELECT COUNT(*) FROM "books" WHERE "author" = ?', ["Austen"])
    assert db.execute(sql, params).fetchone() == (2,)


def test_count_sql_without_conditions(db):
    sql, params = SelectBuilder("books").count_sql()
    assert db.execute(sql, params).fetchone() == (5,)


def test_count_sql_invalid_table_raises():
    with pytest.raises(ValueError):
        SelectBuilder("1books").count_sql()


def test_scenario_paged_search_with_total(db):
    search = SelectBuilder("books").columns(["id", "title"])
    search.where("year", ">", 1900).where_in("author", ["Lem", "Dick", "Herbert"])
    search.order_by("year", descending=True).limit(2)
    sql, params = search.build()
    assert sql == ('SELECT "id", "title" FROM "books" WHERE "year" > ? AND "author" IN (?, ?, ?) '
                   'ORDER BY "year" DESC LIMIT ? OFFSET ?')
    assert params == [1900, "Lem", "Dick", "Herbert", 2, 0]
    assert db.execute(sql, params).fetchall() == [(5, "Ubik"), (1, "Dune")]
    count_sql, count_params = search.count_sql()
    assert db.execute(count_sql, count_params).fetchone() == (3,)
    search.limit(2, 2)
    assert db.execute(*search.build()).fetchall() == [(4, "Solaris")]
    search.columns(["b.title"])
    assert search.build()[0].startswith('SELECT "b"."title" FROM "books"')


def test_scenario_conditions_added_after_paging(db):
    query = SelectBuilder("books").limit(10).order_by("id")
    query.where("isbn", "!=", None)
    query.columns(["id"])
    assert db.execute(*query.build()).fetchall() == [(1,), (3,), (5,)]
    query.where_in("id", [3, 4])
    assert db.execute(*query.count_sql()).fetchone() == (1,)
    assert query.build()[1] == [3, 4, 10, 0]


def test_where_after_where_in_keeps_parameter_order(db):
    query = SelectBuilder("books").columns(["title"]).where_in("author", ["Austen", "Lem"]).where("year", ">", 1816)
    assert query.build() == ('SELECT "title" FROM "books" WHERE "author" IN (?, ?) AND "year" > ?', ["Austen", "Lem", 1816])
    assert db.execute(*query.build()).fetchall() == [("Persuasion",), ("Solaris",)]
