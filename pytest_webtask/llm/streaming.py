"""A chat reply read as it streams, and the deadline that bounds it. No ``openai`` here: the
chunks are read by their attribute names, which every OpenAI-compatible SDK object has."""

from __future__ import annotations

import logging
import socket
import threading
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class Streamed:
    """A streamed reply, chunk by chunk: its text, why it ended, the usage it reported."""

    content_type: str = ""
    parts: list[str] = field(default_factory=list)
    chunks: int = 0
    finish: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, chunk: Any) -> None:
        self.chunks += 1
        usage = getattr(chunk, "usage", None)
        if usage is not None:
            self.prompt_tokens = getattr(usage, "prompt_tokens", 0) or 0
            self.completion_tokens = getattr(usage, "completion_tokens", 0) or 0
        for choice in getattr(chunk, "choices", None) or []:
            if getattr(choice, "index", 0) != 0:
                continue
            text = getattr(getattr(choice, "delta", None), "content", None)
            if isinstance(text, str):
                self.parts.append(text)
            if getattr(choice, "finish_reason", None):
                self.finish = choice.finish_reason

    @property
    def text(self) -> str:
        return "".join(self.parts)


class Watchdog:
    """Shuts a reply's socket at the deadline, which ends a read waiting on it at once (the
    read timeout alone lets a slow trickle of tokens run on past it), and closes the
    connection, so the server sees its client go."""

    def __init__(self, response: Any, seconds: float) -> None:
        self.fired = False
        self._timer = threading.Timer(max(seconds, 0.0), self._fire, (response,))
        self._timer.daemon = True
        self._timer.start()

    def _fire(self, response: Any) -> None:
        self.fired = True
        try:  # httpx (and httpx2) hand the connection's stream out as an extension
            network = response.extensions.get("network_stream")
            sock = network.get_extra_info("socket") if network is not None else None
            if sock is not None:
                sock.shutdown(socket.SHUT_RDWR)
        except Exception:  # noqa: BLE001 - the read timeout still ends the wait
            log.debug("could not shut a timed-out reply's socket", exc_info=True)

    def cancel(self) -> None:
        self._timer.cancel()
