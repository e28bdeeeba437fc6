"""Route HTTP method + path pairs to named handlers, and build paths from names."""

import re


class UrlRouter:
    """A table of named routes whose patterns may hold typed parameters.

    A pattern is a path where segments like ``{name}`` capture one segment,
    ``{name:int}`` captures digits and ``{name:path}`` captures the rest of the path
    including slashes. Routes are tried in registration order.

    >>> router = UrlRouter()
    >>> router.add_route("GET", "/users/{uid:int}", "user")
    >>> router.add_route("GET", "/files/{rest:path}", "file")
    >>> router.match("GET", "/users/42")
    ('user', {'uid': '42'})
    >>> router.match("GET", "/files/a/b.txt")
    ('file', {'rest': 'a/b.txt'})
    >>> router.url_for("user", {"uid": "7"})
    '/users/7'
    """

    _CONVERTERS = {"str": r"[^/]+", "int": r"[0-9]+", "path": r".+"}
    _PARAM = re.compile(r"\{(\w+)(?::(\w+))?\}")

    def __init__(self) -> None:
        """Create a router without routes."""
        self.routes: list[tuple[str, str, str]] = []
        self.compiled: dict[str, re.Pattern] = {}
        self.hits: dict[str, int] = {}

    def _compile(self, pattern: str) -> str:
        """Translate a route pattern into an anchored regular expression."""
        if not pattern.startswith("/"):
            raise ValueError(f"pattern must start with '/': {pattern!r}")
        parts = []
        position = 0
        names = []
        for param in self._PARAM.finditer(pattern):
            name, kind = param.group(1), param.group(2) or "str"
            if kind not in self._CONVERTERS:
                raise ValueError(f"unknown converter {kind!r}")
            if name in names:
                raise ValueError(f"parameter {name!r} used twice")
            names.append(name)
            parts.append(re.escape(pattern[position:param.start()]))
            parts.append(f"(?P<{name}>{self._CONVERTERS[kind]})")
            position = param.end()
        parts.append(re.escape(pattern[position:]))
        return "^" + "".join(parts) + "$"

    def add_route(self, method: str, pattern: str, name: str) -> None:
        """Register a route.

        Args:
            method: HTTP method, case-insensitive (stored upper-case).
            pattern: path pattern starting with ``/``.
            name: unique route name used by ``match`` and ``url_for``.

        Raises:
            ValueError: for a duplicate name, a pattern not starting with ``/``, an
                unknown converter or a parameter used twice.

        >>> UrlRouter().add_route("GET", "/x/{n:float}", "x")
        Traceback (most recent call last):
        ...
        ValueError: unknown converter 'float'
        """
        if name in self.compiled:
            raise ValueError(f"route name {name!r} already registered")
        regex = re.compile(self._compile(pattern))
        self.routes.append((method.upper(), pattern, name))
        self.compiled[name] = regex
        self.hits[name] = 0

    def remove_route(self, name: str) -> bool:
        """Unregister a route by name.

        Args:
            name: route name.

        Returns:
            True if the route existed.

        >>> router = UrlRouter()
        >>> router.add_route("GET", "/", "home")
        >>> router.remove_route("home"), router.remove_route("home")
        (True, False)
        """
        if name not in self.compiled:
            return False
        self.routes = [route for route in self.routes if route[2] != name]
        del self.compiled[name]
        del self.hits[name]
        return True

    def allowed_methods(self, path: str) -> list[str]:
        """List the methods of all routes whose pattern matches ``path``.

        Args:
            path: request path without query string.

        Returns:
            Sorted, distinct method names; empty if no pattern matches.

        >>> router = UrlRouter()
        >>> router.add_route("post", "/items", "create")
        >>> router.add_route("GET", "/items", "list")
        >>> router.allowed_methods("/items")
        ['GET', 'POST']
        """
        return sorted({method for method, _, name in self.routes if self.compiled[name].match(path)})

    def match(self, method: str, path: str) -> tuple[str, dict[str, str]]:
        """Find the first route matching the method and path and count the hit.

        Args:
            method: HTTP method, case-insensitive.
            path: request path; a query string after ``?`` is ignored.

        Returns:
            The route name and the captured parameters.

        Raises:
            KeyError: if no route pattern matches the path (HTTP 404).
            ValueError: if a pattern matches but not for this method (HTTP 405);
                the message lists ``allowed_methods(path)`` joined by ", ".

        >>> router = UrlRouter()
        >>> router.add_route("GET", "/a/{x}", "a")
        >>> router.match("get", "/a/1?debug=1")
        ('a', {'x': '1'})
        """
        path = path.split("?", 1)[0]
        wanted = method.upper()
        for route_method, _, name in self.routes:
            found = self.compiled[name].match(path)
            if found and route_method == wanted:
                self.hits[name] += 1
                return name, found.groupdict()
        allowed = self.allowed_methods(path)
        if allowed:
            raise ValueError(f"{wanted} not allowed for {path}; allowed: {', '.join(allowed)}")
        raise KeyError(path)

    def url_for(self, name: str, params: dict[str, str]) -> str:
        """Build the path of a named route from parameter values.

        Args:
            name: route name.
            params: one value per pattern parameter.

        Returns:
            The path, guaranteed to match the route again.

        Raises:
            KeyError: for an unknown route name or a missing parameter.
            ValueError: for an extra parameter or a value its converter rejects.

        >>> router = UrlRouter()
        >>> router.add_route("GET", "/u/{uid:int}/{tab}", "tab")
        >>> router.url_for("tab", {"uid": "3", "tab": "posts"})
        '/u/3/posts'
        """
        patterns = [p for _, p, n in self.routes if n == name]
        if not patterns:
            raise KeyError(name)
        pattern = patterns[0]
        needed = [m.group(1) for m in self._PARAM.finditer(pattern)]
        extra = sorted(set(params) - set(needed))
        if extra:
            raise ValueError(f"unexpected parameters: {', '.join(extra)}")
        path = self._PARAM.sub(lambda m: str(params[m.group(1)]), pattern)
        if not self.compiled[name].match(path):
            raise ValueError(f"parameters do not fit route {name!r}: {params}")
        return path

    def hit_counts(self) -> dict[str, int]:
        """Return how often each route was matched, by route name in registration order.

        Returns:
            A copy of the counters.

        >>> router = UrlRouter()
        >>> router.add_route("GET", "/", "home")
        >>> _ = router.match("GET", "/")
        >>> router.hit_counts()
        {'home': 1}
        """
        return {name: self.hits[name] for _, _, name in self.routes}

    def describe(self) -> list[str]:
        """Describe the routing table, one line per route in matching order.

        Returns:
            Lines of the form ``"GET /users/{uid:int} -> user"``.

        >>> router = UrlRouter()
        >>> router.add_route("delete", "/s/{sid}", "drop")
        >>> router.describe()
        ['DELETE /s/{sid} -> drop']
        """
        return [f"{method} {pattern} -> {name}" for method, pattern, name in self.routes]
