"""AsyncStartState: the page as a step found it, to tell which checks the step made true.

Kept only while a ``do`` step records. Its compiled checks are evaluated once, with the
replay's own code, on a static copy of the page taken before the agent acted: a check that
held there proves nothing about the step (``held_before``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ...browser.script import COLLECTOR_JS
from ..model import Check
from .replayer import AsyncReplayer

log = logging.getLogger("pytest_webtask")


class AsyncStartState:
    def __init__(self, page: Page, html: str, url: str) -> None:
        self.page = page
        self.html = html
        self.url = url

    @classmethod
    async def take(cls, page: Page) -> AsyncStartState | None:
        """The page now (HTML with form state, URL); None when it can't be read."""
        try:
            html = await page.evaluate(COLLECTOR_JS, {"op": "freeze"})
        except PlaywrightError as exc:
            log.warning("could not keep the page before the step: %s", exc)
            return None
        return cls(page, html, page.url)

    async def mark(self, checks: list[Check], substitute: Callable[[str], str]) -> None:
        """Set ``held_before`` on each check that holds on the page as it was. The copy is
        opened in a browser context of its own (no scripts run in it), then closed."""
        browser = self.page.context.browser
        if browser is None:  # a persistent context: no second context to open the copy in
            return
        context = await browser.new_context(viewport=self.page.viewport_size)
        try:
            copy = await context.new_page()
            await copy.set_content(self.html, wait_until="load", timeout=5000)
            replayer = AsyncReplayer(copy, timeout_ms=0, substitute=substitute)
            for check in checks:
                held, _ = await replayer.holds(check, url=self.url, before=True)
                check.held_before = held
        except PlaywrightError as exc:
            log.warning("could not check the page as it was before the step: %s", exc)
        finally:
            await context.close()
