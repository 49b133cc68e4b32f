"""AsyncPlanAgent: rolling-horizon plan-then-execute, the second strategy.

A planner tool asks the model for a plan of up to N steps; each step is then resolved, with
fresh page state, into one concrete tool invocation (one model call) and executed. A failed
tool or a page that navigated under a step triggers a new plan; the ``done`` tool ends the
task. What it did comes out as a ``TaskResult`` like the proposer's, so recipes and replays
do not care which strategy recorded them.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from playwright.async_api import Page

from ...agent.models import ProposalResult, Step, TaskResult
from ...agent.plan_params import DoneParams, Plan, PlannerParams, PlanStep, ToolInvocation
from ...browser._async.guard import AsyncOriginGuard
from ...browser._async.llm_browser import AsyncLLMBrowser
from ...browser.origins import default_origins
from ...defaults import MAX_ITERATIONS, PAGE_CHARS, PLAN_HORIZON, chosen_page_chars
from ...errors import ProposalError
from ...llm.base import LLM
from ...llm.prompts import get_prompt
from ...llm.request import Block, ModelRequest
from ...tools._async.browser_tools import AsyncTool
from ...tools._async.registry import AsyncToolRegistry, browser_registry
from ...tools.params import render_tool
from ...types import Action, ExecutionResult, Secrets, Usage
from ..budget import Budget
from ..guards import Dropdowns
from ..messages import MessageManager, MessageReader
from ..parsing import MAX_MESSAGE, MAX_REASON, cap
from ..policy import Policy
from ..task_context import TaskContext
from ..verify import Done, verify_done
from .agent import FIRST_QUIET_MS, checked_statement
from .asker import AsyncAsker
from .evidence import resolve_evidence

log = logging.getLogger("pytest_webtask.plan")


class AsyncPlannerTool(AsyncTool):
    """Asks the model for a JSON plan of up to ``max_steps`` steps (the planner)."""

    name = "planner"
    description = "Create a step-by-step plan in JSON format"
    params_class = PlannerParams
    replayed = False

    def __init__(self, browser: AsyncLLMBrowser, task: TaskContext, asker: AsyncAsker,
                 reader: MessageReader, tools: AsyncToolRegistry) -> None:
        super().__init__(browser, task)
        self.asker = asker
        self.reader = reader
        self.tools = tools
        self.plan: list[PlanStep] = []

    async def execute(self, params: Any) -> ExecutionResult:
        page = await self.browser.get_page_context()
        tools = "\n".join(f"- {t.name}: {t.description}" for t in self.tools.tools()
                          if t.name != self.name)
        context = ModelRequest(system=get_prompt("agent/plan", "planner_system").format(
            max_steps=params.max_steps), purpose="plan", task=params.task)
        context.append(Block(get_prompt("agent/plan", "planner_task").format(
            task=params.task, tools=tools, browser_state=page.text,
            history=self.reader.get_conversation_history() or "(none yet)",
            max_steps=params.max_steps)))
        plan = await self.asker.ask(context, Plan, "plan")
        self.plan = plan.steps[: params.max_steps]
        return ExecutionResult(success=True, output=f"Created plan with {len(self.plan)} steps")


class AsyncDoneTool(AsyncTool):
    """Marks the task complete (with evidence a replay can check) or impossible."""

    name = "done"
    description = "Mark the task as complete (cite evidence) or impossible"
    params_class = DoneParams
    replayed = False

    def __init__(self, browser: AsyncLLMBrowser, task: TaskContext,
                 require_evidence: bool, registry: AsyncToolRegistry | None = None) -> None:
        super().__init__(browser, task)
        self.require_evidence = require_evidence
        self.registry = registry
        self.context = task  # the whole task context (the tool base types it narrower)
        self.evidence: list[Any] = []
        self.steps: list[Step] = []  # the task's steps so far (the agent's own list)
        self.start = ""  # the page state's text before the task's first action
        self.start_url = ""  # and its address
        self.dropdowns = Dropdowns()  # the dropdowns the task's pages offered
        self.advised: set[str] = set()  # the advice (agent/verify.py) given in this task
        self.doubted: list[str] = []  # the advice the accepted done was recorded over

    async def execute(self, params: Any) -> ExecutionResult:
        summary = params.summary or ("Task impossible" if params.impossible
                                     else "Task completed successfully")
        if params.impossible:
            return ExecutionResult(success=True, output=summary)
        self.evidence = await resolve_evidence(self.browser, params.evidence,
                                               self.task.substitute if self.task else None)
        self.doubted = []
        if not self.require_evidence:
            return ExecutionResult(success=True, output=summary)
        problems = verify_done(await self._done())
        hard = [p for p in problems if p.hard]
        fresh = [p for p in problems if not p.hard and p.rule not in self.advised]
        if hard:
            return ExecutionResult(success=False, error="done refused: " + "; ".join(
                p.says for p in hard) + ". If the task is done, cite claims that hold; if not, "
                "plan the next actions.")
        if fresh:  # the task's words: said once, then a done records, marked doubted
            self.advised |= {p.rule for p in fresh}
            return ExecutionResult(success=False, error="done questioned (advice, said once: "
                                   "call done again to stand by it): " + "; ".join(
                                       f"{p.rule}: {p.says}" for p in fresh) + ".")
        self.doubted = [p.rule for p in problems if not p.hard]
        return ExecutionResult(success=True, output=summary)

    async def _done(self) -> Done:
        """What ``verify_done`` reads of this done."""
        registry, snapshot = self.registry, self.browser.snapshot
        if registry is not None:
            await registry.late_events()

        def has(attr: str) -> Any:
            return lambda tool: getattr(registry.get(tool) if registry else None, attr, False)

        task = self.context.task
        return Done(
            task=task, statement=checked_statement(task), evidence=self.evidence,
            steps=self.steps, start=self.start, now=snapshot.text if snapshot else "",
            start_url=self.start_url, now_url=snapshot.url if snapshot else "",
            variables={k: str(v) for k, v in self.context.variables.items()},
            secrets={k: str(v) for k, v in self.context.secrets.items()},
            dropdowns=self.dropdowns, typed=has("typed"), chooses=has("chooses"),
            downloaded=any(e.downloads for s in self.steps for e in s.executions),
            held_before=lambda ev: bool(
                getattr(ev.spec, "expect", "") == "text" and (ev.spec.text or ev.text)
                and f'"{ev.spec.text or ev.text}"' in self.start))


class AsyncPlanAgent:
    """Completes a task with rolling-horizon planning: plan N steps, run them, replan.

    ``max_iterations`` bounds the tool invocations (default 30); ``horizon`` is how many steps
    each plan holds (default 3).
    """

    def __init__(
        self,
        page: Page,
        llm: LLM,
        *,
        horizon: int = PLAN_HORIZON,
        max_iterations: int = MAX_ITERATIONS,
        page_chars: int = PAGE_CHARS,
        settle_timeout_ms: float = 3000,
        allowed_origins: list[str] | None = None,
        require_evidence: bool = False,
        budget: Budget | None = None,
        secrets: Secrets | None = None,
        block_subresources: bool = False,
        extra_tools: list[type[AsyncTool]] | None = None,
        max_page_chars: int | None = None,
        rules_off: str | list[str] | tuple[str, ...] = (),
        then_checks: tuple[str, ...] | list[str] = (),
        profile: str | None = None,
    ) -> None:
        self.llm = llm
        # the plan strategy runs none of the step loop's rules (``then_checks`` is for the
        # ``test-checks`` rule: not shown here); the names are still checked
        self.policy = Policy(rules_off, profile)
        self.horizon = horizon
        self.max_iterations = max_iterations
        self.secrets = secrets if secrets is not None else Secrets()
        self.browser = AsyncLLMBrowser(
            page, page_chars=chosen_page_chars(page_chars, max_page_chars),
            secrets=self.secrets)
        self.settle_timeout_ms = settle_timeout_ms
        self.allowed_origins = allowed_origins
        self.require_evidence = require_evidence
        self.budget = budget
        self.block_subresources = block_subresources
        self.extra_tools = list(extra_tools or [])  # tool classes from plugins (hooks)
        self.usage = Usage()
        self.messages = MessageManager()
        self.plans: list[list[PlanStep]] = []

    @property
    def page(self) -> Page:
        """The current tab: the one an action opened or switched to, else the page given."""
        return self.browser.page

    async def execute(self, task: str, max_steps: int | None = None,
                      resources: dict[str, str] | None = None,
                      variables: dict[str, Any] | None = None,
                      secrets: dict[str, Any] | None = None) -> TaskResult:
        """Run ``task``. ``max_steps``, when given, caps the iterations too. The budget
        (model calls, tokens) counts the planner's calls and the resolving calls alike."""
        ctx = TaskContext.create(task, resources=resources, variables=variables,
                                 secrets=secrets, known=self.secrets)
        origins = (self.allowed_origins if self.allowed_origins is not None
                   else default_origins(self.page.url))
        guard = AsyncOriginGuard(self.page.context, origins,
                                 subresources=self.block_subresources)
        await guard.start()
        try:
            return await self._execute(ctx, origins, guard, max_steps)
        finally:
            await guard.stop()

    async def _execute(self, ctx: TaskContext, origins: list[str] | None,
                       guard: AsyncOriginGuard, max_steps: int | None) -> TaskResult:
        start = self.usage.copy()
        limit = min(self.max_iterations, max_steps or self.max_iterations)
        asker = AsyncAsker(self.llm, ctx, self.usage, self.budget)
        self.messages = MessageManager()
        registry = browser_registry(self.browser, ctx, origins, self.extra_tools)
        planner = AsyncPlannerTool(self.browser, ctx, asker, self.messages.reader(), registry)
        done = AsyncDoneTool(self.browser, ctx, self.require_evidence, registry)
        registry.register(planner)
        registry.register(done)
        system = get_prompt("agent/plan", "agent_system").format(tools="\n\n".join(
            render_tool(t.name, t.description, t.params_class) for t in registry.tools()
            if t is not planner))
        self.messages.add_system(system)
        self.messages.add_user(ctx.get_task_context().text)
        steps: list[Step] = []
        done.steps = steps
        self.browser.watch.attach()
        await self.browser.watch.track_windows(self.page)
        await self.browser.settle(timeout_ms=self.settle_timeout_ms, quiet_ms=FIRST_QUIET_MS)

        def result(completed: bool, message: str, impossible: bool = False) -> TaskResult:
            return TaskResult(completed, steps, ctx.redact(message), self.usage.since(start),
                              impossible)

        plan: list[PlanStep] = []
        index = 0
        try:
            for _iteration in range(limit):
                if index >= len(plan):
                    outcome = await registry.execute(Action(
                        "planner", "plan the next steps",
                        {"task": ctx.task, "max_steps": self.horizon}))
                    self.messages.add_assistant(f"Tool: planner\nResult: {outcome.output}")
                    plan, index = list(planner.plan), 0
                    if not steps and self.browser.snapshot is not None:
                        done.start = self.browser.snapshot.text  # as the task found the page
                        done.start_url = self.browser.snapshot.url
                    self.plans.append(plan)
                step = plan[index]
                index += 1
                invocation = await self._resolve(asker, ctx, step)
                if self.browser.snapshot is not None:  # the page the step was resolved on
                    done.dropdowns.see(self.browser.snapshot.text)
                action = Action(invocation.tool,
                                cap(invocation.reason or step.action, MAX_REASON),
                                invocation.parameters)
                executed = await registry.execute(action)
                await self.browser.settle(timeout_ms=self.settle_timeout_ms)
                executed.output = cap(executed.output, MAX_MESSAGE)
                await registry.late_events()
                self.messages.add_assistant(ctx.redact(
                    f"Tool: {action.tool}\nReasoning: {action.reason}\nResult: "
                    + (executed.output or "Success" if executed.success
                       else f"Failed: {cap(executed.error or '', MAX_MESSAGE)}")))
                blocked = guard.note()
                if blocked:
                    self.messages.add_assistant(ctx.redact(blocked))
                if action.tool == done.name and executed.success:
                    params = DoneParams.model_validate(action.parameters)
                    steps.append(Step(ProposalResult(
                        complete=not params.impossible, message=executed.output, actions=[],
                        evidence=params.evidence, impossible=params.impossible),
                        evidence=done.evidence, url=self.page.url, doubted=done.doubted))
                    if params.impossible:
                        return result(False, f"Task impossible: {executed.output}", True)
                    return result(True, executed.output)
                steps.append(Step(ProposalResult(False, action.reason, [action]), [executed],
                                  url=executed.url_before))
                tool = registry.get(action.tool)
                sent = tool is not None and tool.url_param is not None  # told where to go
                moved = (not sent and executed.url_before
                         and executed.url_after != executed.url_before)
                if not executed.success or moved or blocked:
                    why = ("the step failed" if not executed.success
                           else "a request was blocked" if blocked else "the page changed")
                    self.messages.add_assistant(f"Replanning: {why}.")
                    plan = []  # replan on a failed tool result or a changed page
        except ProposalError as exc:
            return result(False, str(exc))
        finally:
            await registry.late_events()
            await self.browser.watch.detach()
        last = self.messages.reader().get_last_assistant() or ""
        return result(False, f"Task not completed after {limit} iterations (MAX_ITERATIONS). "
                      f"Last: {last}")

    async def _resolve(self, asker: AsyncAsker, ctx: TaskContext,
                       step: PlanStep) -> ToolInvocation:
        """One model call: the plan step as one concrete tool invocation, on fresh state."""
        context = ModelRequest(system=self.messages.reader().get_all()[0].content,
                          purpose="plan:resolve", task=ctx.task)
        context.append(ctx.get_task_context())
        context.append(ctx.get_resources_context())
        history = self.messages.reader().get_conversation_history()
        context.append(Block(f"Conversation history:\n{history}"))
        context.append(Block(get_prompt("agent/plan", "resolve_step").format(
            action=step.action, tool=step.tool, parameters=json.dumps(step.parameters))))
        context.append(await self.browser.get_page_context())
        return await asker.ask(context, ToolInvocation, "tool invocation")
