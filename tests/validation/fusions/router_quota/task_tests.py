import pytest

from router_quota import MeteredRouter


@pytest.fixture
def router():
    router = MeteredRouter(daily_units=5)
    router.add_route("/search", "search", cost=2)
    router.add_route("/home", "home")
    return router


def test_each_request_uses_its_routes_cost(router):
    assert router.remaining("ann") == 5
    assert router.dispatch("ann", "/search") == "search"
    assert router.remaining("ann") == 3
    assert router.dispatch("ann", "/home") == "home"
    assert router.remaining("ann") == 2
    assert router.remaining("bo") == 5
    assert router.served_count("/search") == 1


def test_a_spent_quota_refuses_the_request(router):
    router.dispatch("ann", "/search")
    router.dispatch("ann", "/search")
    with pytest.raises(PermissionError):
        router.dispatch("ann", "/search")
    assert router.served_count("/search") == 2
    assert router.remaining("ann") == 1
    assert router.dispatch("ann", "/home") == "home"
    assert router.remaining("ann") == 0


def test_a_new_day_restores_the_quota(router):
    router.dispatch("ann", "/search")
    router.dispatch("bo", "/home")
    assert router.new_day() == 2
    assert router.remaining("ann") == 5
    assert router.new_day() == 0
    router.dispatch("ann", "/home")
    assert router.remaining("ann") == 4


def test_unknown_and_duplicate_routes(router):
    with pytest.raises(KeyError):
        router.dispatch("ann", "/admin")
    with pytest.raises(ValueError):
        router.add_route("/home", "other")
    with pytest.raises(ValueError):
        router.add_route("/free", "free", cost=0)
    assert router.served_count("/admin") == 0
