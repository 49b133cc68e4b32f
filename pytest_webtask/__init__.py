"""pytest-webtask: end-to-end web tests in plain English, recorded once, replayed for free."""

from .agent._async.agent import AsyncAgent
from .agent._async.plan_agent import AsyncPlanAgent
from .agent._sync.agent import Agent
from .agent._sync.plan_agent import PlanAgent
from .agent.models import (
    Action,
    Evidence,
    ExecutionResult,
    ProposalResult,
    Step,
    TaskResult,
    Usage,
)
from .agent.task_context import TaskContext
from .browser.fingerprint import Fingerprint
from .errors import (
    BrowserError,
    ConfigurationError,
    LLMError,
    ProposalError,
    WebtaskError,
)
from .llm.base import LLM, BaseLLM, LLMReply
from .llm.context import Block, Context
from .llm.openai_llm import OpenAILLM

__all__ = [
    "LLM", "Action", "Agent", "AsyncAgent", "AsyncPlanAgent", "BaseLLM", "Block",
    "BrowserError", "ConfigurationError", "Context", "Evidence", "ExecutionResult",
    "Fingerprint", "LLMError", "LLMReply", "OpenAILLM", "PlanAgent", "ProposalError",
    "ProposalResult", "Step", "TaskContext", "TaskResult", "Usage", "WebtaskError",
]
