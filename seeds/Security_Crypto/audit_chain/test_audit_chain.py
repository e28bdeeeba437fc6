import hashlib

import pytest

from audit_chain import AuditChain

GENESIS = "0" * 64


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture
def log():
    chain = AuditChain()
    chain.append("ada", "login", 100)
    chain.append("bob", "create user carol", 120)
    chain.append("ada", "delete backup", 120)
    return chain


def test_sha_matches_hashlib():
    assert AuditChain._sha("abc") == sha("abc")


def test_link_covers_all_fields():
    chain = AuditChain()
    assert chain._link(0, 1, "ada", "h", "p") == sha("0|1|ada|h|p")
    assert chain._link(0, 2, "ada", "h", "p") != chain._link(0, 1, "ada", "h", "p")


def test_head_of_empty_log_is_genesis():
    assert AuditChain().head() == GENESIS


def test_head_uses_custom_genesis():
    assert AuditChain(genesis="ab" * 32).head() == "ab" * 32


def test_append_returns_expected_digest():
    chain = AuditChain()
    expected = sha(f"0|100|ada|{sha('login')}|{GENESIS}")
    assert chain.append("ada", "login", 100) == expected
    assert chain.head() == expected


def test_append_links_to_previous_head():
    chain = AuditChain()
    first = chain.append("ada", "login", 100)
    second = chain.append("ada", "logout", 200)
    assert second == sha(f"1|200|ada|{sha('logout')}|{first}")
    assert chain.head() == second


def test_append_allows_equal_timestamps(log):
    assert len(log.append("bob", "logout", 120)) == 64


def test_append_rejects_backwards_timestamp(log):
    with pytest.raises(ValueError):
        log.append("bob", "logout", 119)


def test_append_rejects_empty_actor():
    with pytest.raises(ValueError):
        AuditChain().append("", "login", 1)


def test_append_rejects_pipe_in_action():
    with pytest.raises(ValueError):
        AuditChain().append("ada", "a|b", 1)


def test_append_rejects_redaction_marker():
    with pytest.raises(ValueError):
        AuditChain().append("ada", "[redacted]", 1)


def test_failed_append_does_not_change_head(log):
    head = log.head()
    with pytest.raises(ValueError):
        log.append("bob", "logout", 50)
    assert log.head() == head


def test_different_genesis_gives_different_chain():
    a = AuditChain(genesis="1" * 64).append("ada", "login", 1)
    b = AuditChain().append("ada", "login", 1)
    assert a != b


def test_first_broken_intact(log):
    assert log.first_broken() == -1


def test_first_broken_empty():
    assert AuditChain().first_broken() == -1


def test_verify_intact(log):
    assert log.verify() is True


def test_verify_empty_log():
    assert AuditChain().verify() is True


def test_redact_returns_removed_text_and_keeps_chain(log):
    assert log.redact(1) == "create user carol"
    assert log.entries_by("bob") == [(1, "[redacted]")]
    assert log.verify() is True


def test_redact_twice_raises(log):
    log.redact(0)
    with pytest.raises(ValueError):
        log.redact(0)


def test_redact_out_of_range(log):
    with pytest.raises(IndexError):
        log.redact(3)
    with pytest.raises(IndexError):
        log.redact(-1)


def test_redact_does_not_change_head(log):
    head = log.head()
    log.redact(2)
    assert log.head() == head


def test_entries_by_actor(log):
    assert log.entries_by("ada") == [(0, "login"), (2, "delete backup")]
    assert log.entries_by("zed") == []


def test_export_lines_format(log):
    lines = log.export_lines()
    first_digest = sha(f"0|100|ada|{sha('login')}|{GENESIS}")
    assert len(lines) == 3
    assert lines[0] == f"0|100|ada|login|{sha('login')}|{GENESIS}|{first_digest}"
    assert lines[1].split("|")[5] == first_digest
    assert lines[2].split("|")[6] == log.head()


def test_export_after_import_reproduces_input(log):
    lines = log.export_lines()
    copy = AuditChain()
    copy.import_lines(lines)
    assert copy.export_lines() == lines


def test_export_empty():
    assert AuditChain().export_lines() == []


def test_import_roundtrip(log):
    copy = AuditChain()
    assert copy.import_lines(log.export_lines()) == 3
    assert copy.head() == log.head()
    assert copy.entries_by("bob") == [(1, "create user carol")]


