"""Recording strategies: how the agent works a step out. One signature for all of them.

A strategy is a factory ``(page, llm, options) -> runner``; the runner has ``page`` (the tab
it ended on), ``usage`` and ``execute(task, max_steps, resources, variables, secrets) ->
TaskResult`` (a coroutine for ``async_webtask``). The built-in ones are ``step`` (one model
call per step) and ``plan`` (rolling-horizon planning); a plugin adds more with the
``pytest_webtask_add_strategies`` hook.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..agent.budget import Budget
from ..errors import ConfigurationError
from ..types import Secrets


@dataclass
class StrategyOptions:
    """What every strategy is built with, from the test's settings."""

    allowed_origins: list[str]
    budget: Budget
    secrets: Secrets
    max_steps: int
    block_subresources: bool = False
    max_page_chars: int = 40_000
    plan_horizon: int = 3
    max_iterations: int = 30
    extra_tools: list[type] = field(default_factory=list)

    def agent_kwargs(self) -> dict[str, Any]:
        """The keyword arguments ``Agent`` and ``PlanAgent`` share."""
        return dict(allowed_origins=self.allowed_origins, require_evidence=True,
                    budget=self.budget, secrets=self.secrets,
                    block_subresources=self.block_subresources,
                    max_page_chars=self.max_page_chars, extra_tools=self.extra_tools)


Strategy = Callable[[Any, Any, StrategyOptions], Any]


def pick(strategies: dict[str, Strategy], name: str) -> Strategy:
    try:
        return strategies[name]
    except KeyError:
        raise ConfigurationError(
            f"unknown webtask strategy {name!r}: known are {', '.join(sorted(strategies))} "
            "(a plugin adds one with the pytest_webtask_add_strategies hook).") from None
