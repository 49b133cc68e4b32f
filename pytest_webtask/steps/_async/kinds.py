"""The step kinds: how ``do``, ``check`` and ``extract`` replay and record, through the
step's ``AsyncStepHarness``. Everything they share (matching, policy, counting, failing,
storing) is the pipeline's."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...agent.models import Evidence, TaskResult
from ...agent.parsing import MAX_MESSAGE, cap, show
from ...browser._async.finder import call_collector
from ...browser._async.guard import AsyncOriginGuard
from ...errors import ElementError, ExtractionError, PictureMismatch, ReplayError, WebtaskError
from ...extraction._async.extractor import AsyncExtractor, execute_recipe
from ...extraction.log import ExtractionLog
from ...llm.base import LLM
from ...llm.prompts import get_prompt
from ...recipes._async.before import AsyncStartState
from ...recipes.model import Extraction, RecipeStep
from ...recipes.patterns import user_patterns
from ...recipes.urls import absolute_url, relative_url
from ...tools.values import StepValues
from ..compile import CheckCompiler, compile_step
from ..outcome import Recorded, Replayed, StepRun
from .harness import AsyncStepHarness
from .heal import AsyncHealer
from .visual_heal import AsyncVisualHeal

log = logging.getLogger("pytest_webtask")


class AsyncDoStep:
    """``do``: the agent acts until the task is complete; replayed action by action, then
    the recorded checks."""

    kind = "do"
    freeze_before = True  # compare the checks with the page before the step (held_before)
    healable = True  # an element that drifted under an action may be healed (never a check)

    def max_steps(self, harness: AsyncStepHarness) -> int:
        return harness.settings.max_steps

    async def replay(self, harness: AsyncStepHarness, recorded: RecipeStep) -> Replayed:
        run = harness.run
        replayer = harness.replayer(report=True)
        guard = None
        if harness.settings.guard_replay:  # opt-in: it routes every request of the browser context
            guard = AsyncOriginGuard(harness.page.context, harness.origins(),
                                     subresources=harness.settings.block_subresources)
            await guard.start()
        failure: ReplayError | None = None
        blocked: list[str] = []
        try:
            await replayer.run_step(recorded, run.where)
        except ReplayError as exc:
            failure = exc
        finally:
            harness.page = replayer.page  # the tab the step ended on
            harness.starts = replayer.starts  # a heal's checks count from the same start
            if guard is not None:
                blocked = guard.take()
                await guard.stop()
        if blocked:  # the page talked to another origin: that is the outcome under test
            await harness.fail(f"Replay failed. {run.where}: " + guard_message(blocked, harness)
                               + (f"\n  Also: {failure}" if failure else ""))
        if failure is None:
            return Replayed()
        message = f"Replay failed. {failure}{start_hint(harness, recorded)}"
        if isinstance(failure, PictureMismatch):
            return Replayed(heal=await AsyncVisualHeal(harness).heal_or_fail(
                recorded, failure, message))
        if isinstance(failure, ElementError) and self.healable:
            # the page drifted under an action: a verified heal may follow it
            heal = await AsyncHealer(harness, self.max_steps(harness)).heal(recorded, failure,
                                                                            message)
            return Replayed(heal=heal)
        await harness.fail(message)

    async def record(self, harness: AsyncStepHarness, llm: LLM) -> Recorded:
        run, ctx = harness.run, harness.run.values
        start_url = harness.page.url
        before = None
        if self.freeze_before:
            await settled(harness.page)  # a list drawn by script: as the agent first sees it
            before = await AsyncStartState.take(
                harness.page, pictures=bool(getattr(llm, "supports_images", False)))
        attempt = await harness.run_agent(
            llm, self.max_steps(harness),
            count_at_start=counter(before, ctx, harness.settings.dynamic)
            if before is not None else None)
        result = attempt.result
        if result is None:
            await harness.fail(f"{run.where}: recording stopped: {attempt.stopped}"
                               + attempt.unread_frames())
        if not result.completed:
            label = "check failed" if self.kind == "check" else "task not completed"
            await harness.fail(f"{run.where}: {label}: {result.message}"
                               f"{attempt.unread_frames()}\n\n" + step_log(result, ctx))
        step = compile_step(self.kind, run.request.text, result, ctx, harness.base_url,
                            start_url, user_patterns(harness.settings.dynamic), harness.tools)
        if not step.checks:
            await harness.fail(
                f"{run.where}: the model reported completion without citing evidence found on "
                "the page, so a replay could not verify the outcome; nothing was recorded.\n\n"
                + step_log(result, ctx))
        checker = harness.replayer()
        checker.downloads = [f for s in result.steps for e in s.executions
                             for f in e.downloads]
        # a message that faded while the model read the page held as read (agent/_async/
        # evidence.py): every replay checks it right after the step, not this late re-check
        faded = {ev.spec.text for ev in result.evidence if ev.faded and ev.spec is not None}
        try:
            await checker.run_checks(
                [c for c in step.checks if not (c.expect == "text" and c.text in faded)],
                run.where + " (checks right after recording)")
        except ReplayError as exc:
            await harness.fail(f"The recorded checks do not hold even right after recording, "
                               f"so nothing was recorded. {exc}",
                               exc.pictures if isinstance(exc, PictureMismatch) else None)
        weak = False
        if before is not None:
            await before.mark(step.checks, ctx.substitute)
            # every check held before the step: the pipeline warns, or fails if strict. The
            # URL check the recorder adds (no claim cited one) shows the address the step's
            # own actions sent, which a page that ignored them shows too: it does not count
            cited_url = any(getattr(ev.spec, "expect", "") == "url" for ev in result.evidence)
            weak = not any(c.discriminating for c in step.checks
                           if cited_url or c.expect != "url")
        return Recorded(step, result, weak=weak)


async def settled(page: Page) -> None:
    """Wait (at most 2 s) for the page's DOM to be quiet for 100 ms."""
    try:
        await call_collector(page.main_frame, {"op": "settle", "quiet": 100, "max": 2000})
    except PlaywrightError:
        pass  # (a navigation under way: the copy is of what there is)


