"""The agent's data model (seeds 000 and 002): what was proposed, what ran, what came of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..browser.dialogs import Dialog
from ..browser.fingerprint import Fingerprint


@dataclass
class Usage:
    """LLM usage added up over a task (or a session)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.calls += other.calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens

    def since(self, start: Usage) -> Usage:
        """What was used after ``start`` (a copy taken earlier)."""
        return Usage(self.calls - start.calls, self.prompt_tokens - start.prompt_tokens,
                     self.completion_tokens - start.completion_tokens)

    def copy(self) -> Usage:
        return Usage(self.calls, self.prompt_tokens, self.completion_tokens)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class Action:
    """One tool invocation proposed by the model."""

    tool_name: str
    reason: str
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass
class Evidence:
    """A claim the model cited as proof the task is complete, resolved on the live page.

    ``spec`` is the typed claim (a plain string citation becomes a ``text`` claim);
    ``fingerprint`` and ``within`` let a replay find its element and container again;
    ``text`` is the element's rendered text when one was cited. ``found`` is True only when
    the claim holds on the page right now; ``problem`` then says what the page has instead.
    """

    cited: str
    spec: Any = None  # parsing.EvidenceSpec (Any: models stays free of pydantic imports)
    text: str = ""
    element_id: str | None = None
    fingerprint: Fingerprint | None = None
    within: Fingerprint | None = None
    found: bool = True
    problem: str = ""
    tag: str = ""
    input_type: str = ""


@dataclass
class ProposalResult:
    """The model's answer for one step: is the task complete, why, and what to do next."""

    complete: bool
    message: str
    actions: list[Action] = field(default_factory=list)
    evidence: list[Any] = field(default_factory=list)  # str or parsing.EvidenceSpec
    impossible: bool = False


@dataclass
class ExecutionResult:
    """What happened when one action ran.

    ``target`` is the fingerprint of the element acted on, taken just before acting, so a
    recipe can find it again without the element id (``to`` is a drag's drop target).
    ``dialogs`` are the dialogs the action opened, as answered; ``opened_tab`` says it
    opened a new tab, which became the current one. ``page`` is the page the action left
    current when it changed tabs.
    """

    success: bool
    error: str | None = None
    output: str = ""
    target: Fingerprint | None = None
    url_before: str = ""
    url_after: str = ""
    to: Fingerprint | None = None
    dialogs: list[Dialog] = field(default_factory=list)
    opened_tab: bool = False
    page: Any = None


@dataclass
class Step:
    """One agent cycle: one proposal and the results of the actions that ran.

    ``note`` says why fewer actions ran than were proposed (the page navigated or
    re-rendered, leaving the remaining element ids stale).
    """

    proposal: ProposalResult
    executions: list[ExecutionResult] = field(default_factory=list)
    note: str | None = None
    evidence: list[Evidence] = field(default_factory=list)
    url: str = ""


@dataclass
class TaskResult:
    """The outcome of a task: completed or not, every step, the last message, LLM usage."""

    completed: bool
    steps: list[Step]
    message: str
    usage: Usage = field(default_factory=Usage)
    impossible: bool = False

    @property
    def evidence(self) -> list[Evidence]:
        """The evidence cited by the final step (empty unless completed)."""
        return self.steps[-1].evidence if self.steps and self.completed else []
