"""pytest-webtask: end-to-end web tests in plain English, recorded once, replayed for free.

The public API. Names load on first use (PEP 562), so loading the pytest plugin, which
imports this package, costs no agent, Playwright glue or ``openai`` import.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import (
    BrowserError,
    ConfigurationError,
    ExtractionError,
    LLMError,
    ProposalError,
    RecipeError,
    ReplayError,
    WebtaskError,
)

if TYPE_CHECKING:
    from .agent._async.agent import AsyncAgent
    from .agent._async.plan_agent import AsyncPlanAgent
    from .agent._sync.agent import Agent
    from .agent._sync.plan_agent import PlanAgent
    from .agent.models import TaskResult
    from .llm.base import BaseLLM, LLMReply
    from .llm.openai_llm import OpenAILLM
    from .llm.request import Block, Context, ModelRequest
    from .steps._async.webtask import AsyncWebTask
    from .steps._sync.webtask import WebTask
    from .steps.outcome import StepOutcome
    from .steps.strategy import StrategyOptions
    from .tools._async.browser_tools import AsyncScene, AsyncTool
    from .tools._sync.browser_tools import Scene, Tool
    from .tools.params import ToolParams
    from .tools.values import Computed
    from .types import ExecutionResult, Usage

_LAZY = {
    "WebTask": ".steps._sync.webtask",
    "AsyncWebTask": ".steps._async.webtask",
    "StepOutcome": ".steps.outcome",
    "Agent": ".agent._sync.agent",
    "AsyncAgent": ".agent._async.agent",
    "PlanAgent": ".agent._sync.plan_agent",
    "AsyncPlanAgent": ".agent._async.plan_agent",
    "TaskResult": ".agent.models",
    "ExecutionResult": ".types",
    "OpenAILLM": ".llm.openai_llm",
    "BaseLLM": ".llm.base",
    "LLMReply": ".llm.base",
    "ModelRequest": ".llm.request",
    "Context": ".llm.request",  # ModelRequest's name before issue 36, kept for adapters
    "Block": ".llm.request",
    "Usage": ".types",
    "Tool": ".tools._sync.browser_tools",
    "AsyncTool": ".tools._async.browser_tools",
    "Scene": ".tools._sync.browser_tools",
    "AsyncScene": ".tools._async.browser_tools",
    "ToolParams": ".tools.params",
    "StrategyOptions": ".steps.strategy",
    "Computed": ".tools.values",
}

__all__ = [
    "Agent", "AsyncAgent", "AsyncPlanAgent", "AsyncScene", "AsyncTool", "AsyncWebTask",
    "BaseLLM", "Block", "BrowserError", "Computed", "ConfigurationError", "Context",
    "ExecutionResult", "ExtractionError", "LLMError", "LLMReply", "ModelRequest", "OpenAILLM",
    "PlanAgent", "ProposalError", "RecipeError", "ReplayError", "Scene", "StepOutcome",
    "StrategyOptions", "TaskResult", "Tool", "ToolParams", "Usage", "WebTask", "WebtaskError",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pytest_webtask' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
