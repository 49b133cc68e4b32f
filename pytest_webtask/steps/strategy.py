"""Recording strategies: how the agent works a step out. One signature for all of them.

A strategy is a factory ``(page, llm, options) -> runner``; the runner has ``page`` (the tab
it ended on), ``usage`` and ``execute(task, max_steps, resources, variables, secrets) ->
TaskResult`` (a coroutine for ``async_webtask``). The built-in ones are ``step`` (one model
call per step) and ``plan`` (rolling-horizon planning); a plugin adds more with the
``pytest_webtask_add_strategies`` hook.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..agent.budget import Budget
from ..defaults import MAX_ITERATIONS, PAGE_CHARS, PLAN_HORIZON
from ..errors import ConfigurationError
from ..llm.base import LLM
from ..types import Secrets, Usage


@dataclass
class StrategyOptions:
    """What every strategy is built with, from the test's settings."""

    allowed_origins: list[str]
    budget: Budget
    secrets: Secrets
    max_steps: int
    block_subresources: bool = False
    page_chars: int = PAGE_CHARS
    plan_horizon: int = PLAN_HORIZON
    max_iterations: int = MAX_ITERATIONS
    extra_tools: list[type] = field(default_factory=list)
    rules_off: str = ""  # the policy's rules switched off (agent/policy.py)
    profile: str = ""  # standard or small ("": WEBTASK_PROFILE, else standard)
    # the statements the test checks right after a do task (the ``test-checks`` rule)
    then_checks: tuple[str, ...] = ()

    def agent_kwargs(self) -> dict[str, Any]:
        """The keyword arguments ``Agent`` and ``PlanAgent`` share."""
        return dict(allowed_origins=self.allowed_origins, require_evidence=True,
                    budget=self.budget, secrets=self.secrets,
                    block_subresources=self.block_subresources,
                    page_chars=self.page_chars, extra_tools=self.extra_tools,
                    rules_off=self.rules_off, then_checks=self.then_checks,
                    profile=self.profile)

    @property
    def max_page_chars(self) -> int:
        """Deprecated: ``page_chars``."""
        warnings.warn("StrategyOptions.max_page_chars is deprecated: read page_chars",
                      DeprecationWarning, stacklevel=2)
        return self.page_chars


class TaskRunner(Protocol):
    """What a strategy builds: something that works a task out on the page.
    ``execute(task, max_steps, resources, variables, secrets)`` returns a ``TaskResult``
    (awaited in the async twin, so its signature is not one both twins share); ``page`` is
    the tab it ended on, ``usage`` its model use."""

    @property
    def page(self) -> Any: ...

    @property
    def usage(self) -> Usage: ...

    def execute(self, *args: Any, **kwargs: Any) -> Any: ...


# A strategy: (the page, async or sync; the model; the options) -> a task runner.
Strategy = Callable[[Any, LLM, StrategyOptions], TaskRunner]


def pick(strategies: dict[str, Strategy], name: str) -> Strategy:
    try:
        return strategies[name]
    except KeyError:
        raise ConfigurationError(
            f"unknown webtask strategy {name!r}: known are {', '.join(sorted(strategies))} "
            "(a plugin adds one with the pytest_webtask_add_strategies hook).") from None
