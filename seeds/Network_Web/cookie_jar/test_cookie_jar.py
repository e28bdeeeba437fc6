import pytest

from cookie_jar import CookieJar


def test_domain_matches_exact_and_subdomain():
    jar = CookieJar()
    assert [jar.domain_matches("example.com", "example.com"),
            jar.domain_matches("WWW.Example.com", "example.COM"),
            jar.domain_matches("example.com", "www.example.com"),
            jar.domain_matches("notexample.com", "example.com")] == [True, True, False, False]


def test_path_matches_rules():
    jar = CookieJar()
    assert [jar.path_matches("/", "/"),
            jar.path_matches("/shop/cart", "/shop"),
            jar.path_matches("/shop/cart", "/shop/"),
            jar.path_matches("/shopping", "/shop"),
            jar.path_matches("/", "/shop")] == [True, True, True, False, False]


def test_set_from_header_returns_name_and_stores_host_only_cookie():
    jar = CookieJar()
    assert jar.set_from_header("http://www.example.com/", "lang=de", 0) == "lang"
    assert jar.names() == ["www.example.com / lang"]
    assert jar.cookie_header("http://sub.www.example.com/", 0) == ""


def test_set_from_header_default_path_is_request_directory():
    jar = CookieJar()
    jar.set_from_header("http://a.example/docs/api/index.html", "v=1", 0)
    assert jar.names() == ["a.example /docs/api v"]


def test_set_from_header_default_path_for_top_level_file_is_root():
    jar = CookieJar()
    jar.set_from_header("http://a.example/index.html", "v=1", 0)
    assert jar.names() == ["a.example / v"]


def test_set_from_header_domain_attribute_covers_subdomains():
    jar = CookieJar()
    jar.set_from_header("https://login.example.com/", "sso=t0k; Domain=.Example.com; Path=/", 0)
    assert jar.cookie_header("https://mail.example.com/inbox", 0) == "sso=t0k"


def test_set_from_header_foreign_domain_raises():
    with pytest.raises(ValueError):
        CookieJar().set_from_header("https://example.com/", "x=1; Domain=evil.test", 0)


def test_set_from_header_domain_of_subdomain_raises():
    with pytest.raises(ValueError):
        CookieJar().set_from_header("https://example.com/", "x=1; Domain=www.example.com", 0)


def test_set_from_header_without_equals_raises():
    with pytest.raises(ValueError):
        CookieJar().set_from_header("http://a.example/", "justtext", 0)


def test_set_from_header_empty_name_raises():
    with pytest.raises(ValueError):
        CookieJar().set_from_header("http://a.example/", "=v; Path=/", 0)


def test_set_from_header_bad_max_age_raises():
    with pytest.raises(ValueError):
        CookieJar().set_from_header("http://a.example/", "a=1; Max-Age=soon", 0)


def test_set_from_header_secure_over_http_raises():
    with pytest.raises(ValueError):
        CookieJar().set_from_header("http://a.example/", "a=1; Secure", 0)


def test_set_from_header_ignores_unknown_attributes_and_relative_path():
    jar = CookieJar()
    jar.set_from_header("http://a.example/x/y", "a=1; HttpOnly; SameSite=Lax; Path=rel", 0)
    assert jar.names() == ["a.example /x a"]


def test_set_from_header_strips_spaces_around_name_and_value():
    jar = CookieJar()
    assert jar.set_from_header("http://a.example/", "  pref = compact ; Path=/", 0) == "pref"
    assert jar.cookie_header("http://a.example/", 0) == "pref=compact"


def test_set_from_header_bare_dot_domain_keeps_cookie_host_only():
    jar = CookieJar()
    jar.set_from_header("http://www.a.example/", "x=1; Domain=.; Path=/", 0)
    assert jar.names() == ["www.a.example / x"]
    assert jar.cookie_header("http://sub.www.a.example/", 0) == ""


def test_set_from_header_value_may_contain_equals():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "token=ab==; Path=/", 0)
    assert jar.cookie_header("http://a.example/", 0) == "token=ab=="


def test_set_from_header_replaces_value_keeps_order():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "first=1; Path=/", 0)
    jar.set_from_header("http://a.example/", "second=2; Path=/", 0)
    jar.set_from_header("http://a.example/", "first=9; Path=/", 5)
    assert jar.cookie_header("http://a.example/", 5) == "first=9; second=2"


