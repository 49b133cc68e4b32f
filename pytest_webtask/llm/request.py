"""What is sent to a model: a system prompt and user blocks (text, optionally an image).

``ModelRequest`` was called ``Context`` before issue 36 ("context" named three things); the
old name stays an alias, so adapters written against it keep working."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Block:
    """One part of the user message. ``image`` is PNG bytes for models that take images."""

    text: str
    image: bytes | None = None


@dataclass
class ModelRequest:
    """A full request: system prompt, user blocks, and the JSON schema the reply must follow.

    ``purpose``, ``task`` and ``step`` say what the request is for, as data: "step" (the
    proposer; checks too, their task carrying the check's wording), "plan", "plan:resolve",
    "extract:strategy", "extract:generator", "extract:recipe", and for ``webtask explore``
    "explore" (one page), "explore:plan" and "explore:generate"; the task text as given (secrets
    redacted like the blocks); ``step`` counts from 1 (the proposer's step, the strategy
    planner's turn). They are never sent to a model: test doubles route replies by them
    instead of parsing the prose, which may change.
    """

    system: str
    blocks: list[Block] = field(default_factory=list)
    response_schema: dict[str, Any] | None = None
    purpose: str = ""
    task: str = ""
    step: int = 0
    # earlier turns shown before the request as a conversation (user text, assistant reply):
    # worked examples, which a small model follows far better than instructions
    examples: list[tuple[str, str]] = field(default_factory=list)

    def append(self, block: Block | None) -> None:
        if block is not None:
            self.blocks.append(block)

    @property
    def user_text(self) -> str:
        """The user message as text, blocks separated as the prompt shows them."""
        return "\n\n---\n\n".join(b.text for b in self.blocks)

    def to_text(self) -> str:
        """The whole prompt as text (system, then user), as a person would read it."""
        turns = "".join(f"=== EXAMPLE USER MESSAGE ===\n\n{user}\n\n"
                        f"=== EXAMPLE REPLY ===\n\n{reply}\n\n"
                        for user, reply in self.examples)
        return (f"=== SYSTEM PROMPT ===\n{self.system}\n\n{turns}"
                f"=== USER MESSAGE ===\n\n{self.user_text}")

    @property
    def images(self) -> list[bytes]:
        return [b.image for b in self.blocks if b.image is not None]


# The name before issue 36: an adapter's ``def generate(self, context: Context)`` still works.
Context = ModelRequest
