"""TaskContext: all task-scoped state, and how it is shown to the model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..defaults import MAX_STEPS
from ..llm.prompts import get_prompt
from ..llm.request import Block
from ..tools.values import (  # noqa: F401 (imported from here before)
    Computed,
    ComputedValueError,
    StepValues,
    computed_or_text,
)
from ..types import Secrets
from .models import Step
from .parsing import MAX_MESSAGE, cap, show


@dataclass
class TaskContext(StepValues):
    """Container for all task-scoped state: created when a task is set, replaced by the next.
    Its values (variables, secrets, resources: ``StepValues``) with the task, the agent
    steps taken so far and how they are shown to the model."""

    task: str
    steps: list[Step] = field(default_factory=list)
    max_steps: int = MAX_STEPS
    # the statements the test checks right after this task (the ``test-checks`` rule)
    then_checks: tuple[str, ...] = ()

    @classmethod
    def create(cls, task: str, *, max_steps: int = MAX_STEPS,
               resources: Mapping[str, Any] | None = None,
               variables: Mapping[str, Any] | None = None,
               secrets: Mapping[str, Any] | None = None,
               known: Secrets | None = None) -> TaskContext:
        """A context from what a caller passes: paths and values of any type, as strings;
        a callable value (or a ``Computed``) is computed when the step first uses it.
        ``known`` (shared, updated with ``secrets``) keeps earlier tasks' secrets masked."""
        return cls(task=task, max_steps=max_steps,
                   **cls.parse(resources, variables, secrets, known))

    def add_step(self, step: Step) -> None:
        self.steps.append(step)

    @property
    def step_count(self) -> int:
        return len(self.steps)

    def get_task_context(self) -> Block:
        lines = [f"Task:\n{self.task}"]
        if self.then_checks:
            lines.append("")
            lines.append("Right after this task, the test checks (later steps, not this "
                         "task's; the page should show them once the task is done):")
            lines.extend(f"- {text}" for text in self.then_checks)
        if self.variables or self.secrets or self.computed:
            lines.append("")
            lines.append("Placeholders (you may type a placeholder such as {name} in a value; "
                         "it is replaced by its value in the browser):")
            for name, value in self.variables.items():
                lines.append(f"- {{{name}}} = {value!r}")
            for name in self.secrets:
                lines.append(f"- {{{name}}} = (secret: type the placeholder {{{name}}} itself)")
            for name, computed in self.computed.items():
                what = "secret, computed" if computed.secret else "computed"
                lines.append(f"- {{{name}}} = ({what} when it is typed: type the placeholder "
                             f"{{{name}}} itself)")
        return Block("\n".join(lines))

    def get_resources_context(self) -> Block | None:
        if not self.resources:
            return None
        lines = ["Available file resources for upload (use the upload tool with these names):"]
        for name, path in self.resources.items():
            lines.append(f"- {name}: {Path(path).name}")
        return Block("\n".join(lines))

    def get_steps_context(self, own_words: bool = True, named: bool = False) -> Block:
        """The step history in the format; without the model's own earlier messages when
        ``own_words`` is False (the ``history-facts`` rule: what each step did and changed);
        with the element each action ran on, by role and name, when ``named`` (the
        ``named-actions`` rule)."""
        if not self.steps:
            return Block("Step History:\nNo steps executed yet.")
        lines = ["Step History:"]
        for i, step in enumerate(self.steps, 1):
            lines.append("")
            lines.append(f"Step {i}:")
            lines.append(f"  Status: {'Complete' if step.proposal.complete else 'Incomplete'}")
            if own_words:
                lines.append(f"  Message: {cap(step.proposal.message, MAX_MESSAGE)}")
            for j, (action, execution) in enumerate(
                zip(step.proposal.actions, step.executions, strict=False), 1
            ):
                lines.append(f"  Action {j}:")
                lines.append(f"    Tool: {action.tool}")
                lines.append(f"    Reason: {action.reason}")
                lines.append(f"    Parameters: {show(action.parameters)}")
                if named and execution.target is not None:
                    lines.append(f"    Element: {execution.target.describe()}")
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


def checked_statement(task: str) -> str | None:
    """The statement a check step's task asks about (its first line after the check's
    wording), None for any other task."""
    prefix = get_prompt("agent/proposer", "check_task").split("{statement}")[0]
    if not task.startswith(prefix):
        return None
    return task[len(prefix):].split("\n", 1)[0]
