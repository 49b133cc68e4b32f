"""AsyncPipeline: the one place a step runs.

key -> the expected recipe step -> replay; or, when the recipe has no such step and the
policy allows it, record -> compile -> verify; and when the test ends, store. It counts every
step and tells the listeners. The step kinds (``kinds.py``) say only how their kind replays
and records, through the narrow ``AsyncStepHarness`` it hands them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Protocol
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...browser.secret_fields import SECRET_FIELDS_JS
from ...errors import WebtaskError
from ...llm.base import LLM
from ...recipes.model import RecipeStep
from ...recipes.storage import healed_picture
from ...report._async.shots import report_shot
from ...settings import Settings
from ...tools.values import ComputedValueError, StepValues
from ...types import Secrets
from ..identity import StepIdentity
from ..listeners import Listeners, StepListener
from ..outcome import Heal, Recorded, Replayed, StepOutcome, StepRequest, StepRun
from ..services import StepServices, TestInfo
from ..session import RecipeSession
from ..stats import StepStats
from .harness import AsyncStepHarness

log = logging.getLogger("pytest_webtask")


class AsyncStepKind(Protocol):
    kind: str

    async def replay(self, harness: AsyncStepHarness, recorded: RecipeStep) -> Replayed:
        """Replay ``recorded``: what happened (an extract step's items, a verified heal), or
        the test failed (``harness.fail``)."""
        ...

    async def record(self, harness: AsyncStepHarness, llm: LLM) -> Recorded:
        """Record the step with ``llm``: the recipe step and what else happened."""
        ...


class AsyncPipeline:
    """Runs the steps of one test on ``page`` against its recipe (``session``); ``finish``
    stores the recipe and tells the listeners the test is over."""

    def __init__(self, page: Page, session: RecipeSession, settings: Settings, *,
                 services: StepServices | None = None, test: TestInfo | None = None,
                 listeners: Sequence[StepListener] = (), secrets: Secrets | None = None
                 ) -> None:
        self.page = page
        self.session = session
        self.settings = settings
        self.services = services or StepServices()
        self.test = test or TestInfo()
        self.listeners = Listeners(listeners)
        # every secret passed so far: masked for the rest of the test
        self.secrets = secrets if secrets is not None else Secrets()
        self.stats = StepStats()
        self.results: list[StepOutcome] = []

    async def run(self, kind: AsyncStepKind, request: StepRequest) -> StepOutcome:
        where = f"Step {len(self.results) + 1} {request.kind}({request.text!r})"
        try:  # a callable value is computed when the step first uses it (Computed)
            values = StepValues.of(resources=request.resources, variables=request.variables,
                                   secrets=request.secrets, known=self.secrets)
        except ComputedValueError as exc:
            raise pytest.fail.Exception(f"{where}: {exc}", pytrace=False) from None
        run = StepRun(request, values, len(self.results), urlsplit(self.page.url).path)
        harness = AsyncStepHarness(run, self.page, self.settings, self.test, self.services,
                                   self.secrets, self.stats, self.listeners,
                                   recipe_path=self.session.path)
        try:
            return await self._run(kind, harness)
        except ComputedValueError as exc:  # raised where the value was typed or checked
            await harness.fail(f"{run.where}: {exc}")
        finally:
            self.page = harness.page  # the tab the step ended on

    async def _run(self, kind: AsyncStepKind, harness: AsyncStepHarness) -> StepOutcome:
        run, request = harness.run, harness.run.request
        try:
            recorded = self.session.expected(run.index, request.key)
        except WebtaskError as exc:  # a broken recipe file
            await harness.fail(str(exc))
        result, heal = None, None
        if recorded is not None:
            replayed = await kind.replay(harness, recorded)
            items, heal = replayed.items, replayed.heal
            if heal is None and recorded.unverified:
                await self._unverified(harness, recorded)
            if heal is not None:
                self._keep_heal(harness, heal)
            if heal is not None and self.settings.heal != "suggest":
                # a verified heal: the recipe takes its actions
                how, step = "healed", self._identified(heal.step, request.key,
                                                       only_unknown=True)
                self.stats.healed += 1
            else:
                self.stats.replayed += 1
                # a step recorded before identities were stored takes this call's, should
                # the recipe be written again
                how, step = "replayed", self._identified(recorded, request.key,
                                                         only_unknown=True)
        else:
            self.listeners.recording_started(run)
            try:
                llm = self.listeners.heard(await self._recording_llm(harness))
                done = await kind.record(harness, llm)
                step, result, items = done.step, done.result, done.items
                if done.weak:
                    await self._weak(harness, step)
            finally:
                self.listeners.recording_ended(run)
            step = self._identified(step, request.key)
            self.stats.recorded += 1
            how = "recorded"
        outcome = StepOutcome(request.kind, request.text, how, time.monotonic() - run.started,
                              step, result, items, heal=heal.diff if heal else [])
        self.session.done(run.index, step, recorded=how != "replayed")
        self.results.append(outcome)
        await self.note_exposed(f"after {run.where}", harness.page)
        shot = (await report_shot(harness.page, self.secrets)
                if self.listeners.wants_shots else None)
        self.listeners.step_finished(run, outcome, shot)
        return outcome

    def finish(self, passed: bool) -> None:
        """The test is over: store the recipe when a step was recorded or healed (see
        ``RecipeSession.finish``), then tell the listeners (the export, the report)."""
        self.session.finish(passed)
        self.listeners.test_finished(passed)

    @staticmethod
    def _identified(step: RecipeStep, key: StepIdentity, only_unknown: bool = False) -> RecipeStep:
        names = {"variables": list(key.variables), "secrets": list(key.secrets),
                 "resources": list(key.resources)}
        if only_unknown:
            names = {k: v for k, v in names.items() if getattr(step, k) is None}
        return step.model_copy(update=names) if names else step

    async def _recording_llm(self, harness: AsyncStepHarness) -> LLM:
        """The model to record with, or a failed test saying why recording is not allowed."""
        run = harness.run
        why = self.settings.no_model_reason
        if self.settings.mode != "record" and why:
            reason = self.session.why_missing(run.index, run.request.key)
            await harness.fail(
                f"{run.where}: the recipe is missing: {reason}; {why}.\n"
                f"Record it where a model is configured with:  {self.test.fix_command}  "
                f"(then commit {self.session.path})")
        return await harness.llm(f"{run.where} needs recording, but ")

    async def _weak(self, harness: AsyncStepHarness, step: RecipeStep) -> None:
        """A recorded step whose every check held before it ran: a replay could pass without
        the step doing anything. Warn (the terminal summary names it), or fail if strict."""
        where = harness.run.where
        name = f"{self.session.test_name}: {where}"
        if self.settings.strict:
            await harness.fail(
                f"{where}: none of the step's checks discriminates: each already held "
                "before the step ran (" + "; ".join(c.describe() for c in step.checks) + "), "
                "so a replay could pass without the step doing anything. Add a check(...) of "
                "what the step changes, or record with a model that cites it "
                "(--webtask-strict is set).")
        self.stats.weak.append(name)
        log.warning("%s: no check discriminates (all held before the step)", name)

    async def _unverified(self, harness: AsyncStepHarness, step: RecipeStep) -> None:
        """A replayed step whose recipe step checks nothing it changed: it passed without
        verifying anything. Named in the terminal summary, or failed if strict."""
        where = harness.run.where
        name = f"{self.session.test_name}: {where}"
        why = step.why_unverified()
        if self.settings.strict:
            await harness.fail(
                f"{where}: the replay verified nothing: the recipe step "
                f"({self.session.path}) checks nothing the step changes ({why}), so it would "
                f"pass whatever the page did. Record it again ({self.test.fix_command}) or "
                "add a check(...) after it (--webtask-strict is set).")
        self.stats.unverified.append(name)
        log.warning("%s: replayed, but verified nothing (%s)", name, why)

    async def note_exposed(self, when: str, page: Page | None = None) -> None:
        """Count every element a page shows a secret in unmasked (text the page wrote, a
        field the secret was not typed into by a step): pictures taken before now may show
        it, so the test's trace frames and videos are dropped afterwards. From now on each
        is masked."""
        if not self.secrets:
            return
        frames = [f for each in (page or self.page).context.pages for f in each.frames]
        for each in frames:  # every document: a frame's, of any origin, too
            try:
                found = await each.evaluate(SECRET_FIELDS_JS, {"op": "exposed",
                                                               "values": self.secrets.values})
            except PlaywrightError as exc:
                log.debug("could not look for secrets shown on %s: %s", each.url, exc)
                continue
            for element in found:
                self.stats.exposed.append(self.secrets.mask(
                    f"{self.session.test_name}: {when}: {element}"))

    def _keep_heal(self, harness: AsyncStepHarness, heal: Heal) -> None:
        """Count a verified heal and say where it went: the recipe (rewritten when the test
        ends) or, with ``--webtask-heal=suggest``, a proposal beside it."""
        run = harness.run
        suggest = self.settings.heal == "suggest"
        if suggest:
            self.session.suggest(run.index, heal.step)
        pictures = [healed_picture(c.screenshot.file) for c in heal.step.checks
                    if c.screenshot is not None and c.screenshot.png is not None
                    and c.screenshot.file]
        where = f"{self.session.test_name}: {run.where} ({heal.calls}; " + (
            f"proposed in {', '.join([self.session.healed_path.name, *pictures])})"
            if suggest else "recipe rewritten)")
        self.stats.heals.append("\n".join([where, *(f"    {line}" for line in heal.diff)]))
        log.warning("healed %s", "\n".join([where, *heal.diff]))
        path = harness.artifact(f"webtask-heal-{run.index + 1}.txt")
        if path is not None:  # beside the test's other artifacts, for the report
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(run.values.redact("\n".join([where, *heal.diff])) + "\n",
                                encoding="utf-8")
            except OSError as exc:
                log.warning("could not save the heal's diff: %s", exc)
