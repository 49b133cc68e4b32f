"""Parameters of the planner strategy's own tools: planner and done."""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from ..defaults import PLAN_HORIZON
from ..tools.params import ToolParams
from .parsing import EvidenceSpec


class PlannerParams(ToolParams):
    task: str = Field(description="The task to plan for")
    max_steps: int = Field(default=PLAN_HORIZON,
                           description="How many steps to plan (rolling horizon)")


class DoneParams(ToolParams):
    summary: str = Field(default="", description="What was achieved (or why it is impossible)")
    evidence: list[str | EvidenceSpec] = Field(
        default_factory=list,
        description="Typed claims (or element IDs / exact visible texts) that prove the task "
        "is complete, as in the system prompt")
    impossible: bool = Field(default=False,
                             description="True when the task cannot be done (ends it at once)")


# "parameters" and "reason" are the words (GLOSSARY.md); "args" and "reasoning" are still
# read, as replies and scripts written before the rename use them.
_PARAMETERS = AliasChoices("parameters", "args")
_REASON = AliasChoices("reason", "reasoning")


class PlanStep(BaseModel):
    model_config = ConfigDict(extra="ignore")
    action: str = Field(min_length=1)
    tool: str = Field(min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict, validation_alias=_PARAMETERS)


class Plan(BaseModel):
    model_config = ConfigDict(extra="ignore")
    steps: list[PlanStep] = Field(min_length=1)


class ToolInvocation(BaseModel):
    model_config = ConfigDict(extra="ignore")
    tool: str = Field(min_length=1)
    parameters: dict[str, Any] = Field(default_factory=dict, validation_alias=_PARAMETERS)
    reason: str = Field(default="", validation_alias=_REASON)