def test_import_detects_changed_action(log):
    lines = log.export_lines()
    lines[1] = lines[1].replace("create user carol", "create user mallory")
    with pytest.raises(ValueError, match="chain broken at entry 1"):
        AuditChain().import_lines(lines)


def test_import_detects_removed_entry(log):
    lines = log.export_lines()
    del lines[1]
    with pytest.raises(ValueError, match="chain broken at entry 1"):
        AuditChain().import_lines(lines)


def test_import_detects_wrong_genesis(log):
    with pytest.raises(ValueError, match="chain broken at entry 0"):
        AuditChain(genesis="f" * 64).import_lines(log.export_lines())


def test_import_detects_timestamp_going_back():
    chain = AuditChain()
    first = chain.append("ada", "login", 100)
    # a correctly linked second entry whose timestamp is earlier than the first
    h = sha("logout")
    digest = sha(f"1|50|ada|{h}|{first}")
    lines = chain.export_lines() + [f"1|50|ada|logout|{h}|{first}|{digest}"]
    with pytest.raises(ValueError, match="chain broken at entry 1"):
        AuditChain().import_lines(lines)


def test_import_detects_wrong_sequence_number(log):
    lines = log.export_lines()
    lines[0] = "5" + lines[0][1:]
    with pytest.raises(ValueError, match="chain broken at entry 0"):
        AuditChain().import_lines(lines)


def test_import_malformed_line():
    with pytest.raises(ValueError):
        AuditChain().import_lines(["0|1|ada"])


def test_import_failure_keeps_existing_entries(log):
    head = log.head()
    lines = log.export_lines()
    lines[0] = lines[0].replace("login", "logon")
    with pytest.raises(ValueError):
        log.import_lines(lines)
    assert log.head() == head
    assert log.verify() is True


def test_import_keeps_redactions_verifiable(log):
    log.redact(0)
    copy = AuditChain()
    assert copy.import_lines(log.export_lines()) == 3
    assert copy.verify() is True
    assert copy.entries_by("ada") == [(0, "[redacted]"), (2, "delete backup")]


def test_scenario_import_then_continue_appending(log):
    copy = AuditChain()
    copy.import_lines(log.export_lines())
    digest = copy.append("carol", "login", 130)
    assert copy.head() == digest
    assert copy.first_broken() == -1
    assert copy.redact(3) == "login"
    assert copy.verify() is True
    with pytest.raises(ValueError):
        copy.append("carol", "logout", 10)


def test_scenario_append_redact_export_import(log):
    log.append("bob", "logout", 150)
    log.redact(1)
    exported = log.export_lines()
    restored = AuditChain()
    restored.import_lines(exported)
    assert restored.entries_by("bob") == [(1, "[redacted]"), (3, "logout")]
    assert restored.head() == log.head()
    with pytest.raises(ValueError):
        restored.redact(1)


def test_scenario_redact_then_reimport_original_restores_text(log):
    original = log.export_lines()
    assert log.redact(2) == "delete backup"
    assert log.entries_by("ada") == [(0, "login"), (2, "[redacted]")]
    assert log.import_lines(original) == 3
    assert log.entries_by("ada") == [(0, "login"), (2, "delete backup")]
    assert log.verify() is True


def test_import_detects_changed_prev_field(log):
    lines = log.export_lines()
    fields = lines[1].split("|")
    fields[5] = "f" * 64
    lines[1] = "|".join(fields)
    with pytest.raises(ValueError, match="chain broken at entry 1"):
        AuditChain().import_lines(lines)


def test_entry_without_timestamp_is_stamped_by_the_clock():
    chain = AuditChain()
    assert chain.set_clock(300) == 0
    chain.append("ada", "login")
    assert chain.export_lines()[0].split("|")[1] == "300"


def test_clock_starts_at_zero():
    chain = AuditChain()
    chain.append("ada", "login")
    assert chain.export_lines()[0].split("|")[1] == "0"


def test_clock_may_not_go_backwards():
    chain = AuditChain()
    chain.set_clock(50)
    with pytest.raises(ValueError):
        chain.set_clock(49)
    assert chain.set_clock(50) == 50


def test_clock_behind_the_last_entry_is_refused_on_append(log):
    with pytest.raises(ValueError):
        log.append("ada", "logout")
    log.set_clock(130)
    log.append("ada", "logout")
    assert log.verify()
