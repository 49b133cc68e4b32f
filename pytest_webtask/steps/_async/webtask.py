"""AsyncWebTask: what a test calls (goto, do, check, extract). Each step goes through the
pipeline, which replays the recipe or records it when allowed."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...browser.secret_fields import SECRET_FIELDS_JS
from ...recipes.urls import absolute_url
from ...settings import Settings
from ...types import Secrets
from ..identity import StepIdentity
from ..lookahead import caller_of
from ..outcome import StepOutcome, StepRequest
from ..stats import StepStats
from .kinds import AsyncCheckStep, AsyncDoStep, AsyncExtractStep
from .pipeline import AsyncPipeline

log = logging.getLogger("pytest_webtask")


class AsyncWebTask:
    """The ``async_webtask`` fixture's object: plain-English steps on a Playwright page,
    each run by ``pipeline`` (whose owner calls ``pipeline.finish`` when the test ends)."""

    def __init__(self, pipeline: AsyncPipeline) -> None:
        self._pipe = pipeline

    @property
    def page(self) -> Page:
        """The current tab (a step that opens or switches tabs changes it)."""
        return self._pipe.page

    @property
    def results(self) -> list[StepOutcome]:
        """The steps run so far, in order."""
        return self._pipe.results

    @property
    def secrets(self) -> Secrets:
        """Every secret passed so far (masked in messages, reports and screenshots)."""
        return self._pipe.secrets

    @property
    def stats(self) -> StepStats:
        """This test's counts: steps replayed, recorded and failed, model calls, tokens."""
        return self._pipe.stats

    @property
    def settings(self) -> Settings:
        return self._pipe.settings

    async def goto(self, url: str) -> None:
        """Open ``url``; a relative URL resolves against ``--base-url``."""
        target = absolute_url(url, self._pipe.test.base_url, self.page.url or "")
        if not urlsplit(target).scheme or target.startswith("about:"):
            pytest.fail(f"goto({url!r}): a relative URL needs a base URL: pass --base-url, "
                        "set base_url in the ini file, or override the base_url fixture.",
                        pytrace=False)
        await self.page.goto(target)
        self._pipe.listeners.page_opened(target)  # --webtask-export repeats the goto calls

    async def do(self, task: str, resources: dict[str, Any] | None = None,
                 secrets: dict[str, Any] | None = None, **variables: Any) -> StepOutcome:
        """Complete ``task`` (English), or fail the test with the step log.

        ``{name}`` placeholders take ``variables`` (the model sees them) and ``secrets`` (the
        model sees only the name; never written anywhere). A variable or secret may be a
        plain function, called when the step first types or checks it (once per run of the
        step): a one-time code. ``resources`` name files the task may upload.
        """
        key = StepIdentity.make("do", task, variables=variables, secrets=secrets,
                           resources=resources)
        return await self._pipe.run(AsyncDoStep(), StepRequest(
            key, task, variables, dict(secrets or {}), dict(resources or {}),
            caller=caller_of()))  # where the test's next checks are read, if recorded

    async def check(self, statement: str, **variables: Any) -> StepOutcome:
        """Assert ``statement`` about the page; a false statement fails the test.
        ``{name}`` placeholders take ``variables``, as ``do``'s do (the model sees them; the
        recipe keeps the placeholder, so a replay checks the value passed then)."""
        return await self._pipe.run(AsyncCheckStep(), StepRequest(
            StepIdentity.make("check", statement, variables=variables),
            AsyncCheckStep.task(statement), variables))

    async def extract(self, what: str, max_items: int = 20, fields: list[str] | None = None,
                      allow_skipped: int = 0) -> list[dict[str, Any]]:
        """Extract items from a list-detail page: every item of the list, with
        ``fields`` (read by per-field selectors) or its details text, at most ``max_items``.
        Recorded once by the three LLM phases; replayed by the recipe executor alone. An
        item that cannot be read fails the step unless ``allow_skipped`` allows that many."""
        request = StepRequest(StepIdentity.make("extract", what, fields=fields), what,
                              max_items=max_items, allow_skipped=allow_skipped)
        outcome = await self._pipe.run(AsyncExtractStep(fields), request)
        return outcome.items

    async def scrub_page(self) -> None:
        """Replace what shows a secret on every page of the context (fields and text), so
        screenshots taken after the test (pytest-playwright's ``--screenshot``) hold none."""
        if not self.secrets:
            return
        await self._pipe.note_exposed("at the end of the test")
        for page in self.page.context.pages:
            for frame in page.frames:  # a frame's document too, of any origin
                try:
                    await frame.evaluate(SECRET_FIELDS_JS, {"op": "scrub",
                                                            "values": self.secrets.values})
                except PlaywrightError as exc:
                    log.debug("could not scrub %s: %s", frame.url, exc)
