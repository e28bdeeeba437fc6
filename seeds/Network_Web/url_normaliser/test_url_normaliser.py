import pytest

from url_normaliser import UrlNormaliser


def test_normalise_lowercases_scheme_and_host_not_path():
    assert UrlNormaliser().normalise("HTTPS://News.Example.ORG/World/Index.html") == "https://news.example.org/World/Index.html"


def test_normalise_removes_default_port():
    assert UrlNormaliser().normalise("http://example.org:80/a") == "http://example.org/a"


def test_normalise_keeps_non_default_port():
    assert UrlNormaliser().normalise("https://example.org:80/") == "https://example.org:80/"


def test_normalise_adds_root_path():
    assert UrlNormaliser().normalise("http://example.org") == "http://example.org/"


def test_normalise_drops_fragment_and_credentials_host_only():
    assert UrlNormaliser().normalise("http://user:pw@example.org/p#section") == "http://example.org/p"


def test_normalise_sorts_query_and_strips_tracking():
    url = "http://shop.example/list?page=2&utm_medium=mail&color=red&gclid=abc&fbclid=z"
    assert UrlNormaliser().normalise(url) == "http://shop.example/list?color=red&page=2"


def test_normalise_drops_empty_query():
    assert UrlNormaliser().normalise("http://a.org/x?&&") == "http://a.org/x"


def test_normalise_query_of_only_tracking_params_disappears():
    assert UrlNormaliser().normalise("http://a.org/?utm_source=feed") == "http://a.org/"


def test_normalise_decodes_unreserved_escapes_and_uppercases_others():
    assert UrlNormaliser().normalise("http://a.org/%7Ejo/%41%2d%2f%e2%82%ac") == "http://a.org/~jo/A-%2F%E2%82%AC"


def test_normalise_resolves_dot_segments():
    assert UrlNormaliser().normalise("http://a.org/a/b/../../c/./d") == "http://a.org/c/d"


def test_normalise_strips_surrounding_whitespace():
    assert UrlNormaliser().normalise("  http://a.org/x \n") == "http://a.org/x"


def test_normalise_rejects_other_schemes():
    with pytest.raises(ValueError):
        UrlNormaliser().normalise("ftp://files.example/x")


def test_normalise_rejects_relative_url():
    with pytest.raises(ValueError):
        UrlNormaliser().normalise("/just/a/path")


def test_normalise_rejects_missing_host():
    with pytest.raises(ValueError):
        UrlNormaliser().normalise("http:///nohost")


def test_normalise_rejects_bad_port():
    with pytest.raises(ValueError):
        UrlNormaliser().normalise("http://a.org:http/")


def test_remove_dot_segments_rfc_examples():
    norm = UrlNormaliser()
    assert [norm.remove_dot_segments(p) for p in ("/a/b/c/./../../g", "/mid/content=5/../6", "/a/b/.")] == [
        "/a/g", "/mid/6", "/a/b/"]


def test_remove_dot_segments_cannot_climb_above_root():
    assert UrlNormaliser().remove_dot_segments("/../../etc") == "/etc"


def test_remove_dot_segments_trailing_dotdot_keeps_slash():
    assert UrlNormaliser().remove_dot_segments("/a/b/..") == "/a/"


def test_remove_dot_segments_relative_input_gets_leading_slash():
    assert UrlNormaliser().remove_dot_segments("a/./b") == "/a/b"


def test_add_strip_pattern_reports_duplicates():
    norm = UrlNormaliser()
    assert (norm.add_strip_pattern("sid"), norm.add_strip_pattern("sid"), norm.add_strip_pattern("gclid")) == (True, False, False)


def test_add_strip_pattern_empty_raises():
    with pytest.raises(ValueError):
        UrlNormaliser().add_strip_pattern("")


def test_add_strip_pattern_changes_normal_form():
    norm = UrlNormaliser()
    before = norm.normalise("http://a.org/?sid=1&x=2")
    norm.add_strip_pattern("sid")
    assert (before, norm.normalise("http://a.org/?sid=1&x=2")) == ("http://a.org/?sid=1&x=2", "http://a.org/?x=2")


def test_add_strip_pattern_is_case_sensitive():
    norm = UrlNormaliser()
    norm.add_strip_pattern("ref")
    assert norm.normalise("http://a.org/?REF=1&ref=2") == "http://a.org/?REF=1"


