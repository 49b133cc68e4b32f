"""TaskContext: all task-scoped state, and how it is shown to the model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..defaults import MAX_STEPS
from ..llm.context import Block
from ..types import Secrets
from .models import Step
from .parsing import MAX_MESSAGE, cap, show


@dataclass
class TaskContext:
    """Container for all task-scoped state: created when a task is set, replaced by the next.

    ``variables`` are shown to the model as placeholder names with their values; ``secrets``
    are shown as placeholder names only, their values never leave this object. ``known``
    holds every secret to mask: this task's and those an earlier task of the same test (or
    agent) registered, whose values may still be on the page.
    """

    task: str
    resources: dict[str, str] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    max_steps: int = MAX_STEPS
    variables: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict)
    known: Secrets = field(default_factory=Secrets)

    def __post_init__(self) -> None:
        self.known.register(self.secrets)

    @classmethod
    def create(cls, task: str, *, max_steps: int = MAX_STEPS,
               resources: Mapping[str, Any] | None = None,
               variables: Mapping[str, Any] | None = None,
               secrets: Mapping[str, Any] | None = None,
               known: Secrets | None = None) -> TaskContext:
        """A context from what a caller passes: paths and values of any type, as strings.
        ``known`` (shared, updated with ``secrets``) keeps earlier tasks' secrets masked."""
        def strings(d: Mapping[str, Any] | None) -> dict[str, str]:
            return {k: str(v) for k, v in (d or {}).items()}
        return cls(task=task, max_steps=max_steps, resources=strings(resources),
                   variables=strings(variables), secrets=strings(secrets),
                   known=known if known is not None else Secrets())

    def names_secret(self, value: str) -> bool:
        """Does a value the model typed hold a secret's placeholder?"""
        return any("{" + name + "}" in value for name in self.secrets)

    def add_step(self, step: Step) -> None:
        self.steps.append(step)

    @property
    def step_count(self) -> int:
        return len(self.steps)

    def get_task_context(self) -> Block:
        lines = [f"Task:\n{self.task}"]
        if self.variables or self.secrets:
            lines.append("")
            lines.append("Placeholders (you may type a placeholder such as {name} in a value; "
                         "it is replaced by its value in the browser):")
            for name, value in self.variables.items():
                lines.append(f"- {{{name}}} = {value!r}")
            for name in self.secrets:
                lines.append(f"- {{{name}}} = (secret: type the placeholder {{{name}}} itself)")
        return Block("\n".join(lines))

    def get_resources_context(self) -> Block | None:
        if not self.resources:
            return None
        lines = ["Available file resources for upload (use the upload tool with these names):"]
        for name, path in self.resources.items():
            lines.append(f"- {name}: {Path(path).name}")
        return Block("\n".join(lines))

    def get_steps_context(self) -> Block:
        """The step history in the format."""
        if not self.steps:
            return Block("Step History:\nNo steps executed yet.")
        lines = ["Step History:"]
        for i, step in enumerate(self.steps, 1):
            lines.append("")
            lines.append(f"Step {i}:")
            lines.append(f"  Status: {'Complete' if step.proposal.complete else 'Incomplete'}")
            lines.append(f"  Message: {cap(step.proposal.message, MAX_MESSAGE)}")
            for j, (action, execution) in enumerate(
                zip(step.proposal.actions, step.executions, strict=False), 1
            ):
                lines.append(f"  Action {j}:")
                lines.append(f"    Tool: {action.tool}")
                lines.append(f"    Reason: {action.reason}")
                lines.append(f"    Parameters: {show(action.parameters)}")
                lines.append(f"    Execution: {'Success' if execution.success else 'Failed'}")
                if execution.error:
                    lines.append(f"    Error: {cap(self.redact(execution.error), MAX_MESSAGE)}")
                if execution.output:
                    lines.append(f"    Output: {cap(self.redact(execution.output), MAX_MESSAGE)}")
            if step.change is not None:
                lines.append(f"  Page: {step.change.summary()}")
            if step.note:
                lines.append(f"  Note: {step.note}")
        return Block(self.redact("\n".join(lines)))

    def substitute(self, value: str) -> str:
        """Replace ``{name}`` placeholders in a value typed by the model with their values."""
        for name, real in {**self.variables, **self.secrets}.items():
            value = value.replace("{" + name + "}", real)
        return value

    def placeholders(self, text: str, *, variables: bool = True) -> str:
        """Put ``{name}`` back where ``text`` holds a secret's value (always) or a variable's
        value (when ``variables``, and only values of 3+ characters or the whole text, so a
        short value such as "1" is not replaced inside unrelated words)."""
        text = self.known.mask(text)
        if variables:
            for name, real in sorted(self.variables.items(), key=lambda kv: -len(kv[1])):
                if real and (len(real) >= 3 or text == real):
                    text = text.replace(real, "{" + name + "}")
        return text

    def redact(self, text: str) -> str:
        """Replace any secret value in ``text`` (this task's or an earlier one's) with its
        placeholder."""
        return self.known.mask(text)
