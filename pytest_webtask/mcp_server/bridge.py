"""The coding agent as an OpenAI-compatible endpoint: each model request is parked until the
agent answers it.

A recording started by ``webtask mcp`` is the plugin's own record path in a pytest process
(``pytest --webtask-record``), its model ``OpenAILLM`` pointed at this endpoint, as a user
points it at llama.cpp's server. Every request that process makes (the proposer's, with the
page state, the hint lines and the reply schema; secrets already masked by its asker) waits
here, its HTTP connection open, until the MCP client answers through a tool; the answer is
streamed back as the model's reply. So the agent, its guards, budgets, evidence, secrets and
recipe code are the plugin's by construction: nothing here decides anything.
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from ..testing import LoopbackServer

MODEL_NAME = "coding-agent"


@dataclass
class Parked:
    """One model request waiting for the coding agent's reply."""

    number: int
    body: dict[str, Any]
    _event: threading.Event = field(default_factory=threading.Event)
    _reply: str | None = None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def system(self) -> str:
        first = self.messages[0] if self.messages else {}
        return _text(first.get("content")) if first.get("role") == "system" else ""

    @property
    def user(self) -> str:
        """The request's last user message: the task, history, page state and question."""
        users = [m for m in self.messages if m.get("role") == "user"]
        return _text(users[-1].get("content")) if users else ""

    @property
    def schema(self) -> dict[str, Any] | None:
        fmt = self.body.get("response_format") or {}
        if fmt.get("type") == "json_schema":
            schema = (fmt.get("json_schema") or {}).get("schema")
            return schema if isinstance(schema, dict) else None
        return None

    @property
    def answered(self) -> bool:
        return self._event.is_set()

    def answer(self, text: str) -> None:
        """Send ``text`` as the model's reply (once)."""
        if not self._event.is_set():
            self._reply = text
            self._event.set()

    def wait(self, timeout: float) -> str | None:
        self._event.wait(timeout)
        return self._reply


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # a model that sees pictures: text parts only
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


class ModelBridge:
    """A loopback chat-completions endpoint (``base_url``, ``api_key``) whose replies come
    from ``next()``'s caller: ``next`` hands over the oldest unanswered request, its
    ``answer`` sends the reply. Only a client holding ``api_key`` is served."""

    def __init__(self) -> None:
        self.api_key = "webtask-mcp-" + secrets.token_hex(12)
        self._queue: queue.Queue[Parked] = queue.Queue()
        self._lock = threading.Lock()
        self._count = 0
        self._closed = threading.Event()
        self.parked: list[Parked] = []
        bridge = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # stdout is the MCP channel
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                self._send(404, {"error": {"message": "not found"}})  # no /props: no window

            def do_POST(self) -> None:  # noqa: N802
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.headers.get("Authorization") != f"Bearer {bridge.api_key}":
                    return self._send(401, {"error": {"message": "unknown key"}})
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "not found"}})
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    return self._send(400, {"error": {"message": "not JSON"}})
                parked = bridge._park(body)
                text = None
                while text is None and not bridge._closed.is_set():
                    text = parked.wait(0.25)
                if text is None:
                    return self._send(503, {"error": {"message": "webtask mcp stopped"}})
                if body.get("stream"):
                    return self._stream(body, text)
                self._send(200, {"id": f"webtask-mcp-{parked.number}",
                                 "object": "chat.completion", "created": int(time.time()),
                                 "model": MODEL_NAME, "usage": _USAGE,
                                 "choices": [{"index": 0, "finish_reason": "stop",
                                              "message": {"role": "assistant",
                                                          "content": text}}]})

            def _stream(self, body: dict[str, Any], text: str) -> None:
                def event(choices: list[dict[str, Any]], **extra: Any) -> bytes:
                    return ("data: " + json.dumps({
                        "id": "webtask-mcp", "object": "chat.completion.chunk",
                        "created": int(time.time()), "model": MODEL_NAME,
                        "choices": choices, **extra}) + "\n\n").encode()

                events = [
                    event([{"index": 0, "delta": {"role": "assistant", "content": ""},
                            "finish_reason": None}]),
                    event([{"index": 0, "delta": {"content": text}, "finish_reason": None}]),
                    event([{"index": 0, "delta": {}, "finish_reason": "stop"}])]
                if (body.get("stream_options") or {}).get("include_usage"):
                    events.append(event([], usage=_USAGE))
                events.append(b"data: [DONE]\n\n")
                self.protocol_version = "HTTP/1.1"
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    for each in events:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(each), each))
                    self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = LoopbackServer(Handler)
        self.base_url = self._server.url + "/v1"

    def _park(self, body: dict[str, Any]) -> Parked:
        with self._lock:
            self._count += 1
            parked = Parked(self._count, body)
            self.parked.append(parked)
        self._queue.put(parked)
        return parked

    def next(self, timeout: float) -> Parked | None:
        """The next request waiting for a reply, or None after ``timeout`` seconds."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def env(self) -> dict[str, str]:
        """The environment that points a recording's ``OpenAILLM`` here: no time limit (the
        agent takes what it takes), no retries (a reply is never asked twice), replies
        asked with the request's JSON schema."""
        return {"WEBTASK_MODEL": MODEL_NAME, "OPENAI_BASE_URL": self.base_url,
                "OPENAI_API_KEY": self.api_key, "WEBTASK_LLM_TIMEOUT": "0",
                "WEBTASK_LLM_RETRIES": "0", "WEBTASK_RESPONSE_FORMAT": "json_schema"}

    def close(self) -> None:
        """Stop serving; a request still parked is answered 503 (its step fails)."""
        self._closed.set()
        self._server.stop()


_USAGE = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
