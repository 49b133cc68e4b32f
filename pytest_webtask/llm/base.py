"""The LLM protocol every model adapter follows, sync and async."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from ..types import Usage
from .request import ModelRequest


@dataclass
class LLMReply:
    """The text a model returned, and what it cost."""

    text: str
    usage: Usage = field(default_factory=lambda: Usage(calls=1))
    truncated: bool = False  # cut at the request's max_tokens


@runtime_checkable
class LLM(Protocol):
    """A model. ``generate`` serves the sync ``Agent``; ``agenerate`` the ``AsyncAgent``.

    Subclass :class:`BaseLLM` to write only ``generate``.
    """

    supports_images: bool

    def generate(self, context: ModelRequest) -> LLMReply: ...

    async def agenerate(self, context: ModelRequest) -> LLMReply: ...


class BaseLLM:
    """Convenience base: implement ``generate``; ``agenerate`` runs it in a worker thread."""

    supports_images: bool = False

    def generate(self, context: ModelRequest) -> LLMReply:  # pragma: no cover - abstract
        raise TypeError(f"{type(self).__name__} must implement generate(context)")

    async def agenerate(self, context: ModelRequest) -> LLMReply:
        return await asyncio.to_thread(self.generate, context)
