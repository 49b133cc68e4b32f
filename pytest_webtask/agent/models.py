"""The agent's data model: what was proposed, what ran, what came of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..types import Action, ExecutionResult, Fingerprint, Usage

if TYPE_CHECKING:
    from .changes import PageChange


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
    image: bytes | None = None  # a "screenshot" claim's picture of its region (PNG)
    items: int | None = None  # how many items an "each" claim read on the page
    # a page text the request's page state showed and the page no longer shows when the reply
    # came (a message that fades): held as read, checked live by every replay
    faded: bool = False
    start: int | None = None  # a "count" claim with a change: its count when the step began


@dataclass
class ProposalResult:
    """The model's answer for one step: is the task complete, why, and what to do next."""

    complete: bool
    message: str
    actions: list[Action] = field(default_factory=list)
    evidence: list[Any] = field(default_factory=list)  # str or parsing.EvidenceSpec
    impossible: bool = False


@dataclass
class Step:
    """One agent cycle: one proposal and the results of the actions that ran.

    ``note`` says why fewer actions ran than were proposed (the page navigated or
    re-rendered, leaving the remaining element ids stale). ``change`` is what the actions
    did to the page, known when the next step reads it. ``rules``: the names of the
    policy's rules (agent/policy.py) that fired while it was made.
    """

    proposal: ProposalResult
    executions: list[ExecutionResult] = field(default_factory=list)
    note: str | None = None
    evidence: list[Evidence] = field(default_factory=list)
    url: str = ""
    change: PageChange | None = None
    rules: list[str] = field(default_factory=list)  # the policy's rules that fired on it
    # the advice (agent/verify.py) given on the task and still drawn by its accepted done
    doubted: list[str] = field(default_factory=list)


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

    @property
    def doubted(self) -> list[str]:
        """The advice the accepted done was recorded over (empty unless completed)."""
        return self.steps[-1].doubted if self.steps and self.completed else []
