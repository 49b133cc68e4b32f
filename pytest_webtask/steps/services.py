"""What a pipeline is built with beyond the page, its recipe and its settings, and what a
step kind gets back from the agent: shared by both twins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..agent.budget import RunBudget
from ..agent.models import TaskResult
from ..errors import ConfigurationError
from ..llm.base import LLM
from ..types import Usage
from .strategy import Strategy


def no_llm() -> LLM:
    raise ConfigurationError("no model is configured")


@dataclass
class StepServices:
    """What recording (and healing) a step uses: the model, built only when a step records
    or heals; the run's budget; the strategies and tools plugins add (tools replay too)."""

    llm: Callable[[], LLM] = no_llm
    run_budget: RunBudget | None = None
    strategies: dict[str, Strategy] = field(default_factory=dict)
    tools: list[type] = field(default_factory=list)


@dataclass(frozen=True)
class TestInfo:
    """What the pipeline knows of the test it runs in: the base URL a relative ``goto``
    resolves against, the command that re-records it (for messages), its artifacts folder
    (failure message and screenshot, extract reports, heal diffs) and whether a failure is
    screenshotted (pytest-playwright's ``--screenshot``)."""

    __test__ = False  # not a pytest test class

    base_url: str | None = None
    # the plugin passes the test's own command; built by hand, the node id is unknown
    fix_command: str = "pytest --webtask-record <the test's node id>"
    artifacts: Path | None = None
    screenshot: bool = True


@dataclass
class AgentAttempt:
    """One run of the agent on a step's task: its result, or why it stopped early (a budget,
    a model error), and the model use either way."""

    result: TaskResult | None
    stopped: str
    usage: Usage
    # origins of frames the page showed that were not allowed, so the model never saw them
    frames_not_allowed: list[str] = field(default_factory=list)

    def unread_frames(self) -> str:
        """Why fields may have been missing: the frames left unread ("" when none)."""
        if not self.frames_not_allowed:
            return ""
        origins = ", ".join(self.frames_not_allowed)
        return (f"\n  The page shows a frame from {origins}, which is not allowed, so its "
                "content (fields, buttons) was not shown to the model. If the step needs it, "
                "allow the origin: webtask_allowed_origins in the ini file, or "
                f"@pytest.mark.webtask(allowed_origins=[{self.frames_not_allowed[0]!r}]).")
