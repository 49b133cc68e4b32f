"""MessageManager: the conversation, written only by the agent. Tools get a
read-only MessageReader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Message:
    role: Role
    content: str


class MessageManager:
    """The agent's conversation. Only the agent holds this object; it hands tools a
    :class:`MessageReader` from :meth:`reader`."""

    def __init__(self) -> None:
        self._messages: list[Message] = []

    def add_system(self, content: str) -> None:
        self._messages.append(Message("system", content))

    def add_user(self, content: str) -> None:
        self._messages.append(Message("user", content))

    def add_assistant(self, content: str) -> None:
        self._messages.append(Message("assistant", content))

    def reader(self) -> MessageReader:
        messages = self._messages
        return MessageReader(lambda: tuple(messages))


class MessageReader:
    """A read-only view of a MessageManager: it can list messages, never add or change one.
    It keeps no reference to the manager, only a function returning an immutable snapshot."""

    __slots__ = ("_snapshot",)

    def __init__(self, snapshot: Any) -> None:
        object.__setattr__(self, "_snapshot", snapshot)

    def get_all(self) -> tuple[Message, ...]:
        return self._snapshot()  # type: ignore[no-any-return]

    def get_last_assistant(self) -> str | None:
        return next((m.content for m in reversed(self.get_all()) if m.role == "assistant"), None)

    def get_conversation_history(self) -> str:
        return "\n".join(f"{m.role}: {m.content}" for m in self.get_all() if m.role != "system")

    def __setattr__(self, name: str, value: object) -> None:
        raise PermissionError("MessageReader is read-only: only the agent writes messages.")

    def __getattr__(self, name: str) -> Any:
        raise PermissionError(
            f"MessageReader is read-only and has no {name!r}: only the agent writes messages."
        )
