"""AsyncPipeline: the one place a step runs.

key -> the expected recipe step -> replay; or, when the recipe has no such step and the
policy allows it, record -> compile -> verify -> store. It counts every step, and fails the
test with one message (saved with a screenshot) when a step cannot be replayed or recorded.
The step kinds (``kinds.py``) say only how their kind replays and records.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, Protocol
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...agent.budget import Budget, RunBudget
from ...agent.task_context import TaskContext
from ...browser.secret_fields import SECRET_ATTR, SECRET_FIELDS_JS
from ...errors import WebtaskError
from ...export.trail import NoTrail
from ...recipes._async.replayer import AsyncReplayer
from ...recipes.model import RecipeStep
from ...recipes.urls import absolute_url
from ...report._async.shots import BOX_STYLE, report_clip, unbox
from ...report.collect import NoReport
from ...report.progress import Progress
from ...settings import Settings
from ...types import Secrets, Usage
from ..identity import StepKey
from ..observer import StepObserver
from ..outcome import StepOutcome, StepRequest, StepRun
from ..session import RecipeSession, StepStats
from ..strategy import Strategy, StrategyOptions, pick
from .strategies import builtin_strategies

log = logging.getLogger("pytest_webtask")


class AsyncStepKind(Protocol):
    kind: str

    async def replay(self, pipe: AsyncPipeline, run: StepRun, recorded: RecipeStep
                     ) -> list[dict[str, Any]]: ...

    async def record(self, pipe: AsyncPipeline, run: StepRun, llm: Any
                     ) -> tuple[RecipeStep, Any, list[dict[str, Any]]]: ...


class AsyncPipeline:
    """Runs the steps of one test on ``page`` against its recipe (``session``)."""

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
        strategies: dict[str, Strategy] | None = None,
        tools: list[type] | None = None,
        observer: StepObserver | None = None,
        fix_command: str = "",
        screenshot: bool = True,
        trail: Any = None,
        progress: Progress | None = None,
        html_report: Any = None,
        secrets: Secrets | None = None,
    ) -> None:
        self.page = page
        self.session = session
        self.settings = settings
        self.base_url = base_url
        self._llm_provider = llm_provider
        self.stats = stats
        self._report = report or (lambda line: None)
        self._artifacts = artifacts
        self.run_budget = run_budget
        self.strategies = {**builtin_strategies(), **(strategies or {})}
        self.tools = list(tools or [])
        self.observer = observer or StepObserver()
        # the plugin passes the test's own command; built by hand, the node id is unknown
        self.fix_command = fix_command or "pytest --webtask-record <the test's node id>"
        self.screenshot = screenshot  # on a failure (pytest-playwright's --screenshot)
        self.results: list[StepOutcome] = []
        # --webtask-export hears each page opened and step run (export/trail.py)
        self.trail = trail if trail is not None else NoTrail()
        self.progress = progress or Progress()  # the live line while recording
        self.html_report = html_report or NoReport()  # --webtask-report
        # every secret passed so far: masked for the rest of the test
        self.secrets = secrets if secrets is not None else Secrets()
        self._started_at = ""

    @property
    def tools_by_name(self) -> dict[str, type]:
        return {t.name: t for t in self.tools}  # type: ignore[attr-defined]

    async def run(self, kind: AsyncStepKind, request: StepRequest) -> StepOutcome:
        ctx = TaskContext.create(request.text, resources=request.resources,
                                 variables=request.variables, secrets=request.secrets,
                                 known=self.secrets)
        run = StepRun(request, ctx, len(self.results))
        self._started_at = urlsplit(self.page.url).path
        try:
            recorded = self.session.expected(run.index, request.key)
        except WebtaskError as exc:  # a broken recipe file
            await self.fail(str(exc), run)
        result = None
        if recorded is not None:
            items = await kind.replay(self, run, recorded)
            if run.healed is not None:  # a verified heal: the recipe takes its actions
                how, step = "healed", self._identified(run.healed, request.key,
                                                       only_unknown=True)
                self.stats.healed += 1
            else:
                self.stats.replayed += 1
                # a step recorded before identities were stored takes this call's, should
                # the recipe be written again
                how, step = "replayed", self._identified(recorded, request.key,
                                                         only_unknown=True)
        else:
            self.progress.step_started(run.where)
            try:
                llm = self.html_report.watch(
                    self.progress.watch(await self._recording_llm(run)))
                step, result, items = await kind.record(self, run, llm)
            finally:
                self.progress.step_finished()
            step = self._identified(step, request.key)
            self.stats.recorded += 1
            how = "recorded"
        outcome = StepOutcome(request.kind, request.text, how, time.monotonic() - run.started,
                              step, result, items, heal=run.heal_diff)
        self.session.done(run.index, step, recorded=how != "replayed")
        self.results.append(outcome)
        self.trail.step(step, request.variables, request.resources, request.secrets)
        if self.html_report.live:
            self.html_report.step_finished(outcome, await self.report_shot())
        counts = (f"{len(items)} item(s)" if request.kind == "extract" else
                  f"{len(step.actions)} action(s), {len(step.checks)} check(s)")
        self._report(f"webtask {run.where}: {how} ({counts}, {outcome.seconds:.2f}s)")
        self.observer.done(outcome)
        return outcome

    @staticmethod
    def _identified(step: RecipeStep, key: StepKey, only_unknown: bool = False) -> RecipeStep:
        names = {"variables": list(key.variables), "secrets": list(key.secrets),
                 "resources": list(key.resources)}
        if only_unknown:
            names = {k: v for k, v in names.items() if getattr(step, k) is None}
        return step.model_copy(update=names) if names else step

    # -- recording ------------------------------------------------------------------------

    async def _recording_llm(self, run: StepRun) -> Any:
        """The model to record with, or a failed test saying why recording is not allowed."""
        why = self.settings.no_model_reason
        if self.settings.mode != "record" and why:
            reason = self.session.why_missing(run.index, run.request.key)
            await self.fail(
                f"{run.where}: the recipe is missing: {reason}; {why}.\n"
                f"Record it where a model is configured with:  {self.fix_command}  "
                f"(then commit {self.session.path})", run)
        return await self.llm(run, f"{run.where} needs recording, but ")

    async def llm(self, run: StepRun, failing: str) -> Any:
        """The test's model (``webtask_llm``), or the test failed with ``failing`` and why
        there is none."""
        try:
            return self._llm_provider()
        except WebtaskError as exc:
            await self.fail(f"{failing}{exc}", run)

    def budget(self, max_calls: int | None = None,
               calls_setting: str = "webtask_max_llm_calls") -> Budget:
        """The model-call and token budget of one step (a heal passes its own call limit)."""
        s = self.settings
        return Budget(max_calls=s.max_llm_calls if max_calls is None else max_calls,
                      max_tokens=s.max_tokens, run=self.run_budget,
                      names=(calls_setting, "webtask_max_tokens",
                             "webtask_run_max_llm_calls", "webtask_run_max_tokens"))

    def replayer(self, run: StepRun, *, report: bool = False) -> AsyncReplayer:
        """A replayer on the current page with the step's values; ``report``: each action's
        target is shot for the HTML report before it is acted on."""
        return AsyncReplayer(self.page, base_url=self.base_url,
                             timeout_ms=self.settings.timeout * 1000,
                             substitute=run.ctx.substitute, resources=run.ctx.resources,
                             tools=self.tools_by_name,
                             before_action=self.report_action
                             if report and self.html_report.live else None)

    async def runner(self, llm: Any, max_steps: int, run: StepRun,
                     budget: Budget | None = None) -> Any:
        """The agent of the test's strategy, for one recorded (or healed) step."""
        s = self.settings
        try:
            factory = pick(self.strategies, s.strategy)
        except WebtaskError as exc:
            await self.fail(f"{run.where}: {exc}", run)
        options = StrategyOptions(allowed_origins=self.origins() or ["*"],
                                  budget=budget or self.budget(), secrets=self.secrets,
                                  max_steps=max_steps, block_subresources=s.block_subresources,
                                  max_page_chars=s.page_chars, plan_horizon=s.plan_horizon,
                                  max_iterations=s.max_iterations, extra_tools=self.tools)
        return factory(self.page, llm, options)

    def count(self, usage: Usage) -> None:
        self.stats.llm_calls += usage.calls
        self.stats.prompt_tokens += usage.prompt_tokens
        self.stats.completion_tokens += usage.completion_tokens

    async def weak(self, run: StepRun, step: RecipeStep) -> None:
        """A recorded step whose every check held before it ran: a replay could pass without
        the step doing anything. Warn (the terminal summary names it), or fail if strict."""
        name = f"{self.session.test_name}: {run.where}"
        if self.settings.strict:
            await self.fail(
                f"{run.where}: none of the step's checks discriminates: each already held "
                "before the step ran (" + "; ".join(c.describe() for c in step.checks) + "), "
                "so a replay could pass without the step doing anything. Add a check(...) of "
                "what the step changes, or record with a model that cites it "
                "(--webtask-strict is set).", run)
        self.stats.weak.append(name)
        log.warning("%s: no check discriminates (all held before the step)", name)

    # -- shared by the kinds --------------------------------------------------------------

    def start_hint(self, step: RecipeStep) -> str:
        """Where the step was recorded from, when the page started elsewhere this time."""
        start = urlsplit(absolute_url(step.url or "/", self.base_url, self.page.url)).path
        if step.url and self._started_at != start:
            return (f"\n  note: this step was recorded starting at {start}, but this time it "
                    f"started at {self._started_at}")
        return ""

    def origins(self) -> list[str] | None:
        origins = list(self.settings.allowed_origins)
        if self.base_url:
            origins.append(self.base_url)
        elif self.page.url.startswith("http"):
            origins.append(self.page.url)
        return origins or None

    def artifact_path(self, name: str) -> Path | None:
        return self._artifacts() / name if self._artifacts else None

    async def screenshot_masked(self, **options: Any) -> bytes:
        """A screenshot of the page with every field that shows a secret masked: the one way
        the plugin takes a screenshot."""
        if self.secrets:
            await self.page.evaluate(SECRET_FIELDS_JS, {"op": "mark",
                                                        "values": self.secrets.values})
        return await self.page.screenshot(mask=[self.page.locator(f"[{SECRET_ATTR}]")],
                                          **options)

    async def report_shot(self, target: Any = None) -> bytes | None:
        """The page for the HTML report: a small JPEG, secret fields masked. With ``target``
        (a locator): the part of the page around it, the element boxed."""
        try:
            clip = await report_clip(self.page, target) if target is not None else None
            return await self.screenshot_masked(type="jpeg", quality=35, scale="css",
                                                clip=clip, style=BOX_STYLE)
        except PlaywrightError as exc:
            log.debug("no report screenshot: %s", exc)
            return None
        finally:
            if target is not None:
                await unbox(target)

    async def report_action(self, action: Any, target: Any) -> None:
        """Before a replayed action: its target boxed, for the report."""
        self.html_report.action(action, await self.report_shot(target))

    async def fail(self, message: str, run: StepRun) -> NoReturn:
        """Fail the test: count the failed step, save the message and a screenshot to the
        output folder, and report without a traceback from inside the plugin."""
        self.stats.failed += 1
        message = run.ctx.redact(message)
        self.observer.failed(run.request.kind, run.request.text, message)
        if self.html_report.live:
            self.html_report.step_failed(run.request.kind, run.request.text, message,
                                         time.monotonic() - run.started,
                                         await self.report_shot())
        if self._artifacts is not None:
            try:
                folder = self._artifacts()
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "webtask-failure.txt").write_text(message + "\n", encoding="utf-8")
                if self.screenshot:
                    await self.screenshot_masked(path=str(folder / "webtask-failure.png"))
                saved = "step log and screenshot" if self.screenshot else "step log"
                message += f"\n({saved} in {folder})"
            except (OSError, PlaywrightError) as exc:
                log.warning("could not save failure artifacts: %s", exc)
        raise pytest.fail.Exception(message, pytrace=False) from None  # printed once
