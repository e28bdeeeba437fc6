import pytest

from revisioned_kv_store import RevisionedKvStore


def test_put_returns_increasing_revisions():
    store = RevisionedKvStore()
    assert [store.put("a", "1"), store.put("b", "2"), store.put("a", "3")] == [1, 2, 3]


def test_put_empty_key_raises():
    with pytest.raises(ValueError):
        RevisionedKvStore().put("", "x")


def test_put_overwrites_value():
    store = RevisionedKvStore()
    store.put("theme", "light")
    store.put("theme", "dark")
    assert store.get("theme") == "dark"


def test_put_accepts_empty_value():
    store = RevisionedKvStore()
    store.put("note", "")
    assert store.get("note") == ""


def test_get_missing_raises_key_error():
    with pytest.raises(KeyError):
        RevisionedKvStore().get("nothing")


def test_delete_removes_key():
    store = RevisionedKvStore()
    store.put("k", "v")
    assert store.delete("k") is True
    with pytest.raises(KeyError):
        store.get("k")


def test_delete_missing_key_returns_false_and_uses_no_revision():
    store = RevisionedKvStore()
    store.put("a", "1")
    assert store.delete("zzz") is False
    assert store.put("b", "1") == 2


def test_delete_then_put_revives_key():
    store = RevisionedKvStore()
    store.put("k", "v1")
    store.delete("k")
    store.put("k", "v2")
    assert (store.get("k"), store.keys()) == ("v2", ["k"])


def test_increment_missing_key_starts_from_zero():
    store = RevisionedKvStore()
    assert store.increment("visits", 3) == 3
    assert store.get("visits") == "3"


def test_increment_negative_amount():
    store = RevisionedKvStore()
    store.put("stock", "10")
    assert store.increment("stock", -4) == 6


def test_increment_non_integer_raises():
    store = RevisionedKvStore()
    store.put("name", "bob")
    with pytest.raises(ValueError):
        store.increment("name")


def test_increment_deleted_key_restarts():
    store = RevisionedKvStore()
    store.increment("n", 10)
    store.delete("n")
    assert store.increment("n") == 1


def test_keys_sorted_and_prefix_filtered():
    store = RevisionedKvStore()
    for key in ("cfg:b", "cfg:a", "user:1", "cfgx"):
        store.put(key, "v")
    assert store.keys("cfg:") == ["cfg:a", "cfg:b"]
    assert store.keys() == ["cfg:a", "cfg:b", "cfgx", "user:1"]


def test_keys_prefix_wildcards_are_literal():
    store = RevisionedKvStore()
    store.put("a_b", "1")
    store.put("axb", "1")
    store.put("100%", "1")
    assert (store.keys("a_"), store.keys("100%")) == (["a_b"], ["100%"])


def test_keys_exclude_deleted():
    store = RevisionedKvStore()
    store.put("a", "1")
    store.put("b", "1")
    store.delete("a")
    assert store.keys() == ["b"]


def test_changes_since_zero_lists_all_keys_in_write_order():
    store = RevisionedKvStore()
    store.put("z", "1")
    store.put("y", "1")
    assert store.changes_since(0) == ["z", "y"]


def test_changes_since_includes_deletions():
    store = RevisionedKvStore()
    store.put("a", "1")
    rev = store.put("b", "1")
    store.delete("a")
    assert store.changes_since(rev) == ["a"]


def test_changes_since_latest_revision_is_empty():
    store = RevisionedKvStore()
    rev = store.put("a", "1")
    assert store.changes_since(rev) == []


def test_changes_since_future_revision_raises():
    store = RevisionedKvStore()
    store.put("a", "1")
    with pytest.raises(ValueError):
        store.changes_since(2)


def test_changes_since_negative_revision_raises():
    with pytest.raises(ValueError):
        RevisionedKvStore().changes_since(-1)


def test_begin_returns_depth():
    store = RevisionedKvStore()
    assert [store.begin(), store.begin(), store.begin()] == [1, 2, 3]


def test_commit_keeps_writes():
    store = RevisionedKvStore()
    store.begin()
    store.put("a", "1")
    assert store.commit() == 0
    assert store.get("a") == "1"


def test_commit_of_outermost_transaction_closes_sql_transaction():
    store = RevisionedKvStore()
    store.begin()
    store.put("a", "1")
    assert store.conn.in_transaction is True
    store.commit()
    assert store.conn.in_transaction is False


def test_rollback_of_outermost_transaction_closes_sql_transaction():
    store = RevisionedKvStore()
    store.begin()
    store.put("a", "1")
    store.rollback()
    assert store.conn.in_transaction is False
    assert store.keys() == []


def test_commit_without_transaction_raises():
    with pytest.raises(ValueError):
        RevisionedKvStore().commit()


def test_rollback_undoes_writes_and_revision():
    store = RevisionedKvStore()
    store.put("a", "1")
    store.begin()
    store.put("a", "2")
    store.delete("a")
    store.put("b", "3")
    assert store.rollback() == 0
    assert (store.get("a"), store.keys(), store.put("c", "4")) == ("1", ["a"], 2)


def test_rollback_without_transaction_raises():
    with pytest.raises(ValueError):
        RevisionedKvStore().rollback()


def test_nested_rollback_keeps_outer_writes():
    store = RevisionedKvStore()
    store.begin()
    store.put("outer", "1")
    store.begin()
    store.put("inner", "1")
    assert store.rollback() == 1
    assert store.commit() == 0
    assert store.keys() == ["outer"]


def test_outer_rollback_discards_committed_inner_transaction():
    store = RevisionedKvStore()
    store.begin()
    store.begin()
    store.increment("n")
    store.commit()
    store.rollback()
    assert store.keys() == []
    assert store.changes_since(0) == []


def test_scenario_client_sync_with_transactions():
    store = RevisionedKvStore()
    store.put("doc:1", "draft")
    synced = store.put("doc:2", "draft")
    store.begin()
    store.put("doc:1", "final")
    store.increment("counter:edits")
    store.delete("doc:2")
    assert store.changes_since(synced) == ["doc:1", "counter:edits", "doc:2"]
    store.commit()
    assert store.keys("doc:") == ["doc:1"]
    store.begin()
    store.put("doc:3", "scratch")
    store.rollback()
    assert store.changes_since(synced) == ["doc:1", "counter:edits", "doc:2"]
    assert store.increment("counter:edits", 2) == 3
    assert store.get("counter:edits") == "3"
    assert store.changes_since(5) == ["counter:edits"]


def test_scenario_rollback_then_keep_writing():
    store = RevisionedKvStore()
    store.begin()
    store.put("a", "1")
    store.rollback()
    assert store.delete("a") is False
    store.put("a", "2")
    store.begin()
    store.delete("a")
    store.commit()
    assert store.keys() == []
    assert store.changes_since(1) == ["a"]
    assert store.increment("a") == 1
    store.begin()
    store.increment("a")
    store.commit()
    assert store.get("a") == "2"
