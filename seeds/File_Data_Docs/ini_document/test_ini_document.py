import pytest

from ini_document import IniDocument


SAMPLE = """# service configuration
[server]
host = example.org
Port = 8443
tls = on
base = https://${host}:${port}

[client]
retries = 3
mirrors = a.example, b.example , ,c.example
endpoint = ${server:base}/api
"""


@pytest.fixture
def doc():
    d = IniDocument()
    d.parse(SAMPLE)
    return d


def test_parse_counts_key_lines():
    assert IniDocument().parse(SAMPLE) == 7


def test_parse_lowercases_keys_and_strips_values():
    d = IniDocument()
    d.parse("[s]\n  Name   =   Alice  \n")
    assert d.get("s", "name") == "Alice"


def test_parse_keeps_equals_sign_inside_value():
    d = IniDocument()
    d.parse("[q]\nfilter = a=b\n")
    assert d.get("q", "filter") == "a=b"


def test_parse_skips_comments_and_blank_lines():
    d = IniDocument()
    assert d.parse("; one\n\n# two\n[s]\n") == 0
    assert d.render() == "[s]\n"


def test_parse_later_key_overrides_earlier():
    d = IniDocument()
    d.parse("[s]\nk = 1\nk = 2\n")
    assert d.get("s", "k") == "2"


def test_parse_merges_into_existing_section():
    d = IniDocument()
    d.parse("[s]\na = 1\n")
    d.parse("[s]\nb = 2\n")
    assert d.render() == "[s]\na = 1\nb = 2\n"


def test_parse_key_before_section_raises():
    with pytest.raises(ValueError):
        IniDocument().parse("orphan = 1\n[s]\n")


def test_parse_malformed_line_raises():
    with pytest.raises(ValueError):
        IniDocument().parse("[s]\njust words\n")


def test_parse_value_ending_in_bracket_is_not_a_section():
    d = IniDocument()
    d.parse("[s]\nports = [80, 443]\n")
    assert d.render() == "[s]\nports = [80, 443]\n"


def test_get_expands_same_section_reference(doc):
    assert doc.get("server", "base") == "https://example.org:8443"


def test_get_expands_cross_section_reference_recursively(doc):
    assert doc.get("client", "endpoint") == "https://example.org:8443/api"


def test_get_is_case_insensitive_for_key(doc):
    assert doc.get("server", "HOST") == "example.org"


def test_get_missing_key_raises_key_error(doc):
    with pytest.raises(KeyError):
        doc.get("server", "timeout")


def test_get_missing_section_raises_key_error(doc):
    with pytest.raises(KeyError):
        doc.get("cache", "size")


def test_get_dangling_reference_raises_key_error():
    d = IniDocument()
    d.parse("[s]\na = ${missing}\n")
    with pytest.raises(KeyError):
        d.get("s", "a")


def test_get_reference_cycle_raises_value_error():
    d = IniDocument()
    d.parse("[s]\na = ${b}\nb = x${a}\n")
    with pytest.raises(ValueError):
        d.get("s", "a")


def test_get_same_reference_twice_is_not_a_cycle():
    d = IniDocument()
    d.parse("[s]\nw = ab\npair = ${w}-${w}\n")
    assert d.get("s", "pair") == "ab-ab"


def test_get_int_reads_number(doc):
    assert doc.get_int("client", "retries") == 3


def test_get_int_missing_returns_default(doc):
    assert doc.get_int("client", "timeout", 30) == 30


def test_get_int_non_number_raises(doc):
    with pytest.raises(ValueError):
        doc.get_int("server", "host")


def test_get_bool_recognises_words(doc):
    doc.set("flags", "a", "YES")
    doc.set("flags", "b", "off")
    doc.set("flags", "c", "1")
    assert [doc.get_bool("server", "tls"), doc.get_bool("flags", "a"),
            doc.get_bool("flags", "b"), doc.get_bool("flags", "c")] == [True, True, False, True]


def test_get_bool_missing_returns_default(doc):
    assert doc.get_bool("server", "http2", True) is True


def test_get_bool_unknown_word_raises(doc):
    doc.set("flags", "mode", "maybe")
    with pytest.raises(ValueError):
        doc.get_bool("flags", "mode")


