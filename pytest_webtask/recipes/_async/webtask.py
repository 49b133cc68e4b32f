"""AsyncWebTask: what a test calls (goto, do, check); replays recipes, records when asked."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...agent._async.agent import AsyncAgent
from ...agent._async.plan_agent import AsyncPlanAgent
from ...agent.budget import Budget, RunBudget
from ...agent.models import TaskResult, Usage
from ...agent.parsing import MAX_MESSAGE, cap, show
from ...agent.secrets import Secrets
from ...agent.task_context import TaskContext
from ...browser._async.guard import AsyncOriginGuard
from ...browser.secret_fields import SECRET_ATTR, SECRET_FIELDS_JS
from ...errors import WebtaskError
from ...extraction._async.executor import ExtractionError
from ...extraction._async.extractor import AsyncExtractor, execute_recipe
from ...extraction.report import SessionReport
from ...settings import Settings
from ..compile import absolute_url, compile_step, relative_url
from ..model import Extraction, RecipeStep
from ..patterns import user_patterns
from ..session import RecipeSession, StepStats
from .before import AsyncStartState
from .replayer import AsyncReplayer, ReplayError

log = logging.getLogger("pytest_webtask")

CHECK_TASK = (
    "Check whether this statement about the current page is true: {statement}\n"
    "Do not change the page, except to reveal what you need to see (for example scroll). "
    "If the statement is true, mark complete and cite evidence as strong as the statement: "
    "its order or position (nth, order), a count, a state or value, absence (hidden), within "
    "the container it names. If it is false, set "
    '"impossible": true and say what the page shows instead.'
)


@dataclass
class StepOutcome:
    """One step of the test: what it was, how it ran, and the agent's result if recorded."""

    kind: str
    text: str
    how: str  # "replayed" or "recorded"
    seconds: float
    recipe_step: RecipeStep
    result: TaskResult | None = None