def counter(before: AsyncStartState, ctx: StepValues, dynamic: tuple[str, ...]
            ) -> Callable[[Evidence], Any]:
    """What a count claim counts (compiled as its check will be) on the page as the step
    found it: the start a claim with a change is counted from."""

    async def count(ev: Evidence) -> tuple[int | None, str]:
        varies = [ctx.placeholders(v) for v in ev.spec.varies if v]
        try:
            check = CheckCompiler(ctx, varies, user_patterns(dynamic)).check(ev)
        except ValueError as exc:
            return None, str(exc)
        if check is None:
            return None, "the claim could not be compiled"
        return await before.count(check, ctx.substitute)

    return count


class AsyncCheckStep(AsyncDoStep):
    """``check``: the agent only looks (it may scroll) and cites what proves the statement;
    a false statement fails the test."""

    kind = "check"
    freeze_before = False
    healable = False

    def max_steps(self, harness: AsyncStepHarness) -> int:
        return harness.settings.check_max_steps

    @staticmethod
    def task(statement: str, pictures: bool = False) -> str:
        """The question the agent is asked; ``pictures``: a model that sees screenshots is
        offered picture claims for what only the screenshot shows."""
        task = get_prompt("agent/proposer", "check_task").format(statement=statement)
        if pictures:
            task += "\n" + get_prompt("agent/proposer", "check_task_pictures")
        return task

    async def record(self, harness: AsyncStepHarness, llm: LLM) -> Recorded:
        if getattr(llm, "supports_images", False):
            request = harness.run.request
            harness.run.request = replace(request, agent_task=self.task(request.text, True))
        return await super().record(harness, llm)


