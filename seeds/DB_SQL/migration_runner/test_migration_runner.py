import sqlite3

import pytest

from migration_runner import MigrationRunner


USERS_UP = "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL);\nCREATE UNIQUE INDEX users_email ON users (email);"
USERS_DOWN = "DROP TABLE users;"
ORDERS_UP = "CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, note TEXT DEFAULT 'a;b')"
ORDERS_DOWN = "DROP TABLE orders"
SEED_UP = "INSERT INTO users (email) VALUES ('ann@example.org'); INSERT INTO users (email) VALUES ('bob@example.org');"
SEED_DOWN = "DELETE FROM users WHERE email IN ('ann@example.org', 'bob@example.org')"


@pytest.fixture
def runner():
    r = MigrationRunner()
    r.register(1, "create_users", USERS_UP, USERS_DOWN)
    r.register(2, "create_orders", ORDERS_UP, ORDERS_DOWN)
    r.register(3, "seed_users", SEED_UP, SEED_DOWN)
    return r


def test_register_duplicate_version_raises(runner):
    with pytest.raises(ValueError):
        runner.register(2, "again", "SELECT 1", "")


def test_register_non_positive_version_raises():
    with pytest.raises(ValueError):
        MigrationRunner().register(-4, "neg", "SELECT 1", "")


def test_register_empty_up_script_raises():
    with pytest.raises(ValueError):
        MigrationRunner().register(1, "empty", " ;\n; ", "")


def test_unregister_reports_presence(runner):
    assert (runner.unregister(3), runner.unregister(3)) == (True, False)
    assert runner.pending() == [1, 2]


def test_pending_lists_all_registered_when_fresh(runner):
    assert runner.pending() == [1, 2, 3]


def test_pending_sorted_regardless_of_registration_order():
    r = MigrationRunner()
    r.register(20, "b", "SELECT 1", "")
    r.register(10, "a", "SELECT 1", "")
    assert r.pending() == [10, 20]


def test_applied_and_current_version_on_fresh_database(runner):
    assert (runner.applied(), runner.current_version()) == ([], 0)


def test_migrate_applies_everything_in_order(runner):
    assert runner.migrate() == [1, 2, 3]
    assert runner.applied() == [1, 2, 3]
    assert runner.tables() == ["orders", "users"]
    assert runner.conn.execute("SELECT COUNT(*) FROM users").fetchone() == (2,)


def test_migrate_semicolon_inside_string_literal_is_kept(runner):
    runner.migrate(2)
    runner.conn.execute("INSERT INTO orders (user_id) VALUES (1)")
    assert runner.conn.execute("SELECT note FROM orders").fetchone() == ("a;b",)


def test_migrate_up_to_target(runner):
    assert runner.migrate(2) == [1, 2]
    assert (runner.current_version(), runner.pending()) == (2, [3])


def test_migrate_when_nothing_pending_returns_empty(runner):
    runner.migrate()
    assert runner.migrate() == []


def test_migrate_unknown_target_raises(runner):
    with pytest.raises(ValueError):
        runner.migrate(9)


def test_migrate_failure_rolls_back_that_migration_only(runner):
    runner.register(4, "broken", "CREATE TABLE audit (id INTEGER); INSERT INTO nowhere VALUES (1)", "DROP TABLE audit")
    with pytest.raises(sqlite3.OperationalError):
        runner.migrate()
    assert runner.applied() == [1, 2, 3]
    assert "audit" not in runner.tables()
    assert runner.history[-1] == "failed up 4 broken"


def test_migrate_unterminated_statement_is_run_and_fails():
    r = MigrationRunner()
    r.register(1, "typo", "CREATE TABLE t (x TEXT DEFAULT 'open)", "DROP TABLE t")
    with pytest.raises(sqlite3.OperationalError):
        r.migrate()
    assert (r.applied(), r.tables()) == ([], [])


def test_migrate_fills_gap_left_by_late_registration(runner):
    runner.unregister(2)
    runner.migrate()
    runner.register(2, "create_orders", ORDERS_UP, ORDERS_DOWN)
    assert runner.pending() == [2]
    assert runner.migrate() == [2]
    assert runner.current_version() == 3


def test_rollback_reverts_newest_first(runner):
    runner.migrate()
    assert runner.rollback(2) == [3, 2]
    assert runner.applied() == [1]
    assert runner.tables() == ["users"]
    assert runner.conn.execute("SELECT COUNT(*) FROM users").fetchone() == (0,)


