"""AsyncStartState: the page as a step found it, to tell which checks the step made true.

Kept only while a ``do`` step records. Its compiled checks are evaluated once, with the
replay's own code, on a static copy of the page taken before the agent acted: a check that
held there proves nothing about the step (``held_before``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

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
        opened in a browser context of its own (no scripts run in it)."""
        browser = self.page.context.browser
        if browser is None:  # a persistent context: no second context to open the copy in
            return
        viewport = self.page.viewport_size
        copy = None
        try:
            copy = await _copy_page(browser, viewport)
            await copy.set_content(self.html, wait_until="load", timeout=5000)
            replayer = AsyncReplayer(copy, timeout_ms=0, substitute=substitute)
            for check in checks:
                held, _ = await replayer.holds(check, url=self.url, before=True)
                check.held_before = held
        except PlaywrightError as exc:
            log.warning("could not check the page as it was before the step: %s", exc)
            pages = _COPIES.get(browser, {})
            if copy is not None and pages.get(repr(viewport)) is copy:
                del pages[repr(viewport)]  # not used again
                try:
                    await copy.context.close()
                except PlaywrightError:
                    pass


# The page the copies are opened in, one per browser and viewport, in a context of its own
# kept for the next recorded step: a context per step cost about 150 ms of CPU (a renderer
# started each time) against 16 ms for a new document in the same page. The context goes
# with its browser.
_COPIES: WeakKeyDictionary[Any, dict[str, Page]] = WeakKeyDictionary()


async def _copy_page(browser: Any, viewport: Any) -> Page:
    pages = _COPIES.setdefault(browser, {})
    page = pages.get(repr(viewport))
    if page is None or page.is_closed():
        context = await browser.new_context(viewport=viewport)
        page = pages[repr(viewport)] = await context.new_page()
    return page
