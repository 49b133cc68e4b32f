"""The step kinds: how ``do``, ``check`` and ``extract`` replay and record. Everything they
share (matching, policy, counting, failing, storing) is the pipeline's."""

from __future__ import annotations

import logging
from typing import Any

from ...agent.models import TaskResult
from ...agent.parsing import MAX_MESSAGE, cap, show
from ...agent.task_context import TaskContext
from ...browser._async.guard import AsyncOriginGuard
from ...errors import ElementError, ExtractionError, ReplayError, WebtaskError
from ...extraction._async.extractor import AsyncExtractor, execute_recipe
from ...extraction.report import SessionReport
from ...llm.prompts import get_prompt
from ...recipes._async.before import AsyncStartState
from ...recipes.model import Extraction, RecipeStep
from ...recipes.patterns import user_patterns
from ...recipes.urls import relative_url
from ..compile import compile_step
from ..outcome import StepRun
from .heal import AsyncHealer
from .pipeline import AsyncPipeline

log = logging.getLogger("pytest_webtask")


class AsyncDoStep:
    """``do``: the agent acts until the task is complete; replayed action by action, then
    the recorded checks."""

    kind = "do"
    freeze_before = True  # compare the checks with the page before the step (held_before)
    healable = True  # an element that drifted under an action may be healed (never a check)

    def max_steps(self, pipe: AsyncPipeline) -> int:
        return pipe.settings.max_steps

    async def replay(self, pipe: AsyncPipeline, run: StepRun, recorded: RecipeStep
                     ) -> list[dict[str, Any]]:
        replayer = pipe.replayer(run, report=True)
        guard = None
        if pipe.settings.guard_replay:  # opt-in: it routes every request of the context
            guard = AsyncOriginGuard(pipe.page.context, pipe.origins(),
                                     subresources=pipe.settings.block_subresources)
            await guard.start()
        failure: ReplayError | None = None
        blocked: list[str] = []
        try:
            await replayer.run_step(recorded, run.where)
        except ReplayError as exc:
            failure = exc
        finally:
            pipe.page = replayer.page  # the tab the step ended on
            if guard is not None:
                blocked = guard.take()
                await guard.stop()
        if blocked:  # the page talked to another origin: that is the outcome under test
            await pipe.fail(f"Replay failed. {run.where}: " + guard_message(blocked, pipe)
                            + (f"\n  Also: {failure}" if failure else ""), run)
        if failure is None:
            if recorded.unverified:
                await pipe.unverified(run, recorded)
            return []
        message = f"Replay failed. {failure}{pipe.start_hint(recorded)}"
        if isinstance(failure, ElementError) and self.healable:
            # the page drifted under an action: a verified heal may follow it
            await AsyncHealer(pipe, run, self.max_steps(pipe)).heal(recorded, failure, message)
            return []
        await pipe.fail(message, run)

    async def record(self, pipe: AsyncPipeline, run: StepRun, llm: Any
                     ) -> tuple[RecipeStep, TaskResult, list[dict[str, Any]]]:
        ctx = run.ctx
        start_url = pipe.page.url
        before = await AsyncStartState.take(pipe.page) if self.freeze_before else None
        agent = await pipe.runner(llm, self.max_steps(pipe), run)
        try:
            result = await agent.execute(run.request.agent_task or run.request.text,
                                         self.max_steps(pipe), ctx.resources, ctx.variables,
                                         ctx.secrets)
        except WebtaskError as exc:
            pipe.count(agent.usage)
            await pipe.fail(f"{run.where}: recording stopped: {exc}", run)
        finally:
            pipe.page = agent.page  # the tab the step ended on
        pipe.count(agent.usage)
        if not result.completed:
            label = "check failed" if self.kind == "check" else "task not completed"
            await pipe.fail(f"{run.where}: {label}: {result.message}\n\n"
                            + step_log(result, ctx), run)
        step = compile_step(self.kind, run.request.text, result, ctx, pipe.base_url,
                            start_url, user_patterns(pipe.settings.dynamic))
        if not step.checks:
            await pipe.fail(
                f"{run.where}: the model reported completion without citing evidence found on "
                "the page, so a replay could not verify the outcome; nothing was recorded.\n\n"
                + step_log(result, ctx), run)
        try:
            await pipe.replayer(run).run_checks(
                step.checks, run.where + " (checks right after recording)")
        except ReplayError as exc:
            await pipe.fail(f"The recorded checks do not hold even right after recording, so "
                            f"nothing was recorded. {exc}", run)
        if before is not None:
            await before.mark(step.checks, ctx.substitute)
            if not any(c.discriminating for c in step.checks):
                await pipe.weak(run, step)
        return step, result, []