class AsyncWebTask:
    """The ``webtask`` fixture's object: plain-English steps on a Playwright page."""

    def __init__(
        self,
        page: Page,
        *,
        session: RecipeSession,
        settings: Settings,
        base_url: str | None,
        llm_provider: Callable[[], Any],
        stats: StepStats,
        report: Callable[[str], None] | None = None,
        artifacts: Callable[[], Path] | None = None,
        run_budget: RunBudget | None = None,
    ) -> None:
        self.page = page
        self.session = session
        self.settings = settings
        self.base_url = base_url
        self._llm_provider = llm_provider
        self.stats = stats
        self._report = report or (lambda line: None)
        self._artifacts = artifacts
        self.results: list[StepOutcome] = []
        self._started_at = ""
        # every secret passed so far: masked for the rest of the test
        self.secrets = Secrets()
        self.run_budget = run_budget

    async def goto(self, url: str) -> None:
        """Open ``url``; a relative URL resolves against ``--base-url``."""
        target = absolute_url(url, self.base_url, self.page.url or "")
        if not urlsplit(target).scheme or target.startswith("about:"):
            pytest.fail(f"goto({url!r}): a relative URL needs a base URL: pass --base-url, "
                        "set base_url in the ini file, or override the base_url fixture.",
                        pytrace=False)
        await self.page.goto(target)

    async def do(self, task: str, resources: dict[str, Any] | None = None,
                 secrets: dict[str, Any] | None = None, **variables: Any) -> StepOutcome:
        """Complete ``task`` (English), or fail the test with the step log.

        ``{name}`` placeholders take ``variables`` (the model sees them) and ``secrets`` (the
        model sees only the name; never written anywhere). ``resources`` name files the
        task may upload.
        """
        return await self._step("do", task, task, self.settings.max_steps,
                                resources, variables, secrets)

    async def check(self, statement: str) -> StepOutcome:
        """Assert ``statement`` about the page; a false statement fails the test."""
        return await self._step("check", statement, CHECK_TASK.format(statement=statement),
                                self.settings.check_max_steps, None, {}, None)

    async def _step(self, kind: str, text: str, agent_task: str, max_steps: int,
                    resources: dict[str, Any] | None, variables: dict[str, Any],
                    secrets: dict[str, Any] | None) -> StepOutcome:
        ctx = TaskContext.create(text, resources=resources, variables=variables,
                                 secrets=secrets, known=self.secrets)
        index, where, started, recorded_step = await self._begin(kind, text, ctx)
        replayer = AsyncReplayer(self.page, base_url=self.base_url,
                                 timeout_ms=self.settings.timeout * 1000,
                                 substitute=ctx.substitute, resources=ctx.resources)
        result = None
        if recorded_step is not None:
            guard = None
            if self.settings.guard_replay:  # opt-in: it routes every request of the context
                guard = AsyncOriginGuard(self.page.context, self._origins(),
                                         subresources=self.settings.block_subresources)
                await guard.start()
            try:
                await replayer.run_step(recorded_step, where)
            except ReplayError as exc:
                blocked = guard.note() if guard else None
                await self._fail(f"Replay failed. {exc}{self._start_hint(recorded_step)}"
                                 + (f"\n  {blocked}" if blocked else ""), ctx)
            finally:
                self.page = replayer.page  # the tab the step ended on
                if guard is not None:
                    await guard.stop()
            self.stats.replayed += 1
            how, step = "replayed", recorded_step
        else:
            step, result = await self._record(kind, text, agent_task, max_steps, ctx, index,
                                              where, replayer)
            how = "recorded"
        return self._end(index, where, StepOutcome(kind, text, how, time.monotonic() - started,
                                                   step, result),
                         f"{len(step.actions)} action(s), {len(step.checks)} check(s)")

    async def _begin(self, kind: str, text: str, ctx: TaskContext
                     ) -> tuple[int, str, float, RecipeStep | None]:
        """(index, "Step N kind(text)", start time, the recorded step to replay or None)."""
        index = len(self.results)
        self._started_at = urlsplit(self.page.url).path
        try:
            recorded_step = self.session.expected(index, kind, text)
        except WebtaskError as exc:  # a broken recipe file
            await self._fail(str(exc), ctx)
        return index, f"Step {index + 1} {kind}({text!r})", time.monotonic(), recorded_step

    def _end(self, index: int, where: str, outcome: StepOutcome, counts: str) -> StepOutcome:
        self.session.done(index, outcome.recipe_step, recorded=outcome.how == "recorded")
        self.results.append(outcome)
        self._report(f"webtask {where}: {outcome.how} ({counts}, {outcome.seconds:.2f}s)")
        return outcome

    async def extract(self, what: str, max_items: int = 20, fields: list[str] | None = None,
                      allow_skipped: int = 0) -> list[dict[str, Any]]:
        """Extract items from a list-detail page (seed 003): every item of the list, with
        ``fields`` (read by per-field selectors) or its details text, at most ``max_items``.
        Recorded once by the three LLM phases; replayed by the recipe executor alone. An
        item that cannot be read fails the step unless ``allow_skipped`` allows that many."""
        ctx = TaskContext(task=what, known=self.secrets)
        index, where, started, recorded_step = await self._begin("extract", what, ctx)
        report = SessionReport(task=what, source_url=self.page.url,
                               path=self._report_path(index))
        failure: str | None = None  # failed outside the except block: the message shows once
        if recorded_step is not None:
            spec = recorded_step.extraction
            assert spec is not None  # RecipeStep guarantees it for kind extract
            try:
                outcome = await execute_recipe(
                    self.page, spec.bindings, spec.recipe, report=report, max_items=max_items,
                    timeout_ms=self.settings.timeout * 1000, phase_name="RecipeExecutor (replay)",
                    targets=spec.targets, allow_skipped=allow_skipped,
                    recorded_items=spec.recorded_items)
            except ExtractionError as exc:
                failure = f"Replay failed. {where}: {exc}"
            if failure is not None:
                await self._fail(failure, ctx)
            self.stats.replayed += 1
            how, step = "replayed", recorded_step
        else:
            llm = await self._recording_llm(index, "extract", what, where, ctx)
            extractor = AsyncExtractor(self.page, llm, report=report,
                                       timeout_ms=self.settings.timeout * 1000)
            start_url = self.page.url
            try:
                run = await extractor.run(what, max_items=max_items, fields=fields,
                                          allow_skipped=allow_skipped)
            except WebtaskError as exc:
                failure = f"{where}: recording stopped: {exc}"
            self._count(extractor.usage)
            if failure is not None:
                await self._fail(failure, ctx)
            outcome = run.outcome
            step = RecipeStep(kind="extract", text=what, url=relative_url(start_url,
                                                                          self.base_url),
                              extraction=Extraction(fields=fields or [],
                                                    recorded_items=len(outcome.items),
                                                    bindings=run.bindings, recipe=run.recipe,
                                                    targets=outcome.targets),
                              message=f"{len(outcome.items)} item(s) extracted")
            self.stats.recorded += 1
            how = "recorded"
        if outcome.skipped:
            log.warning("%s: skipped %d item(s) (allowed: %d): %s", where, len(outcome.skipped),
                        allow_skipped, outcome.skipped)
        self._end(index, where, StepOutcome("extract", what, how, time.monotonic() - started,
                                            step),
                  f"{len(outcome.items)} item(s), {len(outcome.skipped)} skipped")
        return outcome.items

    def _report_path(self, index: int) -> Path | None:
        return self._artifacts() / f"webtask-extract-{index + 1}.json" if self._artifacts \
            else None

    async def _recording_llm(self, index: int, kind: str, text: str, where: str,
                             ctx: TaskContext) -> Any:
        """The model to record with, or a failed test saying why recording is not allowed."""
        if self.settings.mode != "record":
            reason = self.session.why_missing(index, kind, text)
            if self.settings.mode == "replay" or self.settings.in_ci:
                why = ("--webtask-replay-only is set" if self.settings.mode == "replay"
                       else "CI is set, so no model is called")
                await self._fail(
                    f"{where}: the recipe is missing: {reason}; {why}.\n"
                    "Record it where a model is configured with:  pytest --webtask-record "
                    f"{self.session.test_name!r}  (then commit {self.session.path})", ctx)
        try:
            return self._llm_provider()
        except WebtaskError as exc:
            await self._fail(f"{where} needs recording, but {exc}", ctx)

    async def _record(self, kind: str, text: str, agent_task: str, max_steps: int,
                      ctx: TaskContext, index: int, where: str,
                      replayer: AsyncReplayer) -> tuple[RecipeStep, TaskResult]:
        llm = await self._recording_llm(index, kind, text, where, ctx)
        start_url = self.page.url
        before = await AsyncStartState.take(self.page) if kind == "do" else None
        agent: AsyncAgent | AsyncPlanAgent
        s = self.settings
        budget = Budget(max_calls=s.max_llm_calls, max_tokens=s.max_tokens,
                        run=self.run_budget,
                        names=("webtask_max_llm_calls", "webtask_max_tokens",
                               "webtask_run_max_llm_calls", "webtask_run_max_tokens"))
        common: dict[str, Any] = dict(allowed_origins=self._origins() or ["*"],
                                      require_evidence=True, budget=budget,
                                      secrets=self.secrets,
                                      block_subresources=s.block_subresources,
                                      max_page_chars=s.page_chars)
        if s.strategy == "plan":
            agent = AsyncPlanAgent(self.page, llm, horizon=s.plan_horizon,
                                   max_iterations=s.max_iterations, **common)
        else:
            agent = AsyncAgent(self.page, llm, **common)
        try:
            if isinstance(agent, AsyncAgent):
                result = await agent.execute(agent_task, max_steps, ctx.resources,
                                             ctx.variables, ctx.secrets)
            else:  # strategy=plan: max_iterations bounds the task, not max_steps
                result = await agent.execute(agent_task, None, ctx.resources,
                                             ctx.variables, ctx.secrets)
        except WebtaskError as exc:
            self._count(agent.usage)
            await self._fail(f"{where}: recording stopped: {exc}", ctx)
        finally:
            self.page = replayer.page = agent.page  # the tab the step ended on
        self._count(agent.usage)
        if not result.completed:
            label = "check failed" if kind == "check" else "task not completed"
            await self._fail(f"{where}: {label}: {result.message}\n\n"
                             + self._step_log(result, ctx), ctx)
        step = compile_step(kind, text, result, ctx, self.base_url, start_url,
                            user_patterns(self.settings.dynamic))
        if not step.checks:
            await self._fail(
                f"{where}: the model reported completion without citing evidence found on the "
                "page, so a replay could not verify the outcome; nothing was recorded.\n\n"
                + self._step_log(result, ctx), ctx)
        try:
            await replayer.run_checks(step.checks, where + " (checks right after recording)")
        except ReplayError as exc:
            await self._fail(f"The recorded checks do not hold even right after recording, so "
                             f"nothing was recorded. {exc}", ctx)
        if before is not None:
            await before.mark(step.checks, ctx.substitute)
            if not any(c.discriminating for c in step.checks):
                await self._weak(where, step, ctx)
        self.stats.recorded += 1
        return step, result

    async def _weak(self, where: str, step: RecipeStep, ctx: TaskContext) -> None:
        """A recorded step whose every check held before it ran: a replay could pass without
        the step doing anything. Warn (the terminal summary names it), or fail if strict."""
        name = f"{self.session.test_name}: {where}"
        if self.settings.strict:
            await self._fail(
                f"{where}: none of the step's checks discriminates: each already held before "
                "the step ran (" + "; ".join(c.describe() for c in step.checks) + "), so a "
                "replay could pass without the step doing anything. Add a check(...) of what "
                "the step changes, or record with a model that cites it "
                "(--webtask-strict is set).", ctx)
        self.stats.weak.append(name)
        log.warning("%s: no check discriminates (all held before the step)", name)

    def _start_hint(self, step: RecipeStep) -> str:
        """Where the step was recorded from, when the page started elsewhere this time."""
        start = urlsplit(absolute_url(step.url or "/", self.base_url, self.page.url)).path
        if step.url and self._started_at != start:
            return (f"\n  note: this step was recorded starting at {start}, but this time it "
                    f"started at {self._started_at}")
        return ""

    def _origins(self) -> list[str] | None:
        origins = list(self.settings.allowed_origins)
        if self.base_url:
            origins.append(self.base_url)
        elif self.page.url.startswith("http"):
            origins.append(self.page.url)
        return origins or None

    def _count(self, usage: Usage) -> None:
        self.stats.llm_calls += usage.calls
        self.stats.prompt_tokens += usage.prompt_tokens
        self.stats.completion_tokens += usage.completion_tokens

    @staticmethod
    def _step_log(result: TaskResult, ctx: TaskContext) -> str:
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

    async def _mark_secrets(self) -> None:
        """Mark what shows a secret on the page, for a screenshot's mask."""
        if self.secrets:
            await self.page.evaluate(SECRET_FIELDS_JS, {"op": "mark",
                                                        "values": self.secrets.values})

    async def scrub_page(self) -> None:
        """Replace what shows a secret on every page of the context (fields and text), so
        screenshots taken after the test (pytest-playwright's ``--screenshot``) hold none."""
        if not self.secrets:
            return
        for page in self.page.context.pages:
            try:
                await page.evaluate(SECRET_FIELDS_JS, {"op": "scrub",
                                                       "values": self.secrets.values})
            except PlaywrightError as exc:
                log.debug("could not scrub %s: %s", page.url, exc)

    async def _fail(self, message: str, ctx: TaskContext) -> NoReturn:
        """Fail the test: count the failed step, save the message and a screenshot to the
        output folder, and report without a traceback from inside the plugin."""
        self.stats.failed += 1
        message = ctx.redact(message)
        if self._artifacts is not None:
            try:
                folder = self._artifacts()
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "webtask-failure.txt").write_text(message + "\n", encoding="utf-8")
                await self._mark_secrets()
                await self.page.screenshot(path=str(folder / "webtask-failure.png"),
                                           mask=[self.page.locator(f"[{SECRET_ATTR}]")])
                message += f"\n(step log and screenshot in {folder})"
            except (OSError, PlaywrightError) as exc:
                log.warning("could not save failure artifacts: %s", exc)
        raise pytest.fail.Exception(message, pytrace=False) from None  # printed once
