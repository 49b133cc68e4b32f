"""OpenAILLM: any OpenAI-compatible chat endpoint (OpenAI, Azure, Ollama, vLLM, llama.cpp...).

The only module that imports ``openai``. One object serves both the sync agent (``generate``)
and the async agent (``agenerate``); each client is made on first use.

Replies are streamed, so that a request that runs out of time, or that Ctrl-C stops, closes
its connection: a server that watches it (llama.cpp's) stops generating. The SDK's own retries
are off; this module retries what is worth it (a connection that failed, 429, 5xx), asks a
reply-format refusal again at once in JSON mode, and does not ask a timed-out generation
again unless told to.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import time
from collections.abc import Mapping
from typing import Any

import openai

from ..defaults import LLM_MAX_TOKENS, LLM_RETRIES, LLM_TIMEOUT
from ..errors import ConfigurationError, LLMError
from ..types import Usage
from .base import LLMReply
from .endpoint import ask_context_window
from .request import ModelRequest
from .streaming import Streamed, Watchdog

log = logging.getLogger(__name__)

# What ``from_env`` reads, by keyword: the settings' own variables (settings.py, whose test
# checks that the two agree).
ENV = {"model": "WEBTASK_MODEL", "base_url": "OPENAI_BASE_URL", "api_key": "OPENAI_API_KEY",
       "timeout": "WEBTASK_LLM_TIMEOUT", "max_tokens": "WEBTASK_LLM_MAX_TOKENS",
       "response_format": "WEBTASK_RESPONSE_FORMAT", "max_retries": "WEBTASK_LLM_RETRIES",
       "retry_timeouts": "WEBTASK_LLM_RETRY_TIMEOUTS"}
RESPONSE_FORMATS = ("auto", "json_schema", "json_object")
RETRIED_STATUSES = frozenset({408, 409, 429})  # and every 5xx that is not a refusal
_UNASKED = object()


class OpenAILLM:
    """A chat-completions model behind an OpenAI-compatible endpoint.

    Replies are requested as JSON: with the caller's JSON schema (structured outputs) where
    the server accepts it, else as a plain JSON object (``response_format``: ``"auto"``,
    ``"json_schema"`` or ``"json_object"`` forces one); a server that refuses the schema is
    asked again at once in JSON mode, and remembered. Temperature is 0; every request carries
    ``max_tokens``.

    ``timeout`` bounds the whole reply (0: no limit): at it the connection is closed, and the
    request is not made again unless ``retry_timeouts``. ``max_retries`` retries a request
    that could not connect, whose connection was closed, or that was answered 408, 409, 429
    or 5xx. Each reply's ``usage`` counts its ``seconds``, ``timeouts`` and ``refusals``; a
    failure raises ``LLMError`` whose ``usage`` says the same. The API key never appears in
    an error message or a log line.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = LLM_TIMEOUT,
        max_retries: int = LLM_RETRIES,
        retry_timeouts: bool = False,
        supports_images: bool = False,
        structured_outputs: bool = True,
        max_tokens: int = LLM_MAX_TOKENS,
        response_format: str = "auto",
    ) -> None:
        if not model:
            raise ConfigurationError(
                "No model name given: set WEBTASK_MODEL (or the webtask_model ini key)."
            )
        self.model = model
        self.base_url = base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
        self._api_key = api_key or os.environ.get("OPENAI_API_KEY") or ""
        if not self._api_key:
            raise ConfigurationError(
                "No API key for the model endpoint: set OPENAI_API_KEY (any non-empty value "
                "for a local server that needs none)."
            )
        self.timeout = timeout
        self.max_retries = max_retries
        self.retry_timeouts = retry_timeouts
        self.supports_images = supports_images
        if response_format not in RESPONSE_FORMATS:
            raise ConfigurationError(
                "response_format should be 'auto', 'json_schema' or 'json_object'; got "
                f"{response_format!r}.")
        self.response_format = response_format
        self.structured_outputs = structured_outputs and response_format != "json_object"
        self.stream_usage = True  # stream_options.include_usage, until a server refuses it
        self.max_tokens = max_tokens
        self._client: openai.OpenAI | None = None
        self._aclient: openai.AsyncOpenAI | None = None
        self._window: Any = _UNASKED

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> OpenAILLM:
        """Built from the environment, with the settings' variables: ``WEBTASK_MODEL``,
        ``OPENAI_BASE_URL``, ``OPENAI_API_KEY``, ``WEBTASK_LLM_TIMEOUT``,
        ``WEBTASK_LLM_MAX_TOKENS``, ``WEBTASK_RESPONSE_FORMAT``, ``WEBTASK_LLM_RETRIES`` and
        ``WEBTASK_LLM_RETRY_TIMEOUTS``. A keyword given (not None) wins over its variable:
        ``from_env(timeout=600)``."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for key, name in ENV.items():
            raw = (env.get(name) or "").strip()
            if raw and overrides.get(key) is None:
                values[key] = _from_text(key, name, raw)
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(model=values.pop("model", ""), **values)

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAILLM(model={self.model!r}, base_url={self.base_url!r})"

    # -- requests -------------------------------------------------------------------------

    def _messages(self, context: ModelRequest) -> list[dict[str, Any]]:
        user: Any = context.user_text
        if self.supports_images and context.images:
            user = [{"type": "text", "text": context.user_text}] + [
                {"type": "image_url",
                 "image_url": {"url": "data:image/png;base64," + base64.b64encode(img).decode()}}
                for img in context.images
            ]
        turns = [{"role": role, "content": text} for user_text, reply in context.examples
                 for role, text in (("user", user_text), ("assistant", reply))]
        return [{"role": "system", "content": context.system}, *turns,
                {"role": "user", "content": user}]

    def _request(self, context: ModelRequest) -> dict[str, Any]:
        if context.response_schema and self.structured_outputs:
            fmt: dict[str, Any] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": context.response_schema},
            }
        else:
            fmt = {"type": "json_object"}
        request = {"model": self.model, "messages": self._messages(context), "temperature": 0,
                   "response_format": fmt, "stream": True}
        if self.stream_usage:
            request["stream_options"] = {"include_usage": True}
        if self.max_tokens:
            request["max_tokens"] = self.max_tokens
        return request

    def generate(self, context: ModelRequest) -> LLMReply:
        tries = _Tries(self, self._request(context))
        while True:
            try:
                return tries.reply(self._stream(tries.request))
            except Exception as exc:  # noqa: BLE001 - sorted by _Tries.failed, else re-raised
                pause = tries.failed(exc)
            time.sleep(pause)

    async def agenerate(self, context: ModelRequest) -> LLMReply:
        tries = _Tries(self, self._request(context))
        while True:
            try:
                if self.timeout:
                    streamed = await asyncio.wait_for(self._astream(tries.request),
                                                      self.timeout)
                else:
                    streamed = await self._astream(tries.request)
                return tries.reply(streamed)
            except asyncio.TimeoutError:
                pause = tries.failed(_TimedOut())
            except Exception as exc:  # noqa: BLE001 - sorted by _Tries.failed, else re-raised
                pause = tries.failed(exc)
            await asyncio.sleep(pause)

    def _stream(self, request: dict[str, Any]) -> Streamed:
        """One request, its reply read as it streams. The SDK's read timeout bounds each wait;
        the watchdog bounds the whole reply, shutting the socket at the deadline."""
        if self._client is None:
            self._client = openai.OpenAI(base_url=self.base_url, api_key=self._api_key,
                                         timeout=self.timeout or None, max_retries=0)
        started = time.monotonic()
        stream = self._client.chat.completions.create(**request)
        streamed = Streamed(stream.response.headers.get("content-type", ""))
        watchdog = (Watchdog(stream.response, started + self.timeout - time.monotonic())
                    if self.timeout else None)
        try:
            for chunk in stream:
                streamed.add(chunk)
        except Exception as exc:  # noqa: BLE001 - what was read so far goes with it
            if watchdog is not None and watchdog.fired:
                raise _TimedOut(streamed) from None
            _midway(exc, streamed)
            raise
        finally:
            if watchdog is not None:
                watchdog.cancel()
            stream.close()  # a reply cut short (Ctrl-C) closes its connection
        if watchdog is not None and watchdog.fired and streamed.finish is None:
            raise _TimedOut(streamed)
        return streamed

    async def _astream(self, request: dict[str, Any]) -> Streamed:
        """One request, read as it streams; the caller's ``wait_for`` is the deadline, and a
        cancelled read closes the connection."""
        if self._aclient is None:
            self._aclient = openai.AsyncOpenAI(base_url=self.base_url, api_key=self._api_key,
                                               timeout=self.timeout or None, max_retries=0)
        stream = await self._aclient.chat.completions.create(**request)
        streamed = Streamed(stream.response.headers.get("content-type", ""))
        try:
            async for chunk in stream:
                streamed.add(chunk)
        except Exception as exc:  # noqa: BLE001 - what was read so far goes with it
            _midway(exc, streamed)
            raise
        finally:
            await stream.close()
        return streamed

    # -- what a failure means -------------------------------------------------------------

    def _where(self) -> str:
        return f"the model endpoint {self.base_url} (model {self.model!r})"

    def _scrub(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key else text

    def _refused_format(self, exc: openai.APIError, request: dict[str, Any]) -> bool:
        """True when the server said it does not support structured outputs: any status
        (llama.cpp's server answers 500) whose message names the response format, to a
        request that asked for a JSON schema. Any other error (a 400 for a too long prompt,
        say) is not one."""
        if request["response_format"]["type"] != "json_schema":
            return False
        said = f"{exc.message} {exc.body}".lower()
        return any(word in said for word in ("response_format", "response format",
                                             "json_schema", "structured output"))

    def _refused_stream_options(self, exc: openai.APIError, request: dict[str, Any]) -> bool:
        """True when the server refused ``stream_options`` (some do not know it): the request
        goes again without, and usage is then whatever the server sends unasked."""
        if "stream_options" not in request or "stream_options" not in \
                f"{exc.message} {exc.body}".lower():
            return False
        self.stream_usage = False
        del request["stream_options"]
        return True

    # -- the server's context window ------------------------------------------------------

    def context_window(self) -> int | None:
        """The context size, in tokens, the server says it gives this model; asked once, then
        remembered. llama.cpp's ``/props`` (``default_generation_settings.n_ctx``), else
        ``/v1/models`` (``meta.n_ctx``, ``meta.n_ctx_train``, vLLM's ``max_model_len``). None
        when the server does not say (OpenAI, Ollama) or cannot be asked; never raises, and
        gives up within a few seconds."""
        if self._window is _UNASKED:
            self._window = ask_context_window(self.base_url, self.model, self._api_key)
        return self._window  # type: ignore[no-any-return]

    async def acontext_window(self) -> int | None:
        """``context_window()`` for async code (asked in a worker thread)."""
        if self._window is _UNASKED:
            self._window = await asyncio.to_thread(ask_context_window, self.base_url,
                                                   self.model, self._api_key)
        return self._window  # type: ignore[no-any-return]


class _TimedOut(Exception):
    """The reply did not come in time (the connection is closed)."""

    def __init__(self, streamed: Streamed | None = None) -> None:
        super().__init__("timed out")
        self.streamed = streamed


class _Closed(Exception):
    """The server ended the reply before it was complete."""

    def __init__(self, streamed: Streamed) -> None:
        super().__init__("closed")
        self.streamed = streamed


class _NotStreamed(Exception):
    """The server answered with something other than a stream of events."""


class _Tries:
    """The requests made for one reply: what each failure means, whether to try again and
    when, and the usage counted (seconds, timeouts, refusals) for the reply or the error."""

    def __init__(self, llm: OpenAILLM, request: dict[str, Any]) -> None:
        self.llm = llm
        self.request = request
        self.usage = Usage()
        self.started = time.monotonic()
        self.retries = 0
        self.closed = False  # a try saw the server close its connection

    def reply(self, streamed: Streamed) -> LLMReply:
        if streamed.finish is None and not streamed.parts:
            if streamed.chunks == 0 and "event-stream" not in streamed.content_type:
                raise _NotStreamed()
            raise _Closed(streamed)
        usage = self.usage
        usage.calls += 1
        usage.prompt_tokens = streamed.prompt_tokens
        usage.completion_tokens = streamed.completion_tokens
        usage.seconds = time.monotonic() - self.started
        return LLMReply(text=streamed.text, usage=usage, truncated=streamed.finish == "length")

    def failed(self, exc: Exception) -> float:
        """The seconds to pause before the next try, or the LLMError to raise (anything
        that is not a model failure is raised as it is)."""
        llm, usage = self.llm, self.usage
        kind = _kind(exc)
        if kind == "timeout":
            usage.timeouts += 1
            log.warning("%s", llm._scrub(f"webtask: {llm._where()} did not answer within "
                                         f"{llm.timeout:g}s; the request was closed"))
            if llm.retry_timeouts and self.retries < llm.max_retries:
                return self._again(exc, "timed out")
            raise self._error(exc) from None
        if isinstance(exc, openai.APIError) and kind == "answer":
            if llm._refused_format(exc, self.request):
                # decided once, at once: the same request cannot fare better, a JSON-mode one
                # is asked now, and every later one is asked in JSON mode
                usage.refusals += 1
                if llm.response_format != "auto":
                    raise self._error(exc) from None
                llm.structured_outputs = False
                self.request["response_format"] = {"type": "json_object"}
                log.warning("%s", llm._scrub(
                    f"webtask: {llm._where()} refused a json_schema reply format "
                    f"({_short(exc.message, 120)}); asking in JSON mode from now on"))
                return 0.0
            if llm._refused_stream_options(exc, self.request):
                return 0.0
            status = getattr(exc, "status_code", None)
            if isinstance(status, int) and (status in RETRIED_STATUSES or status >= 500) \
                    and self.retries < llm.max_retries:
                return self._again(exc, f"HTTP {status}")
            raise self._error(exc) from None
        if kind in ("refused", "closed"):
            self.closed = self.closed or kind == "closed"
            if self.retries < llm.max_retries:
                return self._again(exc, "could not connect" if kind == "refused"
                                   else "the connection was closed")
            raise self._error(exc) from None
        if kind in ("json", "not streamed"):
            raise self._error(exc) from None
        raise exc

    def _again(self, exc: Exception, why: str) -> float:
        llm = self.llm
        self.retries += 1
        pause = _pause(exc, self.retries)
        log.warning("%s", llm._scrub(f"webtask: {llm._where()}: {why}; retry {self.retries} "
                                     f"of {llm.max_retries} in {pause:.1f}s"))
        return pause

    def _error(self, exc: Exception) -> LLMError:
        llm, retries = self.llm, self.retries
        where, kind = llm._where(), _kind(exc)
        tries = f" after {retries} retr{'y' if retries == 1 else 'ies'}" if retries else ""
        if kind == "timeout":
            written = _so_far(exc, " (it had written {} characters)")
            msg = (f"{where} did not answer within {llm.timeout:g}s{tries}{written}. The "
                   "request was closed, so a server that watches its connection (llama.cpp's) "
                   "stops generating. A slow model (a CPU, a long prompt) needs a longer "
                   "timeout: WEBTASK_LLM_TIMEOUT or the webtask_llm_timeout ini key.")
        elif kind == "answer" and isinstance(exc, openai.APIStatusError):
            msg = f"{where} answered HTTP {exc.status_code}{tries}: {_short(exc.message)}"
            if exc.status_code == 401:
                msg += " Check OPENAI_API_KEY."
        elif kind == "answer" and isinstance(exc, openai.APIError):
            msg = f"{where} failed while replying{tries}: {_short(exc.message)}"
        elif kind == "refused" and self.closed:
            msg = (f"{where} closed the connection before replying, then refused connections "
                   f"({retries} retr{'y' if retries == 1 else 'ies'}): the server has likely "
                   "crashed or stopped; see its log.")
        elif kind == "refused":
            msg = (f"could not connect to {where}{tries}: check OPENAI_BASE_URL and that the "
                   "server is running.")
        elif kind == "closed":
            part = _so_far(exc, " in full (it had sent {} characters)")
            msg = (f"{where} closed the connection before replying{part}{tries}: the server "
                   "may have crashed or been stopped, or a proxy dropped the request; see the "
                   "server's log.")
        elif kind == "not streamed":
            msg = (f"{where} answered, but not with a stream of events: the request asks for "
                   "stream=true, which OpenAI-compatible servers support.")
        elif kind == "json":
            msg = f"{where} sent a body that is not valid JSON: {_short(str(exc))}"
        else:  # pragma: no cover - _kind sorts every model failure above
            msg = f"{where} failed: {type(exc).__name__}: {_short(str(exc))}"
        self.usage.seconds = time.monotonic() - self.started
        msg = llm._scrub(msg)
        return LLMError(msg[0].upper() + msg[1:], usage=self.usage)


def _midway(exc: Exception, streamed: Streamed) -> None:
    """A failure while the reply streamed: a timeout or a closed connection is raised
    carrying what had come of the reply; anything else is left to the caller."""
    kind = _kind(exc)
    if kind == "timeout":
        raise _TimedOut(streamed) from exc
    if kind == "closed":
        raise _Closed(streamed) from exc


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _kind(exc: BaseException) -> str:
    """What a failed try was: "timeout", "answer" (the server answered with an error),
    "refused" (no connection), "closed" (the connection ended before the reply), "json",
    "not streamed", or "" (not a model failure)."""
    if isinstance(exc, _TimedOut | openai.APITimeoutError) and not any(
            type(e).__name__ == "ConnectTimeout" for e in _chain(exc)):
        return "timeout"
    if isinstance(exc, _Closed):
        return "closed"
    if isinstance(exc, _NotStreamed):
        return "not streamed"
    transport = isinstance(exc, openai.APIConnectionError | OSError) or \
        type(exc).__module__.split(".")[0] in ("httpx", "httpx2", "httpcore", "httpcore2")
    if transport:
        names = {type(e).__name__ for e in _chain(exc)}
        if "ConnectTimeout" in names or "ConnectError" in names \
                or "ConnectionRefusedError" in names or "gaierror" in names:
            return "refused"
        if any(name.endswith("Timeout") for name in names) or "TimeoutError" in names:
            return "timeout"
        return "closed"
    if isinstance(exc, openai.APIError):
        return "answer"
    if isinstance(exc, ValueError):
        return "json"
    return ""


def _pause(exc: Exception, retry: int) -> float:
    """Seconds before retry number ``retry``: what the server asked for (``retry-after-ms``,
    ``retry-after``; up to a minute), else 0.5 s doubling up to 8 s."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            seconds = float(headers.get(name) or "") * scale
        except (TypeError, ValueError):
            continue
        if 0 <= seconds <= 60:
            return seconds
    return min(0.5 * 2 ** (retry - 1), 8.0)


def _from_text(key: str, name: str, raw: str) -> Any:
    """An environment variable's text as ``OpenAILLM`` takes it; ConfigurationError naming
    the variable when it is not."""
    if key == "response_format":
        if raw not in RESPONSE_FORMATS:
            raise ConfigurationError(f"{name} should be one of {', '.join(RESPONSE_FORMATS)}; "
                                     f"got {raw!r}.")
        return raw
    if key == "retry_timeouts":
        text = raw.lower()
        if text in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            return text in ("1", "true", "yes", "on")
        raise ConfigurationError(f"{name} should be true or false; got {raw!r}.")
    kind: type = {"timeout": float, "max_tokens": int, "max_retries": int}.get(key, str)
    if kind is str:
        return raw
    try:
        value = kind(raw)
    except ValueError:
        what = "a number of seconds" if kind is float else "a whole number"
        raise ConfigurationError(f"{name} should be {what}; got {raw!r}.") from None
    if value < 0:
        raise ConfigurationError(f"{name} should be 0 or more; got {raw!r}.")
    return value


def _so_far(exc: Exception, words: str) -> str:
    """``words`` with the length of the reply streamed before ``exc`` (empty: none came)."""
    streamed = getattr(exc, "streamed", None)
    return words.format(len(streamed.text)) if streamed is not None and streamed.parts else ""


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