class AsyncExtractStep:
    """``extract``: items of a list-detail page, read by a generated recipe."""

    kind = "extract"

    def __init__(self, fields: list[str] | None) -> None:
        self.fields = fields

    @staticmethod
    def _report(harness: AsyncStepHarness) -> ExtractionLog:
        run = harness.run
        return ExtractionLog(task=run.request.text, source_url=harness.page.url,
                             path=harness.artifact(f"webtask-extract-{run.index + 1}.json"))

    async def replay(self, harness: AsyncStepHarness, recorded: RecipeStep) -> Replayed:
        run = harness.run
        spec = recorded.extraction
        assert spec is not None  # RecipeStep guarantees it for kind extract
        failure = None  # failed outside the except block: the message shows once
        try:
            outcome = await execute_recipe(
                harness.page, spec.bindings, spec.recipe, report=self._report(harness),
                max_items=run.request.max_items, timeout_ms=harness.settings.timeout * 1000,
                phase_name="RecipeExecutor (replay)", targets=spec.targets,
                allow_skipped=run.request.allow_skipped, recorded_items=spec.recorded_items)
        except ExtractionError as exc:
            failure = f"Replay failed. {run.where}: {exc}"
        if failure is not None:
            await harness.fail(failure)
        self._warn_skipped(run, outcome.skipped)
        return Replayed(outcome.items)

    async def record(self, harness: AsyncStepHarness, llm: LLM) -> Recorded:
        run = harness.run
        extractor = AsyncExtractor(harness.page, llm, report=self._report(harness),
                                   timeout_ms=harness.settings.timeout * 1000)
        start_url = harness.page.url
        failure = None
        try:
            done = await extractor.run(run.request.text, max_items=run.request.max_items,
                                       fields=self.fields,
                                       allow_skipped=run.request.allow_skipped)
        except WebtaskError as exc:
            failure = f"{run.where}: recording stopped: {exc}"
        harness.count(extractor.usage)
        if failure is not None:
            await harness.fail(failure)
        outcome = done.outcome
        step = RecipeStep(kind="extract", text=run.request.text,
                          url=relative_url(start_url, harness.base_url),
                          extraction=Extraction(fields=self.fields or [],
                                                recorded_items=len(outcome.items),
                                                bindings=done.bindings, recipe=done.recipe,
                                                targets=outcome.targets),
                          message=f"{len(outcome.items)} item(s) extracted")
        self._warn_skipped(run, outcome.skipped)
        return Recorded(step, None, outcome.items)

    @staticmethod
    def _warn_skipped(run: StepRun, skipped: list[dict[str, str]]) -> None:
        if skipped:
            log.warning("%s: skipped %d item(s) (allowed: %d): %s", run.where, len(skipped),
                        run.request.allow_skipped, skipped)


def start_hint(harness: AsyncStepHarness, step: RecipeStep) -> str:
    """Where the step was recorded from, when the page started elsewhere this time."""
    started = harness.run.start_path
    start = urlsplit(absolute_url(step.url or "/", harness.base_url, harness.page.url)).path
    if step.url and started != start:
        return (f"\n  note: this step was recorded starting at {start}, but this time it "
                f"started at {started}")
    return ""


def guard_message(blocked: list[str], harness: AsyncStepHarness) -> str:
    """Why a replay under ``webtask_guard_replay`` failed: what the page tried to send."""
    shown = "; ".join(blocked[:5]) + (f"; and {len(blocked) - 5} more"
                                      if len(blocked) > 5 else "")
    return (f"the page sent {len(blocked)} request(s) to origins outside the allowed ones "
            f"({', '.join(harness.origins() or ['http(s) only'])}): {shown}. The origin "
            "guard (webtask_guard_replay) stopped them, so nothing was sent there. If the "
            "page should talk to that origin, add it to webtask_allowed_origins.")


def step_log(result: TaskResult, ctx: StepValues) -> str:
    lines = ["Step log:"]
    for n, step in enumerate(result.steps, 1):
        lines.append(f"  {n}. {cap(step.proposal.message, MAX_MESSAGE)}")
        for action, ex in zip(step.proposal.actions, step.executions, strict=False):
            status = "ok" if ex.success else f"FAILED: {cap(ex.error or '', MAX_MESSAGE)}"
            lines.append(f"     - {action.tool} {show(action.parameters)}: {status}")
        if step.note:
            lines.append(f"     note: {step.note}")
        if step.rules:
            lines.append(f"     rules: {', '.join(step.rules)}")
        if step.doubted:
            lines.append(f"     doubted: {', '.join(step.doubted)} (recorded over this advice)")
    if result.steps:
        lines.append("The model's last message: "
                     + cap(result.steps[-1].proposal.message, MAX_MESSAGE))
    return ctx.redact("\n".join(lines))
