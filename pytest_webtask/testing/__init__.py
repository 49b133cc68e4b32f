"""Public test doubles: a scripted model and a fake OpenAI-compatible server; and a
``WebTask`` outside the fixture.

``ScriptedLLM`` answers from a script instead of a model, so a test exercises the real agent,
browser and recipe code with known replies. ``FakeOpenAIServer`` speaks the chat-completions
HTTP API on loopback, with faults to inject, for testing ``OpenAILLM`` end to end.
Neither is a model: never present what they produce as a model's result. ``open_webtask``
runs steps on a page of your own against a recipe file, as the ``webtask`` fixture does.
"""

from __future__ import annotations

import argparse
import json
import select
import socket
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, cast, get_args

from ..errors import LLMError
from ..llm.base import LLMReply
from ..llm.request import ModelRequest
from ..settings import Mode, Settings
from ..types import Usage

if TYPE_CHECKING:
    from ..steps._sync.webtask import WebTask

Reply = str | dict | list
ReplyFn = Callable[[ModelRequest], Reply]


@dataclass
class ScriptedCall:
    """One request a ``ScriptedLLM`` received: the full prompt text and the context."""

    prompt: str
    context: ModelRequest


class ScriptedLLMExhausted(LLMError):
    """The script has no reply left for a call."""


class ScriptedLLM:
    """A stand-in model that replies from a script.

    ``replies`` is a list (each item a string, or a dict/list sent as JSON) consumed one per
    call, or a callable ``f(context) -> reply`` called every time, or a mapping from a
    request's ``context.purpose`` ("step", "plan", "extract:strategy", "explore",
    "explore:plan", ...; a key "extract" answers every "extract:*") to either of those, so
    a script routes by what a request is for, reading ``context.task`` and ``context.step``
    rather than the prompt's prose. Every request is kept on ``.calls`` with its full prompt
    text. Usage counts calls only (no
    tokens: nothing was tokenized). Works for the sync and the async agent alike.

    ``supports_images=True`` stands in for a model that sees screenshots: its requests carry
    the page's picture (``context.images``), and it is offered what only such a model may
    do (picture claims, the ``point`` tool, a visual heal).
    """

    supports_images = False

    def __init__(self, replies: Iterable[Reply] | ReplyFn
                 | Mapping[str, Iterable[Reply] | ReplyFn], *,
                 supports_images: bool | None = None) -> None:
        if supports_images is not None:  # else the class's (a subclass may set it)
            self.supports_images = supports_images
        self._routes: dict[str, ScriptedLLM] | None = None
        self._fn: ReplyFn | None = None
        self._replies: list[Reply] = []
        if isinstance(replies, Mapping):
            self._routes = {purpose: ScriptedLLM(script) for purpose, script in replies.items()}
        elif callable(replies):
            self._fn = replies
        else:
            self._replies = list(replies)
        self.calls: list[ScriptedCall] = []

    @property
    def prompts(self) -> list[str]:
        return [c.prompt for c in self.calls]

    @property
    def remaining(self) -> int:
        if self._routes is not None:
            return sum(route.remaining for route in self._routes.values())
        return len(self._replies) - len(self.calls) if self._fn is None else 0

    def generate(self, context: ModelRequest) -> LLMReply:
        self.calls.append(ScriptedCall(prompt=context.to_text(), context=context))
        if self._routes is not None:
            route = (self._routes.get(context.purpose)
                     or self._routes.get(context.purpose.split(":", 1)[0]))
            if route is None:
                raise ScriptedLLMExhausted(
                    f"ScriptedLLM has no script for a {context.purpose or 'unnamed'!r} request "
                    f"(task {context.task!r}); it scripts {', '.join(sorted(self._routes))}.")
            return route.generate(context)
        if self._fn is not None:
            reply = self._fn(context)
        else:
            index = len(self.calls) - 1
            if index >= len(self._replies):
                raise ScriptedLLMExhausted(
                    f"ScriptedLLM has no reply for call {index + 1}: the script holds "
                    f"{len(self._replies)}. Add replies, or check why the agent needed more "
                    "steps than scripted."
                )
            reply = self._replies[index]
        text = reply if isinstance(reply, str) else json.dumps(reply)
        return LLMReply(text=text, usage=Usage(calls=1))

    async def agenerate(self, context: ModelRequest) -> LLMReply:
        return self.generate(context)


