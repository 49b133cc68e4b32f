"""OpenAILLM: any OpenAI-compatible chat endpoint (OpenAI, Azure, Ollama, vLLM, llama.cpp...).

The only module that imports ``openai``. One object serves both the sync agent (``generate``)
and the async agent (``agenerate``); each client is made on first use.
"""

from __future__ import annotations

import base64
import os
from typing import Any

import openai

from ..defaults import LLM_MAX_TOKENS, LLM_TIMEOUT
from ..errors import ConfigurationError, LLMError
from ..types import Usage
from .base import LLMReply
from .context import Context


class OpenAILLM:
    """A chat-completions model behind an OpenAI-compatible endpoint.

    Replies are requested as JSON: with the caller's JSON schema (structured outputs) where
    the server accepts it, else as a plain JSON object (``response_format``: ``"auto"``,
    ``"json_schema"`` or ``"json_object"`` forces one). Temperature is 0; every request
    carries ``max_tokens``. The API key never appears in an error message or a log line.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = LLM_TIMEOUT,
        max_retries: int = 2,
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
        self.supports_images = supports_images
        if response_format not in ("auto", "json_schema", "json_object"):
            raise ConfigurationError(
                "response_format should be 'auto', 'json_schema' or 'json_object'; got "
                f"{response_format!r}.")
        self.response_format = response_format
        self.structured_outputs = structured_outputs and response_format != "json_object"
        self.max_tokens = max_tokens
        self._client: openai.OpenAI | None = None
        self._aclient: openai.AsyncOpenAI | None = None

    @classmethod
    def from_env(cls, **overrides: Any) -> OpenAILLM:
        """Build from ``WEBTASK_MODEL``, ``OPENAI_BASE_URL``, ``OPENAI_API_KEY``."""
        return cls(model=overrides.pop("model", None) or os.environ.get("WEBTASK_MODEL", ""),
                   **overrides)

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAILLM(model={self.model!r}, base_url={self.base_url!r})"

    # -- requests -------------------------------------------------------------------------

    def _messages(self, context: Context) -> list[dict[str, Any]]:
        user: Any = context.user_text
        if self.supports_images and context.images:
            user = [{"type": "text", "text": context.user_text}] + [
                {"type": "image_url",
                 "image_url": {"url": "data:image/png;base64," + base64.b64encode(img).decode()}}
                for img in context.images
            ]
        return [{"role": "system", "content": context.system}, {"role": "user", "content": user}]

    def _request(self, context: Context) -> dict[str, Any]:
        if context.response_schema and self.structured_outputs:
            fmt: dict[str, Any] = {
                "type": "json_schema",
                "json_schema": {"name": "reply", "schema": context.response_schema},
            }
        else:
            fmt = {"type": "json_object"}
        request = {"model": self.model, "messages": self._messages(context), "temperature": 0,
                   "response_format": fmt}
        if self.max_tokens:
            request["max_tokens"] = self.max_tokens
        return request

    def _reply(self, completion: Any) -> LLMReply:
        try:
            text = completion.choices[0].message.content
        except (AttributeError, IndexError, TypeError):
            text = None
        if not isinstance(text, str):
            raise LLMError(f"The model endpoint {self.base_url} returned a reply with no "
                           "message content.")
        usage = Usage(calls=1)
        if getattr(completion, "usage", None) is not None:
            usage.prompt_tokens = completion.usage.prompt_tokens or 0
            usage.completion_tokens = completion.usage.completion_tokens or 0
        truncated = getattr(completion.choices[0], "finish_reason", None) == "length"
        return LLMReply(text=text, usage=usage, truncated=truncated)

    def _error(self, exc: Exception) -> LLMError:
        where = f"the model endpoint {self.base_url} (model {self.model!r})"
        if isinstance(exc, openai.APITimeoutError):
            msg = f"{where} did not answer within {self.timeout:g}s (after retries)."
        elif isinstance(exc, openai.APIStatusError):
            retries = _retries_taken(exc)
            tries = f" after {retries} retr{'y' if retries == 1 else 'ies'}" if retries else ""
            msg = f"{where} answered HTTP {exc.status_code}{tries}: {_short(exc.message)}"
            if exc.status_code == 401:
                msg += " Check OPENAI_API_KEY."
        elif isinstance(exc, openai.APIConnectionError):
            msg = f"could not connect to {where}: check OPENAI_BASE_URL."
        elif isinstance(exc, ValueError):
            msg = f"{where} sent a body that is not valid JSON: {_short(str(exc))}"
        else:
            msg = f"{where} failed: {type(exc).__name__}: {_short(str(exc))}"
        if self._api_key:
            msg = msg.replace(self._api_key, "***")
        return LLMError(msg[0].upper() + msg[1:])

    def _fallback(self, exc: openai.APIStatusError, request: dict[str, Any]) -> bool:
        """True when the server said it does not support structured outputs, so plain JSON
        mode is worth a try: any status (llama.cpp's server answers 500) whose message names
        the response format. Any other error (a 400 for a too long prompt, say) is reported
        as it is."""
        if request["response_format"]["type"] != "json_schema" or self.response_format != "auto":
            return False
        said = f"{exc.message} {exc.body}".lower()
        if not any(word in said for word in ("response_format", "response format",
                                             "json_schema", "structured output")):
            return False
        self.structured_outputs = False
        request["response_format"] = {"type": "json_object"}
        return True

    def generate(self, context: Context) -> LLMReply:
        if self._client is None:
            self._client = openai.OpenAI(base_url=self.base_url, api_key=self._api_key,
                                         timeout=self.timeout, max_retries=self.max_retries)
        request = self._request(context)
        for _ in range(2):
            try:
                return self._reply(self._client.chat.completions.create(**request))
            except openai.APIStatusError as exc:
                if not self._fallback(exc, request):
                    raise self._error(exc) from None
            except (openai.OpenAIError, ValueError) as exc:
                raise self._error(exc) from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def agenerate(self, context: Context) -> LLMReply:
        if self._aclient is None:
            self._aclient = openai.AsyncOpenAI(base_url=self.base_url, api_key=self._api_key,
                                               timeout=self.timeout, max_retries=self.max_retries)
        request = self._request(context)
        for _ in range(2):
            try:
                return self._reply(await self._aclient.chat.completions.create(**request))
            except openai.APIStatusError as exc:
                if not self._fallback(exc, request):
                    raise self._error(exc) from None
            except (openai.OpenAIError, ValueError) as exc:
                raise self._error(exc) from None
        raise AssertionError("unreachable")  # pragma: no cover


def _retries_taken(exc: openai.APIStatusError) -> int:
    """How many retries the SDK made before this answer (it numbers each request)."""
    try:
        return int(exc.response.request.headers.get("x-stainless-retry-count") or 0)
    except (AttributeError, RuntimeError, TypeError, ValueError):
        return 0


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
