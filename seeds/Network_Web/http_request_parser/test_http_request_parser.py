import pytest

from http_request_parser import HttpRequestParser


FORM_POST = (
    "POST /login?next=%2Fhome HTTP/1.1\r\n"
    "Host: app.example\r\n"
    "Content-Type: application/x-www-form-urlencoded\r\n"
    "Content-Length: 27\r\n"
    "Cookie: sid=7f3a; lang=en\r\n"
    "\r\n"
    "user=ann&password=s3cret%21"
)


def parsed(text):
    parser = HttpRequestParser()
    parser.feed(text)
    return parser


def test_feed_whole_message_at_once():
    parser = HttpRequestParser()
    assert parser.feed(FORM_POST) is True
    assert (parser.method, parser.target, parser.version) == ("POST", "/login?next=%2Fhome", "HTTP/1.1")
    assert parser.body == "user=ann&password=s3cret%21"


def test_feed_one_character_at_a_time():
    parser = HttpRequestParser()
    results = [parser.feed(ch) for ch in FORM_POST]
    assert results[-1] is True
    assert results.count(True) == 1
    assert parser.header("content-type") == "application/x-www-form-urlencoded"


def test_feed_without_body_completes_at_blank_line():
    parser = HttpRequestParser()
    assert parser.feed("GET / HTTP/1.1\r\nHost: a\r\n") is False
    assert parser.is_complete() is False
    assert parser.feed("\r\n") is True


def test_feed_accepts_bare_newlines():
    parser = HttpRequestParser()
    assert parser.feed("DELETE /items/4 HTTP/1.1\nHost: a\n\n") is True
    assert parser.method == "DELETE"


def test_feed_waits_for_full_body():
    parser = HttpRequestParser()
    assert parser.feed("PUT /doc HTTP/1.1\r\nContent-Length: 4\r\n\r\nab") is False
    assert parser.body == ""
    assert parser.feed("cd") is True
    assert parser.body == "abcd"


def test_feed_malformed_request_line_raises():
    with pytest.raises(ValueError):
        HttpRequestParser().feed("GET /\r\n")


def test_feed_empty_target_raises():
    with pytest.raises(ValueError):
        HttpRequestParser().feed("GET  HTTP/1.1\r\n")


def test_feed_unknown_method_raises():
    with pytest.raises(ValueError):
        HttpRequestParser().feed("BREW /pot HTTP/1.1\r\n")


def test_feed_unsupported_version_raises():
    with pytest.raises(ValueError):
        HttpRequestParser().feed("GET / HTTP/2.0\r\n")


def test_feed_header_without_colon_raises():
    with pytest.raises(ValueError):
        HttpRequestParser().feed("GET / HTTP/1.1\r\nBadHeader\r\n")


def test_feed_header_with_space_before_colon_raises():
    with pytest.raises(ValueError):
        HttpRequestParser().feed("GET / HTTP/1.1\r\nHost : a\r\n")


def test_feed_body_longer_than_content_length_raises():
    with pytest.raises(ValueError):
        HttpRequestParser().feed("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nabc")


def test_feed_after_complete_message_raises():
    parser = parsed("GET / HTTP/1.1\r\n\r\n")
    with pytest.raises(ValueError):
        parser.feed("X-Late: 1\r\n")
    with pytest.raises(KeyError):
        parser.header("x-late")


def test_feed_partial_request_line_leaves_fields_empty():
    parser = HttpRequestParser()
    assert parser.feed("GET /inde") is False
    assert (parser.method, parser.target, parser.version, parser.body) == ("", "", "", "")
    assert parser.feed("x HTTP/1.1\r\n\r\n") is True
    assert parser.target == "/index"


def test_is_complete_after_message():
    assert parsed("HEAD / HTTP/1.0\r\n\r\n").is_complete() is True


def test_header_is_case_insensitive():
    assert parsed(FORM_POST).header("HOST") == "app.example"


def test_header_repeated_values_are_joined():
    parser = parsed("GET / HTTP/1.1\r\nVia: a\r\nX: 1\r\nvia: b\r\n\r\n")
    assert parser.header("Via") == "a, b"