def test_get_list_drops_empty_items(doc):
    assert doc.get_list("client", "mirrors") == ["a.example", "b.example", "c.example"]


def test_get_list_missing_key_is_empty(doc):
    assert doc.get_list("client", "proxies") == []


def test_get_list_expands_references():
    d = IniDocument()
    d.parse("[n]\nzone = eu\nnodes = ${zone}-1, ${zone}-2\n")
    assert d.get_list("n", "nodes") == ["eu-1", "eu-2"]


def test_has_reports_presence(doc):
    assert (doc.has("server", "Port"), doc.has("server", "user"), doc.has("nope", "x")) == (True, False, False)


def test_set_creates_section_and_lowercases_key():
    d = IniDocument()
    d.set("cache", "Size", "64")
    assert d.render() == "[cache]\nsize = 64\n"


def test_set_keeps_reference_raw_but_get_expands(doc):
    doc.set("client", "health", "${endpoint}/health")
    assert doc.get("client", "health") == "https://example.org:8443/api/health"


def test_set_changes_value_seen_through_references(doc):
    doc.set("server", "host", "internal.lan")
    assert doc.get("client", "endpoint") == "https://internal.lan:8443/api"


def test_set_rejects_key_with_equals():
    with pytest.raises(ValueError):
        IniDocument().set("s", "a=b", "1")


def test_set_rejects_empty_key():
    with pytest.raises(ValueError):
        IniDocument().set("s", "  ", "1")


def test_set_rejects_multiline_value():
    with pytest.raises(ValueError):
        IniDocument().set("s", "k", "1\n2")


def test_remove_key(doc):
    assert doc.remove("client", "retries") is True
    assert doc.get_int("client", "retries", -1) == -1


def test_remove_missing_key_returns_false(doc):
    assert doc.remove("client", "nothing") is False


def test_remove_whole_section(doc):
    assert doc.remove("client") is True
    assert doc.render().startswith("[server]\n")
    assert "[client]" not in doc.render()


def test_remove_missing_section_returns_false(doc):
    assert doc.remove("ghost") is False


def test_render_empty_document():
    assert IniDocument().render() == ""


def test_render_writes_raw_values_in_insertion_order(doc):
    assert doc.render() == (
        "[server]\nhost = example.org\nport = 8443\ntls = on\nbase = https://${host}:${port}\n"
        "\n"
        "[client]\nretries = 3\nmirrors = a.example, b.example , ,c.example\nendpoint = ${server:base}/api\n"
    )


def test_render_then_parse_round_trips():
    first = IniDocument()
    first.set("a", "x", "1")
    first.set("b", "y", "${a:x}2")
    second = IniDocument()
    assert second.parse(first.render()) == 2
    assert second.get("b", "y") == "12"


def test_scenario_edit_configuration_and_read_back():
    d = IniDocument()
    d.set("db", "host", "localhost")
    d.set("db", "port", "5432")
    d.set("db", "dsn", "pg://${host}:${port}/app")
    assert d.get("db", "dsn") == "pg://localhost:5432/app"
    d.parse("[db]\nport = 6543\n[features]\nbeta = true\n")
    assert d.get_int("db", "port") == 6543
    assert d.get_bool("features", "beta") is True
    assert d.remove("db", "host") is True
    with pytest.raises(KeyError):
        d.get("db", "dsn")
    d.set("db", "host", "db.lan")
    assert d.get("db", "dsn") == "pg://db.lan:6543/app"
    assert d.render() == "[db]\nport = 6543\ndsn = pg://${host}:${port}/app\nhost = db.lan\n\n[features]\nbeta = true\n"


def test_scenario_remove_section_then_reparse(doc):
    doc.remove("server")
    assert doc.has("server", "host") is False
    assert doc.get_list("client", "mirrors") == ["a.example", "b.example", "c.example"]
    doc.parse("[server]\nhost = h\nport = 1\nbase = ${host}/${port}\n")
    assert doc.get("client", "endpoint") == "h/1/api"
    doc.set("client", "retries", "5")
    assert doc.get_int("client", "retries") == 5
    doc.remove("client", "retries")
    doc.parse("[client]\nretries = 7\n")
    assert doc.get_int("client", "retries") == 7
