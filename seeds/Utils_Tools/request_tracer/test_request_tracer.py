import pytest

from request_tracer import RequestTracer


@pytest.fixture
def tracer():
    return RequestTracer(slow_ms=100)


def test_start_counts_requests_in_flight(tracer):
    assert tracer.start("r1", "/search", 0) == 1
    assert tracer.start("r2", "/cart", 5) == 2
    assert tracer.open_requests() == ["r1", "r2"]


def test_start_rejects_negative_time(tracer):
    with pytest.raises(ValueError):
        tracer.start("r1", "/", -1)
    assert tracer.open_requests() == []


def test_start_rejects_id_in_flight(tracer):
    tracer.start("r1", "/", 0)
    with pytest.raises(ValueError):
        tracer.start("r1", "/other", 3)
    assert tracer.open_requests() == ["r1"]


def test_finish_returns_duration_and_closes_span(tracer):
    tracer.start("r1", "/search", 1000)
    assert tracer.finish("r1", 1250) == 250
    assert tracer.open_requests() == []
    assert tracer.mean_duration("/search") == 250.0


def test_finish_at_start_time_lasts_zero(tracer):
    tracer.start("r1", "/", 40)
    assert tracer.finish("r1", 40) == 0
    assert tracer.slow_requests() == []


def test_finish_unknown_request(tracer):
    with pytest.raises(KeyError):
        tracer.finish("ghost", 10)


def test_finish_before_start_keeps_request_open(tracer):
    tracer.start("r1", "/", 50)
    with pytest.raises(ValueError):
        tracer.finish("r1", 49)
    assert tracer.open_requests() == ["r1"]
    assert tracer.finish("r1", 60) == 10


def test_finished_id_may_start_again(tracer):
    tracer.start("r1", "/a", 0)
    tracer.finish("r1", 30)
    assert tracer.start("r1", "/a", 100) == 1
    assert tracer.finish("r1", 110) == 10
    assert tracer.mean_duration("/a") == 20.0


def test_finish_after_abandon_fails(tracer):
    tracer.start("r1", "/a", 0)
    tracer.abandon("r1")
    with pytest.raises(KeyError):
        tracer.finish("r1", 5)


def test_abandon_after_finish_fails(tracer):
    tracer.start("r1", "/a", 0)
    tracer.finish("r1", 5)
    with pytest.raises(KeyError):
        tracer.abandon("r1")
    assert tracer.abandoned("/a") == 0


def test_abandon_returns_route_and_counts(tracer):
    tracer.start("r1", "/cart", 0)
    tracer.start("r2", "/cart", 1)
    assert tracer.abandon("r1") == "/cart"
    assert tracer.abandon("r2") == "/cart"
    assert tracer.abandoned("/cart") == 2
    assert tracer.open_requests() == []


def test_abandon_unknown_request(tracer):
    with pytest.raises(KeyError):
        tracer.abandon("ghost")


def test_abandoned_request_gets_no_duration(tracer):
    tracer.start("r1", "/slow", 0)
    tracer.abandon("r1")
    with pytest.raises(KeyError):
        tracer.mean_duration("/slow")
    assert tracer.slowest_routes() == []
    assert tracer.slow_requests() == []


def test_abandoned_id_may_start_again(tracer):
    tracer.start("r1", "/a", 0)
    tracer.abandon("r1")
    assert tracer.start("r1", "/a", 10) == 1
    assert tracer.finish("r1", 15) == 5
    assert tracer.abandoned("/a") == 1


def test_abandoned_of_unknown_route_is_zero(tracer):
    assert tracer.abandoned("/nowhere") == 0


def test_route_of_request_in_flight(tracer):
    tracer.start("r1", "/x", 7)
    assert tracer._route_of("r1") == ("/x", 7)
    with pytest.raises(KeyError):
        tracer._route_of("r2")


def test_mean_duration_averages_route(tracer):
    for request_id, start, end in (("a", 0, 10), ("b", 0, 20), ("c", 5, 35)):
        tracer.start(request_id, "/list", start)
        tracer.finish(request_id, end)
    assert tracer.mean_duration("/list") == 20.0


def test_mean_duration_of_route_never_finished(tracer):
    with pytest.raises(KeyError):
        tracer.mean_duration("/list")


def test_slowest_routes_ranks_by_mean(tracer):
    for request_id, route, duration in (("a", "/fast", 5), ("b", "/slow", 90), ("c", "/mid", 40), ("d", "/slow", 70)):
        tracer.start(request_id, route, 0)
        tracer.finish(request_id, duration)
    assert tracer.slowest_routes() == ["/slow", "/mid", "/fast"]
    assert tracer.slowest_routes(limit=1) == ["/slow"]


def test_slowest_routes_breaks_ties_by_name(tracer):
    for request_id, route in (("a", "/b"), ("b", "/a")):
        tracer.start(request_id, route, 0)
        tracer.finish(request_id, 12)
    assert tracer.slowest_routes() == ["/a", "/b"]


def test_slowest_routes_rejects_limit_below_one(tracer):
    with pytest.raises(ValueError):
        tracer.slowest_routes(limit=0)


def test_slow_requests_strictly_above_threshold(tracer):
    tracer.start("edge", "/", 0)
    tracer.finish("edge", 100)
    tracer.start("late", "/", 0)
    tracer.finish("late", 101)
    tracer.start("open", "/", 0)
    assert tracer.slow_requests() == ["late"]


def test_slow_requests_sorted_across_routes():
    tracer = RequestTracer()
    tracer.start("z", "/a", 0)
    tracer.start("m", "/b", 0)
    tracer.finish("z", 5000)
    tracer.finish("m", 1001)
    assert tracer.slow_requests() == ["m", "z"]


def test_mixed_traffic_scenario(tracer):
    tracer.start("r1", "/search", 0)
    tracer.start("r2", "/search", 10)
    tracer.start("r3", "/cart", 20)
    assert tracer.finish("r2", 60) == 50
    assert tracer.abandon("r3") == "/cart"
    assert tracer.finish("r1", 300) == 300
    assert tracer.open_requests() == []
    assert tracer.mean_duration("/search") == 175.0
    assert tracer.slow_requests() == ["r1"]
    assert tracer.abandoned("/cart") == 1
    assert tracer.start("r4", "/cart", 400) == 1
    assert tracer.finish("r4", 420) == 20
    assert tracer.slowest_routes() == ["/search", "/cart"]
