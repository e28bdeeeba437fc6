"""Canonical forms of http(s) URLs for comparison and de-duplication."""

import fnmatch
import re
from urllib.parse import urljoin, urlsplit


class UrlNormaliser:
    """Turns equivalent URLs into one canonical string and remembers canonical URLs seen.

    Normalisation: scheme and host lower-cased; default port removed; empty path
    becomes ``/``; ``.`` and ``..`` segments resolved; percent-escapes upper-cased and
    escapes of unreserved characters decoded; query parameters matching a strip
    pattern removed and the rest sorted; fragment dropped.

    >>> norm = UrlNormaliser()
    >>> norm.normalise("HTTP://Example.COM:80/a/./b/../c?utm_source=x&b=2&a=1#top")
    'http://example.com/a/c?a=1&b=2'
    >>> norm.equivalent("https://example.com", "https://EXAMPLE.com:443/")
    True
    """

    DEFAULT_PORTS = {"http": 80, "https": 443}
    _UNRESERVED = re.compile(r"[A-Za-z0-9\-._~]")
    _ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")

    def __init__(self) -> None:
        """Create a normaliser that strips ``utm_*``, ``fbclid`` and ``gclid`` parameters."""
        self.strip_patterns: list[str] = ["utm_*", "fbclid", "gclid"]
        self.seen: dict[str, int] = {}

    def add_strip_pattern(self, pattern: str) -> bool:
        """Also drop query parameters whose name matches ``pattern`` (glob, case-sensitive).

        Args:
            pattern: e.g. ``"sessionid"`` or ``"ref_*"``.

        Returns:
            False if the pattern was already configured, True otherwise.

        Raises:
            ValueError: if the pattern is empty.

        >>> norm = UrlNormaliser()
        >>> norm.add_strip_pattern("ref_*")
        True
        >>> norm.normalise("http://a.org/?ref_id=9&q=1")
        'http://a.org/?q=1'
        """
        if not pattern:
            raise ValueError("empty pattern")
        if pattern in self.strip_patterns:
            return False
        self.strip_patterns.append(pattern)
        return True

    def remove_dot_segments(self, path: str) -> str:
        """Resolve ``.`` and ``..`` segments of a path (RFC 3986, section 5.2.4).

        Args:
            path: an absolute path such as ``/a/b/../c``.

        Returns:
            The path without dot segments; ``..`` never climbs above the root.

        >>> UrlNormaliser().remove_dot_segments("/a/b/c/./../../g")
        '/a/g'
        >>> UrlNormaliser().remove_dot_segments("/../x/..")
        '/'
        """
        output: list[str] = []
        segments = path.split("/")
        for index, segment in enumerate(segments):
            last = index == len(segments) - 1
            if segment == ".":
                if last:
                    output.append("")
            elif segment == "..":
                if len(output) > 1:
                    output.pop()
                if last:
                    output.append("")
            else:
                output.append(segment)
        result = "/".join(output)
        return result if result.startswith("/") else "/" + result

    def _tidy_escapes(self, text: str) -> str:
        """Decode escapes of unreserved characters and upper-case the others."""

        def fix(match: re.Match) -> str:
            char = chr(int(match.group(1), 16))
            return char if self._UNRESERVED.fullmatch(char) else "%" + match.group(1).upper()

        return self._ESCAPE.sub(fix, text)

    def normalise(self, url: str) -> str:
        """Return the canonical form of an absolute http or https URL.

        Args:
            url: the URL.

        Returns:
            The canonical URL.

        Raises:
            ValueError: if the scheme is not http/https, the host is missing or the
                port is not a number.

        >>> UrlNormaliser().normalise("https://Shop.example:8443/%7euser/%2fx?b=%3d&a")
        'https://shop.example:8443/~user/%2Fx?a&b=%3D'
        """
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        if scheme not in self.DEFAULT_PORTS:
            raise ValueError(f"unsupported scheme in {url!r}")
        if not parts.hostname:
            raise ValueError(f"missing host in {url!r}")
        host = parts.hostname.lower()
        port = parts.port
        netloc = host if port in (None, self.DEFAULT_PORTS[scheme]) else f"{host}:{port}"
        path = self.remove_dot_segments(self._tidy_escapes(parts.path or "/"))
        pairs = [pair for pair in parts.query.split("&") if pair]
        kept = sorted(
            self._tidy_escapes(pair) for pair in pairs
            if not any(fnmatch.fnmatchcase(pair.split("=", 1)[0], p) for p in self.strip_patterns)
        )
        query = "?" + "&".join(kept) if kept else ""
        return f"{scheme}://{netloc}{path}{query}"

    def equivalent(self, first: str, second: str) -> bool:
        """Tell whether two URLs have the same canonical form.

        Args:
            first: a URL.
            second: another URL.

        Returns:
            True if they normalise to the same string.

        Raises:
            ValueError: if either URL cannot be normalised.

        >>> UrlNormaliser().equivalent("http://a.org/x?b=1&a=2", "http://a.org/x?a=2&b=1#f")
        True
        """
        return self.normalise(first) == self.normalise(second)

    def resolve(self, base: str, link: str) -> str:
        """Resolve a link found on page ``base`` and return its canonical form.

        Args:
            base: absolute URL of the page.
            link: absolute or relative reference (``../img.png``, ``//cdn.x/a``, ``?p=2``).

        Returns:
            The canonical absolute URL.

        Raises:
            ValueError: if the result cannot be normalised (e.g. a ``mailto:`` link).

        >>> UrlNormaliser().resolve("http://a.org/docs/guide/", "../api/#top")
        'http://a.org/docs/api/'
        """
        return self.normalise(urljoin(base, link))

    def remember(self, url: str) -> bool:
        """Record a URL as seen, counting repeats of its canonical form.

        Args:
            url: the URL.

        Returns:
            True if no equivalent URL was seen before.

        Raises:
            ValueError: if the URL cannot be normalised.

        >>> norm = UrlNormaliser()
        >>> norm.remember("http://a.org"), norm.remember("HTTP://a.org/#x")
        (True, False)
        """
        canonical = self.normalise(url)
        self.seen[canonical] = self.seen.get(canonical, 0) + 1
        return self.seen[canonical] == 1

    def seen_urls(self, min_count: int = 1) -> list[str]:
        """List the remembered canonical URLs in the order they were first seen.

        Args:
            min_count: only URLs remembered at least this many times.

        Returns:
            The canonical URLs.

        >>> norm = UrlNormaliser()
        >>> for u in ("http://b.org/", "http://a.org/", "http://b.org"):
        ...     _ = norm.remember(u)
        >>> norm.seen_urls(), norm.seen_urls(2)
        (['http://b.org/', 'http://a.org/'], ['http://b.org/'])
        """
        return [url for url, count in self.seen.items() if count >= min_count]
