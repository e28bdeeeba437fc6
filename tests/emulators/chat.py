"""A local OpenAI-compatible chat-completions server, for driving litellm in tests without a network.

It serves `POST /v1/chat/completions` the way OpenAI does: a `chat.completion` object with `choices`,
`message` and `usage` on success, and an `{"error": {...}}` body with the scripted status and headers
(e.g. `Retry-After`) on failure. litellm's `openai/<name>` models reach it through `api_base`
(`emulator.base_url`) and send the bare `<name>` as the model field.

Every call is recorded (`emulator.calls`) with the role and prompt the model client puts in its
`X-Classeval-Role` / `X-Classeval-Prompt` headers, so a test can script answers per role and check that
every request carried them. A responder returns the answer text, or a `Reply` to script a status, headers,
a delay (to make the client time out) or the usage figures.

Test helper, not product code: it runs in the test process on 127.0.0.1 with an OS-chosen port.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.emulators.json_http import send_json

ROLE_HEADER = "X-Classeval-Role"
PROMPT_HEADER = "X-Classeval-Prompt"

PROVIDER_KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "AZURE_API_KEY", "MISTRAL_API_KEY")
"""Provider keys litellm reads from the environment; a test talking to the emulator must see none of them."""


def offline_litellm(monkeypatch: Any) -> None:
    """The environment in which litellm reaches this emulator and nothing else: its bundled price map (no
    fetch at import), none of the machine's provider keys, and a fake OpenAI key the emulator accepts."""
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    for name in PROVIDER_KEYS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")


@dataclass(frozen=True)
class Reply:
    """A scripted answer: `text` with `status` 200, or an error status with its message in `text`."""

    text: str = ""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    usage: dict[str, int] | None = None


class Headers(dict):
    """Request headers, looked up without regard to case (HTTP header names are case-insensitive)."""

    def __init__(self, items: dict[str, str]) -> None:
        super().__init__({key.lower(): value for key, value in items.items()})

    def __getitem__(self, key: str) -> str:
        return super().__getitem__(key.lower())

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and super().__contains__(key.lower())

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        return super().get(key.lower(), default)


@dataclass(frozen=True)
class ChatCall:
    """One request the server received."""

    model: str
    role: str | None
    prompt: str | None
    messages: tuple[dict[str, Any], ...]
    headers: Headers
    body: dict[str, Any]

    @property
    def last_user_message(self) -> str:
        return next((str(m.get("content", "")) for m in reversed(self.messages) if m.get("role") == "user"), "")


Responder = Callable[[ChatCall], "str | Reply"]


def _word_count(text: str) -> int:
    return max(1, len(text.split()))


def _usage_for(call: ChatCall, text: str) -> dict[str, int]:
    """Token figures an OpenAI server would report, approximated by words (enough for cost arithmetic)."""
    prompt_tokens = sum(_word_count(str(m.get("content", ""))) for m in call.messages)
    completion_tokens = _word_count(text)
    return {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens}


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep test output clean
        pass

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        send_json(self, status, payload, headers)

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
            return
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send(400, {"error": {"message": "body is not JSON", "type": "invalid_request_error"}})
            return
        headers = Headers(dict(self.headers.items()))
        call = ChatCall(model=str(body.get("model", "")), role=headers.get(ROLE_HEADER),
                        prompt=headers.get(PROMPT_HEADER), messages=tuple(body.get("messages") or ()),
                        headers=headers, body=body)
        self.server.record(call)
        try:
            answer = self.server.responder(call)
        except Exception as exc:  # noqa: BLE001 - a broken test script shows as a server error, not a hang
            answer = Reply(text=f"responder failed: {type(exc).__name__}: {exc}", status=500)
        reply = answer if isinstance(answer, Reply) else Reply(text=str(answer))
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if reply.status != 200:
            error_type = "rate_limit_error" if reply.status == 429 else "server_error"
            self._send(reply.status, {"error": {"message": reply.text or f"scripted status {reply.status}",
                                                "type": error_type, "code": str(reply.status)}}, reply.headers)
            return
        self._send(200, {
            "id": f"chatcmpl-{self.server.count()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": call.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text},
                         "finish_reason": "stop"}],
            "usage": reply.usage or _usage_for(call, reply.text),
        }, reply.headers)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, responder: Responder) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.responder = responder
        self.calls: list[ChatCall] = []
        self._lock = threading.Lock()

    def record(self, call: ChatCall) -> None:
        with self._lock:
            self.calls.append(call)

    def count(self) -> int:
        with self._lock:
            return len(self.calls)


class ChatEmulator:
    """`with ChatEmulator(responder) as emulator:` serves chat completions at `emulator.base_url`."""

    def __init__(self, responder: Responder) -> None:
        self._server = _Server(responder)
        self._thread = threading.Thread(target=self._server.serve_forever, name="chat-emulator", daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def calls(self) -> list[ChatCall]:
        with self._server._lock:
            return list(self._server.calls)

    def calls_by_role(self, role: str) -> list[ChatCall]:
        return [c for c in self.calls if c.role == role]

    def __enter__(self) -> ChatEmulator:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
