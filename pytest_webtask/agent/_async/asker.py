"""One model call with a validated JSON reply, asked again once when the reply is unusable."""

from __future__ import annotations

from ...errors import LLMError, ProposalError
from ...llm.base import LLM
from ...llm.json_schema import json_schema
from ...llm.prompts import get_prompt
from ...llm.request import Block, ModelRequest
from ...types import Usage
from ..budget import Budget
from ..parsing import InvalidReply, M, parse_model, quote
from ..task_context import TaskContext


class AsyncAsker:
    """One model call with a validated JSON reply; an invalid reply is asked again once.
    Every call is checked against ``budget`` first (counted from this asker's creation)."""

    def __init__(self, llm: LLM, task: TaskContext, usage: Usage,
                 budget: Budget | None = None) -> None:
        self.llm = llm
        self.task = task
        self.usage = usage
        self.budget = budget
        self._start = usage.copy()
        self._truncated = False

    def _why(self, invalid: InvalidReply) -> str:
        if self._truncated:
            return (f"{invalid} (the reply was cut off at the max_tokens limit: keep it short, "
                    "or raise webtask_llm_max_tokens)")
        return str(invalid)

    async def ask(self, context: ModelRequest, model: type[M], what: str) -> M:
        for block in context.blocks:  # secrets never reach the model
            block.text = self.task.redact(block.text)
        context.task = self.task.redact(context.task)
        if context.response_schema is None:  # a caller may have made one for this request
            context.response_schema = json_schema(model)
        text = await self._call(context)
        try:
            return parse_model(text, model)
        except InvalidReply as invalid:
            first = self._why(invalid)
            context.append(Block(get_prompt("agent/proposer", "invalid_reply").format(
                error=first, reply=self.task.redact(text)[:2000])))
            retry = await self._call(context)
            try:
                return parse_model(retry, model)
            except InvalidReply as invalid_again:
                second = self._why(invalid_again)
                raise ProposalError(
                    f"The model's {what} could not be used, twice. First: {first}; it said "
                    f"{quote(self.task.redact(text))}. Then: {second}; it said "
                    f"{quote(self.task.redact(retry))}.") from None

    async def _call(self, context: ModelRequest) -> str:
        if self.budget is not None:
            self.budget.check(self.usage.since(self._start))
        try:
            reply = await self.llm.agenerate(context)
        except LLMError as exc:  # a call that timed out or failed still cost its time
            if isinstance(exc.usage, Usage):
                self._count(exc.usage)
            raise
        self._truncated = bool(getattr(reply, "truncated", False))
        self._count(reply.usage)
        return reply.text

    def _count(self, usage: Usage) -> None:
        self.usage.add(usage)
        if self.budget is not None and self.budget.run is not None:
            self.budget.run.used.add(usage)