class AsyncCheckStep(AsyncDoStep):
    """``check``: the agent only looks (it may scroll) and cites what proves the statement;
    a false statement fails the test."""

    kind = "check"
    freeze_before = False
    healable = False

    def max_steps(self, pipe: AsyncPipeline) -> int:
        return pipe.settings.check_max_steps

    @staticmethod
    def task(statement: str) -> str:
        return get_prompt("agent/proposer", "check_task").format(statement=statement)


class AsyncExtractStep:
    """``extract``: items of a list-detail page, read by a generated recipe (seed 003)."""

    kind = "extract"

    def __init__(self, fields: list[str] | None) -> None:
        self.fields = fields

    def _report(self, pipe: AsyncPipeline, run: StepRun) -> SessionReport:
        return SessionReport(task=run.request.text, source_url=pipe.page.url,
                             path=pipe.artifact_path(f"webtask-extract-{run.index + 1}.json"))

    async def replay(self, pipe: AsyncPipeline, run: StepRun, recorded: RecipeStep
                     ) -> list[dict[str, Any]]:
        spec = recorded.extraction
        assert spec is not None  # RecipeStep guarantees it for kind extract
        failure = None  # failed outside the except block: the message shows once
        try:
            outcome = await execute_recipe(
                pipe.page, spec.bindings, spec.recipe, report=self._report(pipe, run),
                max_items=run.request.max_items, timeout_ms=pipe.settings.timeout * 1000,
                phase_name="RecipeExecutor (replay)", targets=spec.targets,
                allow_skipped=run.request.allow_skipped, recorded_items=spec.recorded_items)
        except ExtractionError as exc:
            failure = f"Replay failed. {run.where}: {exc}"
        if failure is not None:
            await pipe.fail(failure, run)
        self._warn_skipped(run, outcome.skipped)
        return outcome.items

    async def record(self, pipe: AsyncPipeline, run: StepRun, llm: Any
                     ) -> tuple[RecipeStep, None, list[dict[str, Any]]]:
        extractor = AsyncExtractor(pipe.page, llm, report=self._report(pipe, run),
                                   timeout_ms=pipe.settings.timeout * 1000)
        start_url = pipe.page.url
        failure = None
        try:
            done = await extractor.run(run.request.text, max_items=run.request.max_items,
                                       fields=self.fields,
                                       allow_skipped=run.request.allow_skipped)
        except WebtaskError as exc:
            failure = f"{run.where}: recording stopped: {exc}"
        pipe.count(extractor.usage)
        if failure is not None:
            await pipe.fail(failure, run)
        outcome = done.outcome
        step = RecipeStep(kind="extract", text=run.request.text,
                          url=relative_url(start_url, pipe.base_url),
                          extraction=Extraction(fields=self.fields or [],
                                                recorded_items=len(outcome.items),
                                                bindings=done.bindings, recipe=done.recipe,
                                                targets=outcome.targets),
                          message=f"{len(outcome.items)} item(s) extracted")
        self._warn_skipped(run, outcome.skipped)
        return step, None, outcome.items

    @staticmethod
    def _warn_skipped(run: StepRun, skipped: list[dict[str, str]]) -> None:
        if skipped:
            log.warning("%s: skipped %d item(s) (allowed: %d): %s", run.where, len(skipped),
                        run.request.allow_skipped, skipped)


def guard_message(blocked: list[str], pipe: AsyncPipeline) -> str:
    """Why a replay under ``webtask_guard_replay`` failed: what the page tried to send."""
    shown = "; ".join(blocked[:5]) + (f"; and {len(blocked) - 5} more"
                                      if len(blocked) > 5 else "")
    return (f"the page sent {len(blocked)} request(s) to origins outside the allowed ones "
            f"({', '.join(pipe.origins() or ['http(s) only'])}): {shown}. The origin guard "
            "(webtask_guard_replay) stopped them, so nothing was sent there. If the page "
            "should talk to that origin, add it to webtask_allowed_origins.")


def step_log(result: TaskResult, ctx: TaskContext) -> str:
    lines = ["Step log:"]
    for n, step in enumerate(result.steps, 1):
        lines.append(f"  {n}. {cap(step.proposal.message, MAX_MESSAGE)}")
        for action, ex in zip(step.proposal.actions, step.executions, strict=False):
            status = "ok" if ex.success else f"FAILED: {cap(ex.error or '', MAX_MESSAGE)}"
            lines.append(f"     - {action.tool_name} {show(action.parameters)}: {status}")
        if step.note:
            lines.append(f"     note: {step.note}")
    if result.steps:
        lines.append("The model's last message: "
                     + cap(result.steps[-1].proposal.message, MAX_MESSAGE))
    return ctx.redact("\n".join(lines))