def test_header_missing_raises_key_error():
    with pytest.raises(KeyError):
        parsed(FORM_POST).header("Authorization")


def test_content_length_defaults_to_zero():
    assert parsed("GET / HTTP/1.1\r\n\r\n").content_length() == 0


def test_content_length_reads_header():
    assert parsed(FORM_POST).content_length() == 27


def test_content_length_invalid_raises():
    parser = HttpRequestParser()
    with pytest.raises(ValueError):
        parser.feed("POST / HTTP/1.1\r\nContent-Length: -3\r\n\r\n")
    with pytest.raises(ValueError):
        parser.content_length()


def test_path_is_decoded_without_query():
    assert parsed("GET /a%2Fb/c%C3%A9?x=1 HTTP/1.1\r\n\r\n").path() == "/a/b/cé"


def test_query_params_decodes_values():
    assert parsed(FORM_POST).query_params() == {"next": ["/home"]}


def test_query_params_repeated_and_blank():
    parser = parsed("GET /s?a=1&b=&a=2&c=x+y HTTP/1.1\r\n\r\n")
    assert parser.query_params() == {"a": ["1", "2"], "b": [""], "c": ["x y"]}


def test_query_params_without_query_is_empty():
    assert parsed("GET /plain HTTP/1.1\r\n\r\n").query_params() == {}


def test_cookies_from_single_header():
    assert parsed(FORM_POST).cookies() == {"sid": "7f3a", "lang": "en"}


def test_cookies_from_repeated_headers_skip_bad_pairs():
    parser = parsed("GET / HTTP/1.1\r\nCookie: a=1; junk\r\nCookie: b=2;=x\r\n\r\n")
    assert parser.cookies() == {"a": "1", "b": "2"}


def test_cookies_absent_is_empty():
    assert parsed("GET / HTTP/1.1\r\n\r\n").cookies() == {}


def test_keep_alive_http11_default():
    assert parsed("GET / HTTP/1.1\r\n\r\n").keep_alive() is True


def test_keep_alive_http11_connection_close():
    assert parsed("GET / HTTP/1.1\r\nConnection: Upgrade, Close\r\n\r\n").keep_alive() is False


def test_keep_alive_http10_default_closes():
    assert parsed("GET / HTTP/1.0\r\n\r\n").keep_alive() is False


def test_keep_alive_http10_with_keep_alive_header():
    assert parsed("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keep_alive() is True


def test_reset_returns_unparsed_text_and_clears_state():
    parser = HttpRequestParser()
    parser.feed("GET /a HTTP/1.1\r\nHost: x\r\nAcc")
    assert parser.reset() == "Acc"
    with pytest.raises(KeyError):
        parser.header("host")
    assert parser.is_complete() is False


def test_scenario_two_requests_on_one_connection():
    parser = HttpRequestParser()
    assert parser.feed("POST /api/items HTTP/1.1\r\nContent-Length: 9\r\n\r\n") is False
    assert parser.feed('{"id": 1}') is True
    assert parser.is_complete() is True
    assert (parser.path(), parser.content_length(), parser.keep_alive()) == ("/api/items", 9, True)
    assert parser.reset() == ""
    assert parser.feed("GET /api/items?limit=5 HTTP/1.1\r\nConnection: close\r\nCookie: t=1\r\n\r\n") is True
    assert parser.query_params() == {"limit": ["5"]}
    assert parser.cookies() == {"t": "1"}
    assert parser.keep_alive() is False
    assert parser.content_length() == 0
    assert parser.body == ""


def test_scenario_inspect_headers_before_body_arrives():
    parser = HttpRequestParser()
    assert parser.feed("PATCH /u/1?dry=1 HTTP/1.1\r\nContent-Length: 3\r\nCookie: s=9\r\n\r\n") is False
    assert parser.is_complete() is False
    assert parser.content_length() == 3
    assert parser.header("cookie") == "s=9"
    assert parser.cookies() == {"s": "9"}
    assert parser.path() == "/u/1"
    assert parser.query_params() == {"dry": ["1"]}
    assert parser.keep_alive() is True
    assert parser.feed("a=b") is True
    assert parser.reset() == ""
    assert parser.path() == ""