@contextmanager
def open_webtask(page: Any, recipe: str | Path, mode: str = "auto", *,
                 base_url: str | None = None, llm: Any = None, test_name: str = "t",
                 fix_command: str | None = None, artifacts: Path | None = None,
                 **settings: Any) -> Iterator[WebTask]:
    """A ``WebTask`` on a Playwright (sync) ``page`` outside pytest's fixtures: it replays
    ``recipe`` (``mode`` and ``settings`` as ``Settings`` takes them) and records missing
    steps with ``llm`` (None: no model). The recipe is stored when the block ends, as for a
    test that passed unless the block raised. ``fix_command`` is what failures tell you to
    run; ``artifacts`` is where failures and extract reports are saved."""
    from ..steps._sync.pipeline import Pipeline
    from ..steps._sync.webtask import WebTask
    from ..steps.services import StepServices, TestInfo
    from ..steps.session import RecipeSession

    if mode not in get_args(Mode):
        raise ValueError(f"mode should be one of {', '.join(get_args(Mode))}, not {mode!r}")
    session = RecipeSession(path=Path(recipe), test_name=test_name,
                            record_all=mode == "record")
    test = TestInfo(base_url=base_url, artifacts=artifacts)
    if fix_command is not None:
        test = replace(test, fix_command=fix_command)
    pipeline = Pipeline(page, session, Settings(mode=cast(Mode, mode), **settings),
                        services=StepServices() if llm is None else StepServices(
                            llm=lambda: llm),
                        test=test)
    passed = False
    try:
        yield WebTask(pipeline)
        passed = True
    finally:
        pipeline.finish(passed)


def scripted_explorer() -> ScriptedLLM:
    """A ``ScriptedLLM`` for ``webtask explore`` and ``webtask generate``: rules that answer
    the ``"explore"`` (a page), ``"explore:plan"`` and ``"explore:generate"`` requests from
    what each prompt shows (the page state, the site map, the flow), so the whole path runs
    without a model. Rules, not a model: they prove the machinery, not which flows a model
    would find."""
    from .explorer import explore_reply, generate_reply, plan_reply

    return ScriptedLLM({"explore": explore_reply, "explore:plan": plan_reply,
                        "explore:generate": generate_reply})


def scripted_recorder() -> ScriptedLLM:
    """A ``ScriptedLLM`` for recording the tests ``webtask generate`` writes from a plan
    ``scripted_explorer`` wrote: rules that carry out that plan's small vocabulary of steps
    (``search for X``, ``type "V" into "Label"``, ``click "Text" [for "Item"]``...) on the
    page state they are shown, and cite what the page shows for its checks. Return it from
    your ``webtask_llm`` fixture. Rules, not a model: a step outside that vocabulary is
    reported impossible."""
    from .recorder import recorder_llm

    return recorder_llm()


def read_page_state(text: str) -> list[Any]:
    """The tree of a page state as a script reads it (``PageNode``: ``id``, ``tag``,
    ``attrs``, ``text``, ``children``), so a scripted reply can cite what the page shows."""
    from .explorer import read_page_state as read

    return list(read(text))


