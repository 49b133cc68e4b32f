"""AsyncStepHarness: what a step kind is handed for one step, and nothing more: the step
(``run``), the tab, the settings; replay on the page, run the agent, count model use, fail
the test. The pipeline builds one per step and reads the tab back when the kind is done."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, cast

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from ...agent.budget import Budget
from ...agent.models import Evidence
from ...errors import WebtaskError
from ...llm.base import LLM
from ...recipes._async.replayer import AsyncReplayer
from ...recipes.model import RecipeAction
from ...report._async.shots import report_shot, screenshot_masked
from ...settings import Settings
from ...tools._async.browser_tools import AsyncTool
from ...types import Secrets, Usage
from ..listeners import Listeners
from ..lookahead import following_checks
from ..outcome import StepRun
from ..services import AgentAttempt, StepServices, TestInfo
from ..stats import StepStats
from ..strategy import StrategyOptions, pick
from .strategies import builtin_strategies

log = logging.getLogger("pytest_webtask")


class AsyncStepHarness:
    """One step's view of its test: read ``run``, ``page`` (a kind that ends on another tab
    sets it), ``settings``, ``base_url`` and ``fix_command``; call the rest."""

    def __init__(self, run: StepRun, page: Page, settings: Settings, test: TestInfo,
                 services: StepServices, secrets: Secrets, stats: StepStats,
                 listeners: Listeners, recipe_path: Path | None = None) -> None:
        self.run = run
        self.recipe_path = recipe_path  # its folder holds the baseline pictures
        self.page = page
        self.settings = settings
        self.base_url = test.base_url
        self.fix_command = test.fix_command
        self._test = test
        self._services = services
        self._secrets = secrets
        self._stats = stats
        self._listeners = listeners
        # a replay's counts at the step's start (``AsyncReplayer.starts``), for a heal's checks
        self.starts: dict[int, int] = {}

    @property
    def tools(self) -> dict[str, type[AsyncTool]]:
        """The plugins' tools by name: the agent offers them, recipes keep and replay their
        actions through their ``perform``, as for the built-ins they may replace."""
        return {t.name: t for t in cast("list[type[AsyncTool]]", self._services.tools)}

    # -- replay ---------------------------------------------------------------------------

    def replayer(self, *, report: bool = False) -> AsyncReplayer:
        """A replayer on the current page with the step's values; ``report``: each action's
        target is shot for the listeners that want it before it is acted on."""
        ctx = self.run.values
        return AsyncReplayer(self.page, base_url=self.base_url,
                             timeout_ms=self.settings.timeout * 1000,
                             substitute=ctx.substitute, resources=ctx.resources,
                             tools=self.tools,
                             names_secret=ctx.names_secret,
                             baselines=self.recipe_path.parent if self.recipe_path else None,
                             before_action=self._before_action
                             if report and self._listeners.wants_shots else None)

    async def _before_action(self, action: RecipeAction, target: Locator | None) -> None:
        self._listeners.action(self.run, action,
                               await report_shot(self.page, self._secrets, target))

    def pictures(self, pictures: dict[str, bytes]) -> None:
        """Show a visual check's pictures (expected, actual, diff) with the step's report."""
        self._listeners.pictures(self.run, pictures)

    def origins(self) -> list[str] | None:
        """The origins the step may reach: the configured ones and the test's site."""
        origins = list(self.settings.allowed_origins)
        if self.base_url:
            origins.append(self.base_url)
        elif self.page.url.startswith("http"):
            origins.append(self.page.url)
        return origins or None

    def artifact(self, name: str) -> Path | None:
        """Where to keep a file of the step beside the test's other artifacts, if anywhere."""
        return self._test.artifacts / name if self._test.artifacts is not None else None

    # -- the agent ------------------------------------------------------------------------

    async def llm(self, failing: str) -> LLM:
        """The test's model (``webtask_llm``), or the test failed with ``failing`` and why
        there is none."""
        try:
            return self._services.llm()
        except WebtaskError as exc:
            await self.fail(f"{failing}{exc}")

    async def run_agent(self, llm: LLM, max_steps: int, *, heal: bool = False,
                        count_at_start: Callable[[Evidence], Any] | None = None
                        ) -> AgentAttempt:
        """The agent of the test's strategy works the step's task out on the page, within
        the step's budget (a heal's: ``webtask_heal_max_llm_calls``). The page becomes the
        tab it ended on; its model use is counted. ``count_at_start``: what a count claim
        counts on the page as the step began (its claims with a change need it)."""
        s, run = self.settings, self.run
        try:
            factory = pick({**builtin_strategies(), **self._services.strategies}, s.strategy)
        except WebtaskError as exc:
            await self.fail(f"{run.where}: {exc}")
        calls, calls_setting = ((s.heal_max_llm_calls, "webtask_heal_max_llm_calls") if heal
                                else (s.max_llm_calls, "webtask_max_llm_calls"))
        budget = Budget(max_calls=calls, max_tokens=s.max_tokens,
                        run=self._services.run_budget,
                        names=(calls_setting, "webtask_max_tokens",
                               "webtask_run_max_llm_calls", "webtask_run_max_tokens"))
        options = StrategyOptions(allowed_origins=self.origins() or ["*"], budget=budget,
                                  secrets=self._secrets, max_steps=max_steps,
                                  block_subresources=s.block_subresources,
                                  page_chars=s.page_chars, plan_horizon=s.plan_horizon,
                                  max_iterations=s.max_iterations,
                                  extra_tools=self._services.tools, rules_off=s.rules_off,
                                  profile=s.profile,
                                  then_checks=following_checks(run.request.caller))
        agent = factory(self.page, llm, options)
        browser = getattr(agent, "browser", None)  # a plugin's strategy may have none
        if browser is not None:
            browser.count_at_start = count_at_start
        ctx = run.values
        result, stopped = None, ""
        try:
            result = await agent.execute(run.request.agent_task or run.request.text,
                                         max_steps, ctx.resources, ctx.passed(secret=False),
                                         ctx.passed(secret=True))
        except WebtaskError as exc:
            stopped = str(exc)
        finally:
            self.page = agent.page  # the tab the step ended on
        self.count(agent.usage, heal=heal)
        return AgentAttempt(result, stopped, agent.usage,
                            list(getattr(browser, "frames_not_allowed", [])))

    def count(self, usage: Usage, *, heal: bool = False) -> None:
        """Add a step's model use to the test's counts."""
        self._stats.llm_calls += usage.calls
        self._stats.prompt_tokens += usage.prompt_tokens
        self._stats.completion_tokens += usage.completion_tokens
        self._stats.llm_seconds += usage.seconds
        self._stats.llm_timeouts += usage.timeouts
        self._stats.llm_refusals += usage.refusals
        if heal:
            self._stats.heal_llm_calls += usage.calls

    # -- failing --------------------------------------------------------------------------

    async def fail(self, message: str, pictures: dict[str, bytes] | None = None
                   ) -> NoReturn:
        """Fail the test: count the failed step, tell the listeners, save the message and a
        screenshot to the artifacts folder, and report without a traceback from inside the
        plugin. ``pictures`` (a visual check's expected, actual and diff PNGs) are saved
        there too, named in the message, and shown in the report."""
        run = self.run
        self._stats.failed += 1
        message = run.values.redact(message)
        folder = self._test.artifacts
        if pictures:
            self.pictures(pictures)
            message += self._save_pictures(pictures)
        shot = (await report_shot(self.page, self._secrets)
                if self._listeners.wants_shots else None)
        self._listeners.step_failed(run, message, shot)
        if folder is not None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "webtask-failure.txt").write_text(message + "\n", encoding="utf-8")
                if self._test.screenshot:
                    await screenshot_masked(self.page, self._secrets,
                                            path=str(folder / "webtask-failure.png"))
                saved = "step log and screenshot" if self._test.screenshot else "step log"
                message += f"\n({saved} in {folder})"
            except (OSError, PlaywrightError) as exc:
                log.warning("could not save failure artifacts: %s", exc)
        raise pytest.fail.Exception(message, pytrace=False) from None  # printed once

    def _save_pictures(self, pictures: dict[str, bytes]) -> str:
        """Save a visual check's pictures beside the test's artifacts: the lines that name
        them for the failure message ("" when there is no artifacts folder)."""
        folder = self._test.artifacts
        if folder is None:
            return ""
        lines = []
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for name, png in pictures.items():
                path = folder / f"webtask-{self.run.index + 1}-{name}.png"
                path.write_bytes(png)
                lines.append(f"\n  {name}: {path}")
        except OSError as exc:
            log.warning("could not save the pictures of a visual check: %s", exc)
        return "".join(lines)
