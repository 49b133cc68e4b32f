"""A model adapter: pytest-webtask recording through an SDK that is not OpenAI's.

Any object with ``generate(context) -> LLMReply`` is a model; subclass ``BaseLLM`` and the
async twin (``agenerate``) comes for free. This one talks to a "messages" style SDK: a client
whose ``messages.create(model=, system=, messages=, max_tokens=)`` returns content blocks,
token usage and a stop reason. The SDK is described by the protocols below, so the adapter
type-checks (``mypy --strict``) without it; hand ``MessagesLLM`` your SDK's client, adapting
the two calls marked SDK where yours differs. Use it from ``conftest.py``::

    @pytest.fixture(scope="session")
    def webtask_llm() -> MessagesLLM:
        return MessagesLLM(your_sdk.Client(api_key=os.environ["YOUR_KEY"]), model="...")

It is only built when a step records; replays never request it.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any, Protocol

from pytest_webtask import BaseLLM, LLMError, LLMReply, ModelRequest, Usage


class TextBlock(Protocol):
    type: str
    text: str


class MessageUsage(Protocol):
    input_tokens: int
    output_tokens: int


class Message(Protocol):
    content: Sequence[TextBlock]
    usage: MessageUsage
    stop_reason: str | None


class Messages(Protocol):
    def create(self, *, model: str, system: str, messages: list[dict[str, Any]],
               max_tokens: int, temperature: float) -> Message: ...


class MessagesClient(Protocol):
    @property
    def messages(self) -> Messages: ...


class MessagesLLM(BaseLLM):
    """A model behind a messages-style SDK client."""

    def __init__(self, client: MessagesClient, model: str, *, max_tokens: int = 4096,
                 supports_images: bool = False) -> None:
        self.client = client
        self.model = model
        self.max_tokens = max_tokens
        self.supports_images = supports_images

    def generate(self, context: ModelRequest) -> LLMReply:
        # The reply must be one JSON object following context.response_schema: this SDK
        # has no JSON mode, so the schema goes into the prompt.
        text = context.user_text
        if context.response_schema is not None:
            text += ("\n\nAnswer with one JSON object, and nothing else, that follows this "
                     "JSON schema:\n" + json.dumps(context.response_schema))
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        if self.supports_images:  # page screenshots, as PNG bytes
            content += [{"type": "image", "source": {
                "type": "base64", "media_type": "image/png",
                "data": base64.b64encode(image).decode()}} for image in context.images]
        # worked examples come first, as earlier turns of the conversation
        turns: list[dict[str, Any]] = [
            {"role": role, "content": said} for user, reply in context.examples
            for role, said in (("user", user), ("assistant", reply))]
        try:  # SDK: the request
            message = self.client.messages.create(
                model=self.model, system=context.system, max_tokens=self.max_tokens,
                temperature=0, messages=[*turns, {"role": "user", "content": content}])
        except Exception as exc:  # SDK: its errors; say what failed, never the key
            raise LLMError(f"The model {self.model!r} failed: {type(exc).__name__}: "
                           f"{exc}") from None
        reply = "".join(block.text for block in message.content if block.type == "text")
        usage = Usage(calls=1, prompt_tokens=message.usage.input_tokens,
                      completion_tokens=message.usage.output_tokens)
        # a reply cut at max_tokens is asked again once, saying so
        return LLMReply(text=reply, usage=usage,
                        truncated=message.stop_reason == "max_tokens")