def test_rollback_too_many_steps_raises(runner):
    runner.migrate(1)
    with pytest.raises(ValueError):
        runner.rollback(2)


def test_rollback_zero_steps_raises(runner):
    runner.migrate()
    with pytest.raises(ValueError):
        runner.rollback(0)


def test_rollback_unregistered_version_raises(runner):
    runner.migrate()
    runner.unregister(3)
    with pytest.raises(ValueError):
        runner.rollback()
    assert runner.applied() == [1, 2, 3]


def test_rollback_failing_down_script_keeps_migration_applied():
    r = MigrationRunner()
    r.register(1, "t", "CREATE TABLE t (x)", "DROP TABLE t; DROP TABLE missing")
    r.migrate()
    with pytest.raises(sqlite3.OperationalError):
        r.rollback()
    assert (r.applied(), r.tables()) == ([1], ["t"])


def test_verify_clean_after_migrate(runner):
    runner.migrate()
    assert runner.verify() == []


def test_verify_detects_edited_and_missing_migrations(runner):
    runner.migrate()
    runner.unregister(1)
    runner.register(1, "create_users", USERS_UP + " -- edited", USERS_DOWN)
    runner.unregister(3)
    assert runner.verify() == [1, 3]


def test_tables_excludes_bookkeeping_table():
    assert MigrationRunner().tables() == []


def test_history_records_each_step(runner):
    runner.migrate(2)
    runner.rollback()
    assert runner.history == ["up 1 create_users", "up 2 create_orders", "down 2 create_orders"]


def test_scenario_deploy_and_hotfix():
    runner = MigrationRunner()
    runner.register(1, "products", "CREATE TABLE products (sku TEXT PRIMARY KEY, price INTEGER)", "DROP TABLE products")
    runner.register(2, "stock", "CREATE TABLE stock (sku TEXT, qty INTEGER)", "DROP TABLE stock")
    assert runner.migrate() == [1, 2]
    runner.register(3, "bad_column", "ALTER TABLE stock ADD COLUMN qty INTEGER", "")
    with pytest.raises(sqlite3.OperationalError):
        runner.migrate()
    assert runner.current_version() == 2
    assert runner.unregister(3) is True
    runner.register(3, "price_view", "CREATE VIEW v AS SELECT sku, price FROM products", "DROP VIEW v")
    assert runner.pending() == [3]
    assert runner.migrate(3) == [3]
    assert runner.verify() == []
    assert runner.rollback(3) == [3, 2, 1]
    assert runner.tables() == []
    assert runner.history == [
        "up 1 products", "up 2 stock", "failed up 3 bad_column", "up 3 price_view",
        "down 3 price_view", "down 2 stock", "down 1 products",
    ]


def test_scenario_rollback_then_reapply_changed_migration(runner):
    runner.migrate()
    runner.rollback()
    runner.unregister(3)
    runner.register(3, "seed_users", "INSERT INTO users (email) VALUES ('cy@example.org')", SEED_DOWN)
    assert runner.verify() == []
    assert runner.migrate() == [3]
    assert runner.conn.execute("SELECT email FROM users").fetchall() == [("cy@example.org",)]
    assert runner.pending() == []
    assert runner.current_version() == 3


def test_applied_by_records_the_runner_database_user():
    r = MigrationRunner("deploy")
    r.register(1, "users", "CREATE TABLE users (id INTEGER)", "DROP TABLE users")
    r.register(2, "orders", "CREATE TABLE orders (id INTEGER)", "DROP TABLE orders")
    assert r.migrate(1) == [1]
    assert r.applied_by(1) == "deploy"
    r.db_user = "hotfix"
    assert r.migrate() == [2]
    assert r.applied_by(2) == "hotfix"
    assert r.applied_by(1) == "deploy"


def test_applied_by_default_user_and_unknown_version():
    fresh = MigrationRunner()
    fresh.register(1, "a", "CREATE TABLE a (x)", "DROP TABLE a")
    fresh.migrate()
    assert fresh.applied_by(1) == "migrator"
    with pytest.raises(KeyError):
        fresh.applied_by(2)


def test_applied_by_forgets_a_rolled_back_version():
    r = MigrationRunner("ops")
    r.register(1, "a", "CREATE TABLE a (x)", "DROP TABLE a")
    r.migrate()
    assert r.rollback() == [1]
    with pytest.raises(KeyError):
        r.applied_by(1)