def test_set_from_header_zero_max_age_deletes():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "sid=1; Path=/", 0)
    assert jar.set_from_header("http://a.example/", "sid=; Path=/; Max-Age=0", 10) == "sid"
    assert jar.names() == []


def test_set_from_header_negative_max_age_for_unknown_cookie_is_noop():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "gone=1; Max-Age=-5", 0)
    assert jar.names() == []


def test_cookies_for_orders_longer_path_first():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "root=1; Path=/", 0)
    jar.set_from_header("http://a.example/", "deep=2; Path=/app/admin", 0)
    jar.set_from_header("http://a.example/", "mid=3; Path=/app", 0)
    assert jar.cookies_for("http://a.example/app/admin/users", 0) == ["deep=2", "mid=3", "root=1"]


def test_cookies_for_skips_expired():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "short=1; Path=/; Max-Age=30", 100)
    jar.set_from_header("http://a.example/", "long=2; Path=/; Max-Age=300", 100)
    assert jar.cookies_for("http://a.example/", 130) == ["long=2"]


def test_cookies_for_secure_only_over_https():
    jar = CookieJar()
    jar.set_from_header("https://a.example/", "s=1; Path=/; Secure", 0)
    jar.set_from_header("https://a.example/", "p=2; Path=/", 0)
    assert (jar.cookies_for("http://a.example/", 0), jar.cookies_for("https://a.example/", 0)) == (["p=2"], ["s=1", "p=2"])


def test_cookies_for_other_host_is_empty():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "a=1", 0)
    assert jar.cookies_for("http://b.example/", 0) == []


def test_cookie_header_empty_jar():
    assert CookieJar().cookie_header("http://a.example/", 0) == ""


def test_purge_expired_removes_only_ended_cookies():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "a=1; Max-Age=10", 0)
    jar.set_from_header("http://a.example/", "b=1; Max-Age=20", 0)
    jar.set_from_header("http://a.example/", "c=1", 0)
    assert jar.purge_expired(15) == 1
    assert jar.names() == ["a.example / b", "a.example / c"]


def test_end_session_keeps_persistent_cookies():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "keep=1; Max-Age=999", 0)
    jar.set_from_header("http://a.example/", "tmp=1", 0)
    assert jar.end_session() == 1
    assert jar.cookie_header("http://a.example/", 1) == "keep=1"


def test_names_sorted_across_domains():
    jar = CookieJar()
    jar.set_from_header("http://b.example/", "z=1", 0)
    jar.set_from_header("http://a.example/", "y=1", 0)
    assert jar.names() == ["a.example / y", "b.example / z"]


def test_scenario_login_browse_logout():
    jar = CookieJar()
    jar.set_from_header("https://app.example/login", "sid=s1; Path=/; Secure; Max-Age=3600", 0)
    jar.set_from_header("https://app.example/login", "csrf=c1; Path=/", 0)
    jar.set_from_header("https://static.app.example/", "cdn=x; Domain=app.example; Path=/assets", 0)
    assert jar.cookie_header("https://app.example/assets/app.js", 10) == "cdn=x; sid=s1; csrf=c1"
    assert jar.cookies_for("http://app.example/home", 10) == ["csrf=c1"]
    jar.set_from_header("https://app.example/logout", "sid=; Path=/; Max-Age=0", 20)
    assert jar.cookie_header("https://app.example/", 21) == "csrf=c1"
    assert jar.end_session() == 2
    assert jar.names() == []


def test_scenario_expiry_then_refresh():
    jar = CookieJar()
    jar.set_from_header("http://a.example/", "t=1; Path=/; Max-Age=10", 0)
    jar.set_from_header("http://a.example/", "u=1; Path=/", 0)
    assert jar.cookie_header("http://a.example/", 10) == "u=1"
    assert jar.purge_expired(10) == 1
    jar.set_from_header("http://a.example/", "t=2; Path=/; Max-Age=10", 11)
    assert jar.cookies_for("http://a.example/", 12) == ["u=1", "t=2"]
    assert jar.end_session() == 1
    jar.set_from_header("http://a.example/", "v=1; Path=/", 12)
    assert jar.purge_expired(21) == 1
    assert jar.names() == ["a.example / v"]
