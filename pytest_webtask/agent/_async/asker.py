"""One model call with a validated JSON reply, asked again once when the reply is unusable."""

from __future__ import annotations

from ...agent.models import Usage
from ...errors import ProposalError
from ...llm.base import LLM
from ...llm.context import Block, Context
from ...llm.prompts import get_prompt
from ..parsing import InvalidReply, M, parse_model, quote
from ..task_context import TaskContext


class AsyncAsker:
    """One model call with a validated JSON reply; an invalid reply is asked again once."""

    def __init__(self, llm: LLM, task: TaskContext, usage: Usage) -> None:
        self.llm = llm
        self.task = task
        self.usage = usage

    async def ask(self, context: Context, model: type[M], what: str) -> M:
        for block in context.blocks:  # secrets never reach the model
            block.text = self.task.redact(block.text)
        context.response_schema = model.model_json_schema()
        text = await self._call(context)
        try:
            return parse_model(text, model)
        except InvalidReply as first:
            context.append(Block(get_prompt("agent/proposer", "invalid_reply").format(
                error=first, reply=self.task.redact(text)[:2000])))
            retry = await self._call(context)
            try:
                return parse_model(retry, model)
            except InvalidReply as second:
                raise ProposalError(
                    f"The model's {what} could not be used, twice. First: {first}; it said "
                    f"{quote(text)}. Then: {second}; it said {quote(retry)}.") from None

    async def _call(self, context: Context) -> str:
        reply = await self.llm.agenerate(context)
        self.usage.add(reply.usage)
        return reply.text
