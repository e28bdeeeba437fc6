"""A client cookie jar: accept Set-Cookie headers and build Cookie headers, with explicit time."""

from urllib.parse import urlsplit


class CookieJar:
    """Cookies keyed by (domain, path, name), following the main rules of RFC 6265.

    Time is an integer number of seconds supplied by the caller. Only ``Max-Age``
    sets a lifetime (``Expires`` dates are ignored); cookies without it are session
    cookies.

    >>> jar = CookieJar()
    >>> jar.set_from_header("https://shop.example/cart/view", "sid=abc; Path=/; Max-Age=60", 1000)
    'sid'
    >>> jar.set_from_header("https://shop.example/cart/view", "step=2", 1000)
    'step'
    >>> jar.cookie_header("https://shop.example/cart/pay", 1030)
    'step=2; sid=abc'
    >>> jar.cookie_header("https://shop.example/", 1061)
    ''
    """

    def __init__(self) -> None:
        """Create an empty jar."""
        self.cookies: dict[tuple[str, str, str], dict[str, str | int | bool]] = {}
        self.created = 0

    def domain_matches(self, host: str, domain: str) -> bool:
        """Tell whether a request host falls under a cookie domain.

        Args:
            host: request host name, e.g. ``"www.example.com"``.
            domain: cookie domain without leading dot, e.g. ``"example.com"``.

        Returns:
            True if they are equal or the host is a subdomain of ``domain``.

        >>> jar = CookieJar()
        >>> jar.domain_matches("a.b.example", "b.example"), jar.domain_matches("badexample", "example")
        (True, False)
        """
        host, domain = host.lower(), domain.lower()
        return host == domain or host.endswith("." + domain)

    def path_matches(self, request_path: str, cookie_path: str) -> bool:
        """Tell whether a request path is inside a cookie path.

        Args:
            request_path: path of the request URL.
            cookie_path: the cookie's ``Path``.

        Returns:
            True if equal, or ``cookie_path`` is a prefix ending at a ``/`` boundary.

        >>> jar = CookieJar()
        >>> jar.path_matches("/docs/a", "/docs"), jar.path_matches("/docsx", "/docs")
        (True, False)
        """
        if request_path == cookie_path:
            return True
        if not request_path.startswith(cookie_path):
            return False
        return cookie_path.endswith("/") or request_path[len(cookie_path)] == "/"

    def set_from_header(self, request_url: str, header: str, now: int) -> str:
        """Store (or delete) the cookie described by one ``Set-Cookie`` header value.

        Supported attributes: ``Domain``, ``Path``, ``Max-Age``, ``Secure``; others
        are ignored. ``Max-Age`` of zero or less deletes a matching cookie. Without
        ``Domain`` the cookie is host-only; without ``Path`` it gets the directory of
        the request path. Replacing a cookie keeps its original creation order.

        Args:
            request_url: URL of the response that carried the header.
            header: the header value, e.g. ``"id=7; Path=/; Max-Age=600"``.
            now: current time in seconds.

        Returns:
            The cookie name.

        Raises:
            ValueError: if the header has no ``name=value`` pair, ``Max-Age`` is not an
                integer, the domain does not cover the request host, or a Secure
                cookie arrives over plain http.

        >>> CookieJar().set_from_header("http://a.example/", "x=1; Domain=b.example", 0)
        Traceback (most recent call last):
        ...
        ValueError: domain 'b.example' does not cover host 'a.example'
        """
        url = urlsplit(request_url)
        host = (url.hostname or "").lower()
        pair, *attributes = header.split(";")
        name, equals, value = pair.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name:
            raise ValueError(f"missing name=value in {header!r}")
        request_path = url.path or "/"
        cookie = {"value": value, "domain": host, "path": request_path[:request_path.rfind("/")] or "/",
                  "host_only": True, "secure": False, "expires": -1}
        for attribute in attributes:
            key, _, argument = attribute.strip().partition("=")
            key = key.lower()
            if key == "domain" and argument.strip(". "):
                cookie["domain"], cookie["host_only"] = argument.strip(". ").lower(), False
            elif key == "path" and argument.startswith("/"):
                cookie["path"] = argument
            elif key == "max-age":
                if not argument.lstrip("-").isdigit():
                    raise ValueError(f"bad Max-Age {argument!r}")
                cookie["expires"] = now + int(argument)
            elif key == "secure":
                cookie["secure"] = True
        if not self.domain_matches(host, str(cookie["domain"])):
            raise ValueError(f"domain {cookie['domain']!r} does not cover host {host!r}")
        if cookie["secure"] and url.scheme != "https":
            raise ValueError("Secure cookie set over an insecure connection")
        key = (str(cookie["domain"]), str(cookie["path"]), name)
        if cookie["expires"] != -1 and int(cookie["expires"]) <= now:
            self.cookies.pop(key, None)
            return name
        if key in self.cookies:
            cookie["created"] = self.cookies[key]["created"]
        else:
            self.created += 1
            cookie["created"] = self.created
        self.cookies[key] = cookie
        return name

    def cookies_for(self, url: str, now: int) -> list[str]:
        """List the ``name=value`` pairs to send with a request to ``url``.

        Expired cookies, cookies for other hosts or paths, and Secure cookies on
        http are left out. Longer paths come first, then older cookies.

        Args:
            url: the request URL.
            now: current time in seconds.

        Returns:
            The pairs in sending order.

        >>> jar = CookieJar()
        >>> jar.set_from_header("https://a.example/", "t=1; Secure", 0)
        't'
        >>> jar.cookies_for("http://a.example/", 0), jar.cookies_for("https://a.example/", 0)
        ([], ['t=1'])
        """
        parts = urlsplit(url)
        host, path = (parts.hostname or "").lower(), parts.path or "/"
        chosen = []
        for (domain, cookie_path, name), cookie in self.cookies.items():
            if cookie["expires"] != -1 and int(cookie["expires"]) <= now:
                continue
            if cookie["secure"] and parts.scheme != "https":
                continue
            if cookie["host_only"] and host != domain:
                continue
            if not self.domain_matches(host, domain) or not self.path_matches(path, cookie_path):
                continue
            chosen.append((-len(cookie_path), int(cookie["created"]), f"{name}={cookie['value']}"))
        return [pair for _, _, pair in sorted(chosen)]

    def cookie_header(self, url: str, now: int) -> str:
        """Build the ``Cookie`` request header value for ``url``.

        Args:
            url: the request URL.
            now: current time in seconds.

        Returns:
            Pairs joined with ``"; "``, or an empty string when nothing applies.

        >>> jar = CookieJar()
        >>> jar.set_from_header("http://a.example/", "a=1", 0)
        'a'
        >>> jar.cookie_header("http://a.example/x", 5)
        'a=1'
        """
        return "; ".join(self.cookies_for(url, now))

    def purge_expired(self, now: int) -> int:
        """Delete cookies whose lifetime has ended.

        Args:
            now: current time in seconds.

        Returns:
            The number of cookies deleted.

        >>> jar = CookieJar()
        >>> jar.set_from_header("http://a.example/", "a=1; Max-Age=10", 0)
        'a'
        >>> jar.purge_expired(9), jar.purge_expired(10)
        (0, 1)
        """
        expired = [key for key, cookie in self.cookies.items()
                   if cookie["expires"] != -1 and int(cookie["expires"]) <= now]
        for key in expired:
            del self.cookies[key]
        return len(expired)

    def end_session(self) -> int:
        """Delete all session cookies (those without ``Max-Age``), as when a browser closes.

        Returns:
            The number of cookies deleted.

        >>> jar = CookieJar()
        >>> jar.set_from_header("http://a.example/", "s=1", 0)
        's'
        >>> jar.end_session()
        1
        """
        session = [key for key, cookie in self.cookies.items() if cookie["expires"] == -1]
        for key in session:
            del self.cookies[key]
        return len(session)

    def names(self) -> list[str]:
        """Describe the stored cookies as ``"domain path name"`` strings, sorted.

        Returns:
            One entry per stored cookie, including expired ones not yet purged.

        >>> jar = CookieJar()
        >>> jar.set_from_header("http://a.example/app/login", "u=1", 0)
        'u'
        >>> jar.names()
        ['a.example /app u']
        """
        return sorted(" ".join(key) for key in self.cookies)
