"""Spans of in-flight requests, timed from start to finish on a caller-given millisecond clock."""


class RequestTracer:
    """Time each request from the moment it starts to the moment it finishes.

    A request is opened with ``start`` under an id and the route it was sent
    to, and closed with ``finish``, which returns its duration. Finished
    requests are kept per route, so the tracer can name the slowest routes
    and the requests that took longer than ``slow_ms``. A request the client
    gave up on is closed with ``abandon`` and never gets a duration. Time is
    always passed in (milliseconds since any fixed origin); the tracer never
    reads a clock.

    >>> tracer = RequestTracer(slow_ms=250)
    >>> tracer.start("r1", "/search", 1000)
    1
    >>> tracer.finish("r1", 1300)
    300
    >>> tracer.slow_requests()
    ['r1']
    >>> tracer.mean_duration("/search")
    300.0
    """

    def __init__(self, slow_ms: int = 1000) -> None:
        """Create a tracer with no request in flight.

        Args:
            slow_ms: a finished request that took longer than this many
                milliseconds is listed by ``slow_requests``.

        >>> RequestTracer().open_requests()
        []
        """
        self.slow_ms = slow_ms
        self._open: dict[str, tuple[str, int]] = {}
        self._done: dict[str, list[tuple[str, int]]] = {}
        self._abandoned: dict[str, int] = {}

    def _route_of(self, request_id: str) -> tuple[str, int]:
        """Return the route and start time of a request in flight.

        Args:
            request_id: the id given to ``start``.

        Returns:
            ``(route, started_at)``.

        Raises:
            KeyError: if no request with this id is in flight.

        >>> tracer = RequestTracer(); _ = tracer.start("a", "/", 5)
        >>> tracer._route_of("a")
        ('/', 5)
        """
        if request_id not in self._open:
            raise KeyError(f"no request in flight with id {request_id}")
        return self._open[request_id]

    def start(self, request_id: str, route: str, now_ms: int) -> int:
        """Open a span for a request that has just arrived.

        Args:
            request_id: an id no request in flight uses.
            route: the route the request was sent to, such as ``"/search"``.
            now_ms: the time it arrived, at least 0.

        Returns:
            The number of requests now in flight.

        Raises:
            ValueError: if ``now_ms`` is negative or the id is already in flight.

        >>> RequestTracer().start("a", "/", 0)
        1
        """
        if now_ms < 0:
            raise ValueError(f"time cannot be negative: {now_ms}")
        if request_id in self._open:
            raise ValueError(f"request already in flight: {request_id}")
        self._open[request_id] = (route, now_ms)
        return len(self._open)

    def finish(self, request_id: str, now_ms: int) -> int:
        """Close a request's span and keep its duration under its route.

        Args:
            request_id: a request in flight.
            now_ms: the time the response went out, not before the start.

        Returns:
            The request's duration in milliseconds.

        Raises:
            KeyError: if no request with this id is in flight.
            ValueError: if ``now_ms`` is before the request started (the
                request stays in flight).

        >>> tracer = RequestTracer(); _ = tracer.start("a", "/", 10)
        >>> tracer.finish("a", 25)
        15
        """
        route, started = self._route_of(request_id)
        if now_ms < started:
            raise ValueError(f"finish before start: {now_ms}")
        del self._open[request_id]
        duration = now_ms - started
        self._done.setdefault(route, []).append((request_id, duration))
        return duration

    def abandon(self, request_id: str) -> str:
        """Drop a request the client gave up on; it gets no duration.

        Args:
            request_id: a request in flight.

        Returns:
            The route of the abandoned request.

        Raises:
            KeyError: if no request with this id is in flight.

        >>> tracer = RequestTracer(); _ = tracer.start("a", "/cart", 0)
        >>> tracer.abandon("a"), tracer.abandoned("/cart")
        ('/cart', 1)
        """
        route, _ = self._route_of(request_id)
        del self._open[request_id]
        self._abandoned[route] = self._abandoned.get(route, 0) + 1
        return route

    def open_requests(self) -> list[str]:
        """Return the ids of the requests in flight, sorted.

        >>> tracer = RequestTracer(); _ = tracer.start("b", "/", 0); _ = tracer.start("a", "/", 0)
        >>> tracer.open_requests()
        ['a', 'b']
        """
        return sorted(self._open)

    def abandoned(self, route: str) -> int:
        """Return how many requests to ``route`` were abandoned (0 if none).

        >>> RequestTracer().abandoned("/")
        0
        """
        return self._abandoned.get(route, 0)

    def mean_duration(self, route: str) -> float:
        """Return the mean duration of the finished requests to ``route``.

        Raises:
            KeyError: if no request to ``route`` has finished.

        >>> tracer = RequestTracer(); _ = tracer.start("a", "/", 0); _ = tracer.finish("a", 4)
        >>> tracer.mean_duration("/")
        4.0
        """
        if route not in self._done:
            raise KeyError(f"no finished request to {route}")
        durations = [duration for _, duration in self._done[route]]
        return sum(durations) / len(durations)

    def slowest_routes(self, limit: int = 3) -> list[str]:
        """Name the routes with the highest mean duration, slowest first.

        Ties are broken by route name.

        Args:
            limit: how many routes to return, at least 1.

        Raises:
            ValueError: if ``limit`` is below 1.

        >>> tracer = RequestTracer(); _ = tracer.start("a", "/x", 0); _ = tracer.finish("a", 9)
        >>> tracer.slowest_routes()
        ['/x']
        """
        if limit < 1:
            raise ValueError(f"limit must be at least 1: {limit}")
        ranked = sorted(self._done, key=lambda route: (-self.mean_duration(route), route))
        return ranked[:limit]

    def slow_requests(self) -> list[str]:
        """Return the finished requests that took longer than ``slow_ms``, sorted by id.

        >>> RequestTracer().slow_requests()
        []
        """
        return sorted(request_id for spans in self._done.values()
                      for request_id, duration in spans if duration > self.slow_ms)
