class MeteredRouter:
    """A request router whose clients draw on a daily quota of request units.

    Each route has a cost in units; dispatching a request to a route uses that many units of the client's
    quota, and a client whose quota cannot cover the route's cost is refused before the request is routed.
    """

    def __init__(self, daily_units):
        """Make a router with no routes; each client gets `daily_units` units a day."""
        self.routes = {}
        self.served = []
        self.daily_units = daily_units
        self.used = {}

    def add_route(self, path, handler_name, cost=1):
        """Route requests for `path` to the handler called `handler_name`; each costs `cost` units.

        :raises ValueError: if `path` is already routed or `cost` is not positive; the routes are then left unchanged.
        """
        if path in self.routes or cost <= 0:
            raise ValueError(path)
        self.routes[path] = (handler_name, cost)

    def dispatch(self, client, path):
        """Route a request of `client` for `path`; returns the name of the handler that serves it.

        :raises KeyError: if no route matches `path`.
        :raises PermissionError: if the client's remaining quota is below the route's cost (the request is
            then not served and nothing is charged).
        """
        handler, cost = self.routes[path]
        self._charge(client, cost)
        self.served.append(path)
        return handler

    def served_count(self, path):
        """Return how many requests for `path` were served."""
        return self.served.count(path)

    def _charge(self, client, units):
        if self.remaining(client) < units:
            raise PermissionError(client)
        self.used[client] = self.used.get(client, 0) + units

    def remaining(self, client):
        """Return the units `client` has left today."""
        return self.daily_units - self.used.get(client, 0)

    def new_day(self):
        """Give every client their whole quota again; returns how many clients had used some."""
        count = len(self.used)
        self.used.clear()
        return count
