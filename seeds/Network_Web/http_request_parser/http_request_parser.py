"""An incremental parser for HTTP/1.0 and HTTP/1.1 request messages given as text."""

from urllib.parse import parse_qs, unquote, urlsplit


class HttpRequestParser:
    """Parse one HTTP request from chunks of text, then query its parts.

    Lines may end in ``\\r\\n`` or ``\\n``. The body length comes from the
    ``Content-Length`` header (no chunked encoding). After a complete message,
    ``reset`` prepares the parser for the next request on the same connection.

    >>> parser = HttpRequestParser()
    >>> parser.feed("GET /search?q=tea&page=2 HTTP/1.1\\r\\nHost: shop.example\\r\\n")
    False
    >>> parser.feed("\\r\\n")
    True
    >>> parser.method, parser.path(), parser.query_params()
    ('GET', '/search', {'q': ['tea'], 'page': ['2']})
    >>> parser.header("host")
    'shop.example'
    """

    METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
    VERSIONS = ("HTTP/1.0", "HTTP/1.1")

    def __init__(self) -> None:
        """Create a parser waiting for a request line.

        Until a whole request line has been read, ``method``, ``target``,
        ``version`` and ``body`` are empty strings and there are no headers;
        a partial line stays buffered and sets none of them.
        """
        self.buffer = ""
        self.stage = "request_line"
        self.method = ""
        self.target = ""
        self.version = ""
        self.headers: list[tuple[str, str]] = []
        self.body = ""

    def feed(self, chunk: str) -> bool:
        """Consume more text of the message.

        Args:
            chunk: the next piece of the message, of any length.

        Returns:
            True once the whole message (including its body) has been read.

        Raises:
            ValueError: for a malformed request line or header, an unsupported method
                or version, a bad Content-Length, or data after a complete message:
                a chunk that carries more body than Content-Length announces (nothing
                of the surplus is kept for a next message), or any chunk fed once the
                message is complete and before ``reset``.

        >>> parser = HttpRequestParser()
        >>> parser.feed("POST /n HTTP/1.0\\nContent-Length: 5\\n\\nab")
        False
        >>> parser.feed("cde")
        True
        >>> parser.body
        'abcde'
        """
        if self.stage == "done":
            raise ValueError("message already complete; call reset() first")
        self.buffer += chunk
        while self.stage != "body":
            end = self.buffer.find("\n")
            if end < 0:
                return False
            line = self.buffer[:end].rstrip("\r")
            self.buffer = self.buffer[end + 1:]
            if self.stage == "request_line":
                self._read_request_line(line)
                self.stage = "headers"
            elif line:
                self._read_header(line)
            else:
                self.stage = "body"
        length = self.content_length()
        if len(self.buffer) > length:
            raise ValueError("more data than Content-Length announced")
        if len(self.buffer) < length:
            return False
        self.body, self.buffer = self.buffer, ""
        self.stage = "done"
        return True

    def _read_request_line(self, line: str) -> None:
        """Split ``METHOD target VERSION`` and store the three parts."""
        parts = line.split(" ")
        if len(parts) != 3 or not parts[1]:
            raise ValueError(f"malformed request line: {line!r}")
        method, target, version = parts
        if method not in self.METHODS:
            raise ValueError(f"unsupported method {method!r}")
        if version not in self.VERSIONS:
            raise ValueError(f"unsupported version {version!r}")
        self.method, self.target, self.version = method, target, version

    def _read_header(self, line: str) -> None:
        """Store one ``Name: value`` header line."""
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip():
            raise ValueError(f"malformed header line: {line!r}")
        self.headers.append((name.lower(), value.strip()))

    def is_complete(self) -> bool:
        """Tell whether a whole message has been parsed.

        Returns:
            True after ``feed`` returned True and before ``reset``.

        >>> HttpRequestParser().is_complete()
        False
        """
        return self.stage == "done"

    def header(self, name: str) -> str:
        """Return a header's value; repeated headers are joined with ``", "``.

        Args:
            name: header name, case-insensitive.

        Returns:
            The combined value.

        Raises:
            KeyError: if the header is absent.

        >>> parser = HttpRequestParser()
        >>> parser.feed("GET / HTTP/1.1\\nAccept: a\\naccept: b\\n\\n")
        True
        >>> parser.header("ACCEPT")
        'a, b'
        """
        values = [value for key, value in self.headers if key == name.lower()]
        if not values:
            raise KeyError(name)
        return ", ".join(values)

    def content_length(self) -> int:
        """Return the announced body length (0 without a Content-Length header).

        Returns:
            The length in characters.

        Raises:
            ValueError: if the header is not a single non-negative integer.

        >>> parser = HttpRequestParser()
        >>> parser.feed("PUT /x HTTP/1.1\\nContent-Length: 2\\n\\nok")
        True
        >>> parser.content_length()
        2
        """
        try:
            raw = self.header("content-length")
        except KeyError:
            return 0
        if not raw.isdigit():
            raise ValueError(f"invalid Content-Length {raw!r}")
        return int(raw)

    def path(self) -> str:
        """Return the percent-decoded path of the request target.

        Returns:
            The path without query string.

        >>> parser = HttpRequestParser()
        >>> parser.feed("GET /my%20docs/a.txt?x=1 HTTP/1.1\\n\\n")
        True
        >>> parser.path()
        '/my docs/a.txt'
        """
        return unquote(urlsplit(self.target).path)

    def query_params(self) -> dict[str, list[str]]:
        """Return the query string as name to list of values, in order of appearance.

        Returns:
            Decoded parameters; blank values are kept as empty strings.

        >>> parser = HttpRequestParser()
        >>> parser.feed("GET /?tag=a&tag=b&empty= HTTP/1.1\\n\\n")
        True
        >>> parser.query_params()
        {'tag': ['a', 'b'], 'empty': ['']}
        """
        return parse_qs(urlsplit(self.target).query, keep_blank_values=True)

    def cookies(self) -> dict[str, str]:
        """Return the cookies sent in ``Cookie`` headers.

        Returns:
            Cookie name to value; pairs without ``=`` are ignored.

        >>> parser = HttpRequestParser()
        >>> parser.feed("GET / HTTP/1.1\\nCookie: sid=abc; theme=dark\\n\\n")
        True
        >>> parser.cookies()
        {'sid': 'abc', 'theme': 'dark'}
        """
        try:
            raw = self.header("cookie").replace(",", ";")
        except KeyError:
            return {}
        jar = {}
        for pair in raw.split(";"):
            name, equals, value = pair.strip().partition("=")
            if equals and name:
                jar[name] = value
        return jar

    def keep_alive(self) -> bool:
        """Tell whether the connection should stay open after this request.

        HTTP/1.1 keeps it open unless ``Connection: close``; HTTP/1.0 closes it
        unless ``Connection: keep-alive``.

        Returns:
            True to keep the connection open.

        >>> parser = HttpRequestParser()
        >>> parser.feed("GET / HTTP/1.0\\nConnection: Keep-Alive\\n\\n")
        True
        >>> parser.keep_alive()
        True
        """
        try:
            options = [token.strip().lower() for token in self.header("connection").split(",")]
        except KeyError:
            options = []
        if self.version == "HTTP/1.1":
            return "close" not in options
        return "keep-alive" in options

    def reset(self) -> str:
        """Clear the parsed message so the parser can read the next one.

        Returns:
            The text of an unfinished message still in the buffer, not yet parsed
            (empty after a complete message, which keeps no text beyond its body).

        >>> parser = HttpRequestParser()
        >>> parser.feed("GET / HTTP/1.1\\nHost: a")
        False
        >>> parser.reset()
        'Host: a'
        """
        leftover = self.buffer
        self.buffer = ""
        self.stage = "request_line"
        self.method = self.target = self.version = self.body = ""
        self.headers = []
        return leftover