def test_equivalent_true_for_cosmetic_differences():
    assert UrlNormaliser().equivalent("HTTP://a.org:80/x/../y?b=1&a=2#f", "http://A.ORG/y?a=2&b=1") is True


def test_equivalent_false_for_different_paths():
    assert UrlNormaliser().equivalent("http://a.org/Y", "http://a.org/y") is False


def test_equivalent_false_for_different_schemes():
    assert UrlNormaliser().equivalent("http://a.org/", "https://a.org/") is False


def test_equivalent_invalid_url_raises():
    with pytest.raises(ValueError):
        UrlNormaliser().equivalent("http://a.org/", "mailto:x@a.org")


def test_resolve_relative_path():
    assert UrlNormaliser().resolve("http://a.org/blog/2026/post.html", "../2025/old.html") == "http://a.org/blog/2025/old.html"


def test_resolve_protocol_relative_link():
    assert UrlNormaliser().resolve("https://a.org/x", "//CDN.a.org/lib.js?v=3&utm_source=x") == "https://cdn.a.org/lib.js?v=3"


def test_resolve_query_only_link():
    assert UrlNormaliser().resolve("http://a.org/list?page=1", "?page=2") == "http://a.org/list?page=2"


def test_resolve_absolute_link_ignores_base():
    assert UrlNormaliser().resolve("http://a.org/", "HTTPS://b.org:443") == "https://b.org/"


def test_resolve_mailto_raises():
    with pytest.raises(ValueError):
        UrlNormaliser().resolve("http://a.org/", "mailto:team@a.org")


def test_remember_detects_equivalent_urls():
    norm = UrlNormaliser()
    assert [norm.remember(u) for u in ("http://a.org/p?x=1", "http://A.org/p?x=1#c", "http://a.org/q")] == [True, False, True]


def test_remember_invalid_url_raises_and_records_nothing():
    norm = UrlNormaliser()
    with pytest.raises(ValueError):
        norm.remember("javascript:void(0)")
    assert norm.seen_urls() == []


def test_seen_urls_in_first_seen_order():
    norm = UrlNormaliser()
    for url in ("http://c.org", "http://a.org", "http://b.org", "http://a.org/"):
        norm.remember(url)
    assert norm.seen_urls() == ["http://c.org/", "http://a.org/", "http://b.org/"]


def test_seen_urls_with_min_count():
    norm = UrlNormaliser()
    for url in ("http://a.org/1", "http://a.org/2", "http://a.org/1#x", "http://a.org/./1"):
        norm.remember(url)
    assert norm.seen_urls(3) == ["http://a.org/1"]


def test_seen_urls_empty_initially():
    assert UrlNormaliser().seen_urls() == []


def test_scenario_crawler_frontier():
    norm = UrlNormaliser()
    page = "https://docs.example/guide/intro.html"
    links = ["setup.html", "./setup.html#install", "../guide/setup.html?utm_campaign=x",
             "/guide/intro.html", "advanced.html?session=42", "https://DOCS.example:443/guide/advanced.html"]
    new = [norm.resolve(page, link) for link in links if norm.remember(norm.resolve(page, link))]
    assert new == ["https://docs.example/guide/setup.html", "https://docs.example/guide/intro.html",
                   "https://docs.example/guide/advanced.html?session=42", "https://docs.example/guide/advanced.html"]
    assert norm.add_strip_pattern("session") is True
    assert norm.remember("https://docs.example/guide/advanced.html?session=43") is False
    assert norm.equivalent(new[2], new[3]) is True
    assert norm.seen_urls(2) == ["https://docs.example/guide/setup.html", "https://docs.example/guide/advanced.html"]


def test_scenario_remember_before_and_after_new_strip_pattern():
    norm = UrlNormaliser()
    assert norm.remember("http://a.org/?ref=nav&id=1") is True
    norm.add_strip_pattern("ref")
    assert norm.remember("http://a.org/?id=1&ref=footer") is True
    assert norm.remember("http://a.org/?ref=side&id=1") is False
    assert norm.seen_urls() == ["http://a.org/?id=1&ref=nav", "http://a.org/?id=1"]
    assert norm.remove_dot_segments("/x/../y") == "/y"
