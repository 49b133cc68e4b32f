"""The built-in recording strategies for the async core (``step`` and ``plan``)."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page

from ...agent._async.agent import AsyncAgent
from ...agent._async.plan_agent import AsyncPlanAgent
from ...agent.models import TaskResult
from ...llm.base import LLM
from ..strategy import Strategy, StrategyOptions


class AsyncPlanRunner(AsyncPlanAgent):
    """``PlanAgent`` with the shared signature: ``max_iterations`` bounds a task, not
    ``max_steps``."""

    async def execute(self, task: str, max_steps: int | None = None,
                      resources: dict[str, str] | None = None,
                      variables: dict[str, Any] | None = None,
                      secrets: dict[str, Any] | None = None) -> TaskResult:
        return await super().execute(task, None, resources, variables, secrets)


def step_strategy(page: Page, llm: LLM, options: StrategyOptions) -> AsyncAgent:
    return AsyncAgent(page, llm, **options.agent_kwargs())


def plan_strategy(page: Page, llm: LLM, options: StrategyOptions) -> AsyncPlanRunner:
    return AsyncPlanRunner(page, llm, horizon=options.plan_horizon,
                           max_iterations=options.max_iterations, **options.agent_kwargs())


def builtin_strategies() -> dict[str, Strategy]:
    return {"step": step_strategy, "plan": plan_strategy}