class LoopbackServer(ThreadingHTTPServer):
    """A threaded HTTP server on 127.0.0.1 (a free port unless ``port`` is given), served
    from a daemon thread: what the demo shop, the test pages and the fake model endpoint run
    on. A client that goes away mid-response (a browser closing its page) is no error worth a
    traceback in a test's output."""

    daemon_threads = True

    def __init__(self, handler: Callable[..., BaseHTTPRequestHandler], port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), handler)
        host, port = self.server_address[:2]
        self.url = f"http://{host!s}:{port}"
        self.thread = threading.Thread(target=self.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class LoopbackApp(ABC):
    """A small web app served by a ``LoopbackServer``: ``start`` (a free port unless one is
    given), ``stop``, a context manager, and ``url``. A subclass answers each request in
    ``_handle(request, method)``: what the demo shop and the benchmarks' library app share.
    The base is abstract: an app without ``_handle`` cannot be made."""

    def __init__(self) -> None:
        self._server: LoopbackServer | None = None
        self.url = ""

    @abstractmethod
    def _handle(self, request: BaseHTTPRequestHandler, method: str) -> None:
        """Answer one request (``method``: GET, POST...) on ``request``."""

    def start(self, port: int = 0) -> Self:
        """Serve on 127.0.0.1: ``port``, or a free one."""
        app = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                app._handle(self, "GET")

            def do_POST(self) -> None:  # noqa: N802
                app._handle(self, "POST")

        self._server = LoopbackServer(Handler, port)
        self.url = self._server.url
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def serve_until_interrupted(self, title: str, port: int,
                                parser: argparse.ArgumentParser) -> None:
        """Start on ``port`` (a port in use: ``parser``'s exit, saying so), say where
        ``title`` is served, serve until Ctrl-C, then stop: what ``python -m
        example_suites.demo_shop`` and the bench's apps do."""
        try:
            self.start(port)
        except OSError as exc:
            parser.exit(1, f"cannot serve on port {port}: {exc.strerror}; pick another with "
                           "--port\n")
        print(f"{title} on {self.url} (Ctrl-C stops it)", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()


@dataclass
class Fault:
    """A scripted failure for ``FakeOpenAIServer``: an HTTP status, a delay, a bad body, a
    slow stream, or a connection closed early."""

    status: int = 200
    delay: float = 0.0  # seconds before anything is sent (the prompt being read)
    body: str | None = None
    content: str | None = None
    stream_seconds: float = 0.0  # a streamed reply's events spread over this long
    hang_up: int | None = None  # close the connection after this many streamed events

    @classmethod
    def http(cls, status: int, message: str = "") -> Fault:
        return cls(status=status,
                   body=json.dumps({"error": {"message": message or f"fake {status}"}}))

    @classmethod
    def slow(cls, seconds: float, content: str = "{}") -> Fault:
        """Nothing for ``seconds``, then the reply (a model reading a long prompt)."""
        return cls(delay=seconds, content=content)

    @classmethod
    def trickle(cls, seconds: float, content: str = "{}") -> Fault:
        """A streamed reply whose events come every 50 ms for ``seconds`` (a model writing
        slowly): no wait between two reads is long, the whole reply is."""
        return cls(stream_seconds=seconds, content=content)

    @classmethod
    def hangup(cls, after: int = 0) -> Fault:
        """The connection closed after ``after`` streamed events (0: before any answer), as
        a server that crashed does."""
        return cls(hang_up=after, content="{" + '"words": "' + "x" * 40 + '"}')

    @classmethod
    def malformed(cls) -> Fault:
        return cls(body="this is not json {")


@dataclass
class FakeOpenAIServer:
    """A loopback HTTP server speaking ``POST /v1/chat/completions`` (streamed when the
    request says ``stream``, as ``OpenAILLM``'s do), ``GET /props`` and ``GET /v1/models``.

    ``replies`` are consumed one per request: a string (or dict, sent as JSON) becomes the
    assistant message; a ``Fault`` injects an error. When the script runs out, the last item
    repeats. Received request bodies are kept on ``.requests`` (their headers on
    ``.headers``), and every request's method and path on ``.paths``. Use as a context
    manager; ``.base_url`` is what ``OpenAILLM(base_url=...)`` takes.

    Like a real server, a request's ``max_tokens`` is honoured: a longer reply is cut (at
    four characters a token) with ``finish_reason: "length"``; a streamed reply reports usage
    when ``stream_options.include_usage`` asks for it. ``refuse_json_schema`` is an HTTP
    status answered to every request asking for ``json_schema`` (llama.cpp's server answers
    500, naming ``response_format``), ``refuse_stream_options`` one answered to every request
    carrying ``stream_options``; neither uses up a reply. ``props`` is the JSON ``GET /props``
    answers (llama.cpp's, e.g. ``{"default_generation_settings": {"n_ctx": 8192}}``) and
    ``models`` the list ``GET /v1/models`` answers; None: 404.

    While a ``Fault.slow`` reply is "generating", or between a ``Fault.trickle`` reply's
    events, the server watches the connection, as llama.cpp's server does: a client that
    closes it (a timed-out request) stops the generation at once, and the request's number
    (from 0) is added to ``.cancelled``.
    """

    replies: list[Reply | Fault] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    refuse_json_schema: int | None = None
    refuse_stream_options: int | None = None
    props: dict[str, Any] | None = None
    models: list[dict[str, Any]] | None = None
    cancelled: list[int] = field(default_factory=list)
    paths: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._url = ""
        self._lock = threading.Lock()
        self._server: LoopbackServer | None = None
        self._served = 0

    @property
    def base_url(self) -> str:
        if not self._url:
            raise RuntimeError("start the FakeOpenAIServer first (use it as a context manager)")
        return self._url

    def __enter__(self) -> FakeOpenAIServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _refusal(self, request: dict[str, Any]) -> tuple[int, str] | None:
        fmt = (request.get("response_format") or {}).get("type")
        if self.refuse_json_schema and fmt == "json_schema":
            return self.refuse_json_schema, "response_format json_schema is not supported"
        if self.refuse_stream_options and "stream_options" in request:
            return (self.refuse_stream_options,
                    "Unrecognized request argument supplied: stream_options")
        return None

    def start(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                with server._lock:
                    server.paths.append(("GET", self.path))
                path = self.path.rstrip("/")
                if path == "/props" and server.props is not None:
                    return self._send(200, json.dumps(server.props))
                if path in ("/v1/models", "/models") and server.models is not None:
                    return self._send(200, json.dumps({"object": "list",
                                                       "data": server.models}))
                self._send(404, json.dumps({"error": {"message": "not found"}}))

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with server._lock:
                    server.paths.append(("POST", self.path))
                    try:
                        request = json.loads(raw or b"{}")
                    except ValueError:
                        request = {"_raw": raw.decode("utf-8", "replace")}
                    server.requests.append(request)
                    number = len(server.requests) - 1
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                    refusal = server._refusal(request)
                    if refusal is not None:
                        return self._send(refusal[0], json.dumps({"error": {
                            "message": refusal[1]}}))
                    n = server._served
                    server._served += 1
                    item = server.replies[min(n, len(server.replies) - 1)] if server.replies \
                        else "{}"
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    return self._send(404, json.dumps({"error": {"message": "not found"}}))
                fault = item if isinstance(item, Fault) else Fault()
                if fault.hang_up == 0:
                    return self._hang_up()
                if fault.delay and not self._generate(fault.delay):
                    with server._lock:
                        server.cancelled.append(number)
                    return
                if fault.body is not None and not (request.get("stream") and
                                                   fault.status == 200):
                    return self._send(fault.status, fault.body)
                content = fault.content if isinstance(item, Fault) else item
                text = content if isinstance(content, str) else json.dumps(content)
                finish, completion = "stop", 10
                limit = request.get("max_tokens")
                if isinstance(limit, int) and len(text) > limit * 4:
                    text, finish, completion = text[: limit * 4], "length", limit
                usage = {"prompt_tokens": 100 + n, "completion_tokens": completion,
                         "total_tokens": 100 + n + completion}
                if request.get("stream"):
                    return self._stream(request, number, n, fault, text, finish, usage)
                body = {
                    "id": f"chatcmpl-fake-{n}", "object": "chat.completion",
                    "created": int(time.time()), "model": "fake-model",
                    "choices": [{"index": 0, "finish_reason": finish,
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": usage,
                }
                self._send(200, json.dumps(body))

            def _stream(self, request: dict[str, Any], number: int, n: int, fault: Fault,
                        text: str, finish: str, usage: dict[str, int]) -> None:
                """The reply as server-sent events in a chunked body, as llama.cpp's server
                sends it: a role, the text in pieces, the finish reason, the usage when
                asked for, ``[DONE]``."""
                def chunk(choices: list[dict[str, Any]], **extra: Any) -> bytes:
                    return ("data: " + json.dumps({
                        "id": f"chatcmpl-fake-{n}", "object": "chat.completion.chunk",
                        "created": int(time.time()), "model": "fake-model",
                        "choices": choices, **extra}) + "\n\n").encode()

                def delta(content: str, **more: Any) -> list[dict[str, Any]]:
                    return [{"index": 0, "delta": {"content": content, **more},
                             "finish_reason": None}]

                size = max(1, -(-len(text) // 4))
                pieces = [text[i:i + size] for i in range(0, len(text), size)]
                gaps = max(len(pieces), int(fault.stream_seconds / 0.05))
                pieces += [""] * (gaps - len(pieces))
                events = [chunk(delta("", role="assistant"))]
                events += [chunk(delta(piece)) for piece in pieces]
                events.append(chunk([{"index": 0, "delta": {}, "finish_reason": finish}]))
                if (request.get("stream_options") or {}).get("include_usage"):
                    events.append(chunk([], usage=usage))
                events.append(b"data: [DONE]\n\n")
                if fault.body is not None:  # malformed: an event that is not JSON
                    events = [b"data: " + fault.body.encode() + b"\n\n"]
                self.protocol_version = "HTTP/1.1"
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.send_header("Connection", "close")
                self.end_headers()
                gap = fault.stream_seconds / len(events) if fault.stream_seconds else 0.0
                try:
                    for i, event in enumerate(events):
                        if fault.hang_up is not None and i >= fault.hang_up:
                            return self._hang_up()
                        if gap and not self._generate(gap):
                            with server._lock:
                                server.cancelled.append(number)
                            return
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(event), event))
                    self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    with server._lock:
                        server.cancelled.append(number)

            def _hang_up(self) -> None:
                """Close the connection now, whatever was sent (a crashed server)."""
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

            def _generate(self, seconds: float) -> bool:
                """Take ``seconds`` to "generate" a reply; False as soon as the client has
                closed the connection (nothing to read but the end of the stream)."""
                conn: socket.socket = self.connection
                deadline = time.monotonic() + seconds
                while (left := deadline - time.monotonic()) > 0:
                    readable, _, _ = select.select([conn], [], [], min(left, 0.05))
                    if readable:
                        try:
                            if conn.recv(1, socket.MSG_PEEK) == b"":
                                return False
                        except OSError:
                            return False
                        time.sleep(min(left, 0.05))  # a pipelined request: keep going
                return True

            def _send(self, status: int, body: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("retry-after-ms", "10")  # keeps the retries quick
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): nothing to do

        self._server = LoopbackServer(Handler)
        self._url = self._server.url + "/v1"

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None


__all__ = ["Fault", "FakeOpenAIServer", "ScriptedCall", "ScriptedLLM", "ScriptedLLMExhausted",
           "read_page_state", "scripted_explorer", "scripted_recorder"]
