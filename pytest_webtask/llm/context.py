"""What is sent to a model: a system prompt and user blocks (text, optionally an image)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Block:
    """One part of the user message. ``image`` is PNG bytes for models that take images."""

    text: str
    image: bytes | None = None


@dataclass
class Context:
    """A full request: system prompt, user blocks, and the JSON schema the reply must follow."""

    system: str
    blocks: list[Block] = field(default_factory=list)
    response_schema: dict[str, Any] | None = None

    def append(self, block: Block | None) -> None:
        if block is not None:
            self.blocks.append(block)

    @property
    def user_text(self) -> str:
        """The user message as text, blocks separated as in seed 001."""
        return "\n\n---\n\n".join(b.text for b in self.blocks)

    def to_text(self) -> str:
        """The whole prompt as text (system, then user), as a person would read it."""
        return f"=== SYSTEM PROMPT ===\n{self.system}\n\n=== USER MESSAGE ===\n\n{self.user_text}"

    @property
    def images(self) -> list[bytes]:
        return [b.image for b in self.blocks if b.image is not None]
