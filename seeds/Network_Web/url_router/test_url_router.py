import pytest

from url_router import UrlRouter


@pytest.fixture
def api():
    router = UrlRouter()
    router.add_route("GET", "/", "home")
    router.add_route("GET", "/users/new", "user_form")
    router.add_route("GET", "/users/{uid:int}", "user_show")
    router.add_route("PUT", "/users/{uid:int}", "user_update")
    router.add_route("GET", "/users/{uid:int}/posts/{slug}", "post_show")
    router.add_route("GET", "/static/{asset:path}", "static")
    return router


def test_add_route_uppercases_method():
    router = UrlRouter()
    router.add_route("patch", "/a", "a")
    assert router.describe() == ["PATCH /a -> a"]


def test_add_route_duplicate_name_raises(api):
    with pytest.raises(ValueError):
        api.add_route("POST", "/other", "home")


def test_add_route_pattern_without_slash_raises():
    with pytest.raises(ValueError):
        UrlRouter().add_route("GET", "users", "users")


def test_add_route_unknown_converter_raises():
    with pytest.raises(ValueError):
        UrlRouter().add_route("GET", "/n/{x:uuid}", "n")


def test_add_route_repeated_parameter_raises():
    with pytest.raises(ValueError):
        UrlRouter().add_route("GET", "/{a}/{a}", "twice")


def test_match_static_route(api):
    assert api.match("GET", "/") == ("home", {})


def test_match_int_parameter(api):
    assert api.match("GET", "/users/15") == ("user_show", {"uid": "15"})


def test_match_earlier_static_route_wins(api):
    assert api.match("GET", "/users/new") == ("user_form", {})


def test_match_int_converter_rejects_letters(api):
    with pytest.raises(KeyError):
        api.match("GET", "/users/abc")


def test_match_two_parameters(api):
    assert api.match("GET", "/users/3/posts/hello-world") == ("post_show", {"uid": "3", "slug": "hello-world"})


def test_match_str_parameter_does_not_cross_slash(api):
    with pytest.raises(KeyError):
        api.match("GET", "/users/3/posts/a/b")


def test_match_path_parameter_takes_rest(api):
    assert api.match("GET", "/static/css/site.css") == ("static", {"asset": "css/site.css"})


def test_match_ignores_query_string(api):
    assert api.match("GET", "/users/8?tab=info") == ("user_show", {"uid": "8"})


def test_match_method_is_case_insensitive(api):
    assert api.match("put", "/users/8") == ("user_update", {"uid": "8"})


def test_match_wrong_method_raises_value_error(api):
    with pytest.raises(ValueError, match="GET, PUT"):
        api.match("DELETE", "/users/8")


def test_match_unknown_path_raises_key_error(api):
    with pytest.raises(KeyError):
        api.match("GET", "/nowhere")


def test_match_dots_in_pattern_are_literal():
    router = UrlRouter()
    router.add_route("GET", "/feed.xml", "feed")
    with pytest.raises(KeyError):
        router.match("GET", "/feedxxml")


def test_allowed_methods_collects_all_matching_routes(api):
    assert api.allowed_methods("/users/5") == ["GET", "PUT"]


def test_allowed_methods_unknown_path_is_empty(api):
    assert api.allowed_methods("/missing") == []


def test_url_for_fills_parameters(api):
    assert api.url_for("post_show", {"uid": "12", "slug": "intro"}) == "/users/12/posts/intro"


def test_url_for_static_route(api):
    assert api.url_for("home", {}) == "/"


def test_url_for_path_parameter_keeps_slashes(api):
    assert api.url_for("static", {"asset": "img/logo.png"}) == "/static/img/logo.png"


def test_url_for_unknown_name_raises_key_error(api):
    with pytest.raises(KeyError):
        api.url_for("admin", {})


def test_url_for_missing_parameter_raises_key_error(api):
    with pytest.raises(KeyError):
        api.url_for("post_show", {"uid": "1"})


def test_url_for_extra_parameter_raises_value_error(api):
    with pytest.raises(ValueError):
        api.url_for("user_show", {"uid": "1", "tab": "x"})


def test_url_for_value_rejected_by_converter_raises_value_error(api):
    with pytest.raises(ValueError):
        api.url_for("user_show", {"uid": "me"})


def test_url_for_slash_in_segment_parameter_raises_value_error(api):
    with pytest.raises(ValueError):
        api.url_for("post_show", {"uid": "1", "slug": "a/b"})


def test_remove_route_unregisters(api):
    assert api.remove_route("user_update") is True
    assert api.allowed_methods("/users/5") == ["GET"]


def test_remove_route_unknown_returns_false(api):
    assert api.remove_route("nope") is False


def test_hit_counts_start_at_zero(api):
    assert api.hit_counts() == {"home": 0, "user_form": 0, "user_show": 0, "user_update": 0, "post_show": 0, "static": 0}


def test_hit_counts_not_increased_by_failed_match(api):
    with pytest.raises(ValueError):
        api.match("POST", "/")
    assert api.hit_counts()["home"] == 0


def test_describe_lists_routes_in_order(api):
    assert api.describe()[:3] == ["GET / -> home", "GET /users/new -> user_form", "GET /users/{uid:int} -> user_show"]


def test_describe_empty_router():
    assert UrlRouter().describe() == []


def test_scenario_serve_requests_and_count_hits(api):
    for path in ("/", "/users/1", "/users/2", "/static/app.js"):
        api.match("GET", path)
    name, params = api.match("PUT", "/users/2")
    assert (name, params) == ("user_update", {"uid": "2"})
    assert api.url_for(name, params) == "/users/2"
    assert api.hit_counts() == {"home": 1, "user_form": 0, "user_show": 2, "user_update": 1, "post_show": 0, "static": 1}


def test_scenario_replace_route_resets_its_counter(api):
    api.match("GET", "/users/4")
    assert api.remove_route("user_show") is True
    with pytest.raises(ValueError):
        api.match("GET", "/users/4")
    api.add_route("GET", "/users/{name}", "user_show")
    assert api.match("GET", "/users/alice") == ("user_show", {"name": "alice"})
    assert api.url_for("user_show", {"name": "bob"}) == "/users/bob"
    assert api.allowed_methods("/users/4") == ["GET", "PUT"]
    assert api.hit_counts()["user_show"] == 1
    assert api.describe()[-1] == "GET /users/{name} -> user_show"
    assert api.remove_route("user_show") is True
    assert api.describe()[-1] == "GET /static/{asset:path} -> static"
    assert api.hit_counts() == {"home": 0, "user_form": 0, "user_update": 0, "post_show": 0, "static": 0}
