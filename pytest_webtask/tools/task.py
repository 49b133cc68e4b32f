"""What a tool needs of the task it serves: the task's values, not the agent's whole state.

``agent.task_context.TaskContext`` satisfies it; the tools never import the agent (the agent
imports the tools).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class TaskValues(Protocol):
    """A task's resources (files it may upload) and how its ``{placeholders}`` resolve."""

    @property
    def resources(self) -> Mapping[str, str]: ...

    def substitute(self, value: str) -> str:
        """``value`` with each ``{name}`` of a variable or secret replaced by its value."""
        ...

    def names_secret(self, value: str) -> bool:
        """Whether ``value`` is (or holds) a ``{placeholder}`` of one of the task's secrets."""
        ...
