"""The lost-server watch on a local health endpoint: quiet while it answers, a stop once it is gone."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from flows import server_watch


class _Health(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self.send_response(200 if self.path == "/health" else 404)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def test_watch_stays_quiet_while_the_server_answers_and_stops_the_build_once_it_is_gone(monkeypatch):
    stops: list[tuple[str, int]] = []
    stopped = threading.Event()

    def record(cause: str, code: int) -> None:
        stops.append((cause, code))
        stopped.set()

    monkeypatch.setattr(server_watch.stopping, "interrupt_main", record)
    monkeypatch.setattr(server_watch, "GRACE_S", 5.0)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        server_watch.start_watch(url, interval_s=0.05, failures=3, timeout_s=1.0)
        assert not stopped.wait(0.6), "the watch stopped a build whose server answers"
        server.shutdown()
        server.server_close()
        assert stopped.wait(10), "the watch did not notice the server was gone"
    finally:
        server_watch.stop_watch()
    assert stops == [(f"lost the Prefect server at {url} (it failed 3 health checks in a row)",
                      server_watch.LOST_SERVER_EXIT)]
